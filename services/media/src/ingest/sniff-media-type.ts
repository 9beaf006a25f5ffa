import { ebmlDocType, startsLikeEbml } from './ebml-header';
import { isoBmffType } from './iso-bmff-brands';
import type { DetectedType } from './media-types';

/** How many leading bytes decide a file's type; nothing past them is looked at. */
export const SNIFF_BYTES = 4096;

/**
 * The accepted type the first bytes of a file show, or undefined for anything else (other
 * formats, near misses, headers cut short). Synchronous and pure: every read is at a fixed
 * offset or inside a loop bounded by the bytes given, never by a size the file declares, so a
 * crafted header costs at most one pass over SNIFF_BYTES (a general-purpose detector walking
 * declared sizes is how a 64-byte ASF header once looped forever).
 */
export function sniffMediaType(bytes: Buffer): DetectedType | undefined {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (isJpeg(head)) return 'image/jpeg';
  if (isPng(head)) return 'image/png';
  if (isGif(head)) return 'image/gif';
  if (isWebp(head)) return 'image/webp';
  if (startsLikeEbml(head)) return ebmlDocType(head) === 'webm' ? 'video/webm' : undefined;
  return isoBmffType(head);
}

/** Start of image, then the first marker (APPn, DQT, SOFn…: 0xC0 and above). */
function isJpeg(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff && head[3] >= 0xc0;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The IHDR chunk, which the PNG specification requires first: length 13, then its name. */
const PNG_IHDR = Buffer.from([0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);

/** PNG and animated PNG (APNG adds chunks after IHDR; its first bytes are a PNG's). */
function isPng(head: Buffer): boolean {
  return bytesAt(head, 0, PNG_SIGNATURE) && bytesAt(head, 8, PNG_IHDR);
}

/** GIF87a or GIF89a, and the 7-byte logical screen descriptor after it. */
function isGif(head: Buffer): boolean {
  return head.length >= 13 && (textAt(head, 0, 'GIF87a') || textAt(head, 0, 'GIF89a'));
}

const WEBP_CHUNKS = ['VP8 ', 'VP8L', 'VP8X'];

/** A RIFF container of form WEBP whose first chunk is a WebP bitstream (lossy, lossless or extended). */
function isWebp(head: Buffer): boolean {
  return textAt(head, 0, 'RIFF') && textAt(head, 8, 'WEBP') && WEBP_CHUNKS.some((chunk) => textAt(head, 12, chunk));
}

function bytesAt(head: Buffer, offset: number, expected: Buffer): boolean {
  return head.length >= offset + expected.length && head.subarray(offset, offset + expected.length).equals(expected);
}

function textAt(head: Buffer, offset: number, expected: string): boolean {
  return (
    head.length >= offset + expected.length && head.toString('latin1', offset, offset + expected.length) === expected
  );
}
