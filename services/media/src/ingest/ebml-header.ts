/**
 * The EBML header that starts a WebM or Matroska file: element ID 1A 45 DF A3, its size, then
 * child elements, one of which (DocType, ID 42 82) says "webm" or "matroska".
 */
const EBML_ID = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
const DOC_TYPE_ID = 0x4282;
/** EBML caps element IDs at 4 bytes and sizes at 8. */
const MAX_ID_WIDTH = 4;
const MAX_SIZE_WIDTH = 8;

export function startsLikeEbml(head: Buffer): boolean {
  return head.length >= EBML_ID.length && head.subarray(0, EBML_ID.length).equals(EBML_ID);
}

/**
 * The DocType the EBML header declares, or undefined when the header is cut short, malformed or
 * has none. Each step moves forward by at least two bytes and never past the header or the bytes
 * given, so the walk is bounded by `head`, whatever sizes the file declares.
 */
export function ebmlDocType(head: Buffer): string | undefined {
  if (!startsLikeEbml(head)) return undefined;
  const headerSize = readVint(head, EBML_ID.length, head.length, MAX_SIZE_WIDTH);
  if (!headerSize || headerSize.unknown) return undefined;
  const start = EBML_ID.length + headerSize.width;
  const end = Math.min(start + headerSize.value, head.length);
  let at = start;
  while (at < end) {
    const id = readVint(head, at, end, MAX_ID_WIDTH);
    if (!id) return undefined;
    const size = readVint(head, at + id.width, end, MAX_SIZE_WIDTH);
    if (!size || size.unknown) return undefined;
    const body = at + id.width + size.width;
    if (size.value > end - body) return undefined;
    if (id.raw === DOC_TYPE_ID) return head.toString('latin1', body, body + size.value).replace(/\0+$/, '');
    at = body + size.value;
  }
  return undefined;
}

interface Vint {
  width: number;
  /** With the length marker bit (how element IDs are written). */
  raw: number;
  /** Without it (how sizes are written). */
  value: number;
  /** All value bits set: "size unknown", never valid in a header. */
  unknown: boolean;
}

/** An EBML variable-length integer at `at`, read only from bytes before `end`; undefined when cut off or wider than `maxWidth`. */
function readVint(head: Buffer, at: number, end: number, maxWidth: number): Vint | undefined {
  if (at >= end) return undefined;
  const first = head[at];
  // The count of leading zero bits says how many more bytes follow (a zero byte: none is valid).
  const width = Math.clz32(first) - 23;
  if (width > maxWidth || at + width > end) return undefined;
  let raw = first;
  let value = first & (0xff >> width);
  let allOnes = value === 0xff >> width;
  for (let i = 1; i < width; i++) {
    raw = raw * 256 + head[at + i];
    value = value * 256 + head[at + i];
    allOnes &&= head[at + i] === 0xff;
  }
  return { width, raw, value, unknown: allOnes };
}
