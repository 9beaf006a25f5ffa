import fc from 'fast-check';
import { parentPort, workerData } from 'node:worker_threads';
import { acceptedContentType } from '../../src/ingest/media-types';
import { sniffMediaType, SNIFF_BYTES } from '../../src/ingest/sniff-media-type';
import { announceReady, recordInput } from './bounded-worker';
import { ASF_ZERO_SIZE, ebmlHeader, ftyp, REAL_HEADERS } from './media-headers';

/**
 * Fuzzes a sniffer in a worker thread (see bounded-worker.ts): random bytes, and real headers of
 * every accepted format (and of near misses) with bytes flipped, set, inserted, removed, cut off,
 * or replaced by extreme declared sizes. Answers the property failures, if any.
 */

export interface FuzzWorkerData {
  slot: SharedArrayBuffer;
  /** `sniffMediaType`, or `declaredSizeWalker`: a stand-in for a parser that trusts declared sizes, to show a hang is caught. */
  subject: 'sniffMediaType' | 'declaredSizeWalker';
  numRuns: number;
}

export interface FuzzResult {
  failures: string[];
}

const ASF_GUID = ASF_ZERO_SIZE.subarray(0, 16);

/** Walks ASF objects the way file-type 16.5.4 did: by each one's declared 64-bit size, which may be 0. */
function declaredSizeWalker(head: Buffer): string | undefined {
  if (!head.subarray(0, 16).equals(ASF_GUID)) return undefined;
  let at = 30;
  while (at + 24 <= head.length) at += Number(head.readBigUInt64LE(at + 16));
  return undefined;
}

const data = workerData as FuzzWorkerData;
const subject: (head: Buffer) => string | undefined =
  data.subject === 'declaredSizeWalker' ? declaredSizeWalker : sniffMediaType;

function sniffRecorded(bytes: Buffer): string | undefined {
  recordInput(data.slot, bytes);
  return subject(bytes);
}

const SEEDS = [
  ...REAL_HEADERS.map((h) => h.bytes),
  ASF_ZERO_SIZE,
  ebmlHeader('matroska'),
  ftyp('heic', ['mif1', 'heic', 'iso8']),
  ftyp('3gp4', ['3gp4']),
];

type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'size'; at: number; value: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'remove'; at: number; length: number }
  | { kind: 'cut'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({
    kind: fc.constant('size' as const),
    at: fc.nat(),
    value: fc.oneof(fc.constantFrom(0, 1, 8, 16, 0x7fffffff, 0xffffffff), fc.nat()),
  }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 16 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
);

function mutate(bytes: Buffer, m: Mutation): Buffer {
  const at = m.at % (bytes.length + 1);
  const out = Buffer.from(bytes);
  switch (m.kind) {
    case 'flip':
      if (at < out.length) out[at] ^= 1 << m.bit;
      return out;
    case 'set':
      if (at < out.length) out[at] = m.value;
      return out;
    case 'size':
      if (at + 4 <= out.length) out.writeUInt32BE(m.value >>> 0, at);
      return out;
    case 'insert':
      return Buffer.concat([out.subarray(0, at), m.bytes, out.subarray(at)]);
    case 'remove':
      return Buffer.concat([out.subarray(0, at), out.subarray(at + m.length)]);
    case 'cut':
      return out.subarray(0, at);
  }
}

const isAllowed = (type: string | undefined) => type === undefined || acceptedContentType(type) !== undefined;

const properties: [string, fc.IProperty<any>, fc.Parameters<any>][] = [
  [
    'mutated real headers',
    fc.property(
      fc.nat(SEEDS.length - 1),
      fc.array(mutation, { maxLength: 8 }),
      fc.uint8Array({ maxLength: 512 }),
      (seed, mutations, tail) => {
        const head = mutations.reduce(mutate, SEEDS[seed]);
        return isAllowed(sniffRecorded(Buffer.concat([head, tail])));
      },
    ),
    // The bytes that hung file-type 16.5.4 come first, unmutated.
    { numRuns: data.numRuns, examples: [[SEEDS.indexOf(ASF_ZERO_SIZE), [], new Uint8Array(0)]] },
  ],
  [
    'random bytes',
    fc.property(fc.uint8Array({ maxLength: SNIFF_BYTES + 100 }), (bytes) =>
      isAllowed(sniffRecorded(Buffer.from(bytes))),
    ),
    { numRuns: data.numRuns },
  ],
  [
    'real headers followed by anything',
    fc.property(fc.constantFrom(...REAL_HEADERS), fc.uint8Array({ maxLength: SNIFF_BYTES }), (header, tail) => {
      const type = sniffRecorded(Buffer.concat([header.bytes, tail]));
      return data.subject !== 'sniffMediaType' || type === header.type;
    }),
    { numRuns: data.numRuns },
  ],
];

announceReady(parentPort!);
const failures: string[] = [];
for (const [name, property, params] of properties) {
  try {
    fc.assert(property, params);
  } catch (err) {
    failures.push(`${name}: ${(err as Error).message}`);
  }
}
parentPort!.postMessage({ failures } satisfies FuzzResult);
