import type { DetectedType } from '../../src/ingest/media-types';

/**
 * The first bytes of real files of each accepted format, as cameras, phones, encoders and
 * browsers write them, with the type each must be recognised as and the length below which the
 * header is cut too short to tell (every shorter prefix must be refused).
 */
export interface RealHeader {
  name: string;
  bytes: Buffer;
  type: DetectedType;
  /** The shortest prefix that shows the type. */
  needs: number;
}

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const ascii = (s: string) => Buffer.from(s, 'latin1');

/** An ISO-BMFF `ftyp` box: major brand, minor version 0x200, compatible brands. */
export function ftyp(major: string, compatible: string[]): Buffer {
  const box = Buffer.alloc(16 + 4 * compatible.length);
  box.writeUInt32BE(box.length, 0);
  box.write('ftyp', 4, 'latin1');
  box.write(major, 8, 'latin1');
  box.writeUInt32BE(0x200, 12);
  compatible.forEach((brand, i) => box.write(brand, 16 + 4 * i, 'latin1'));
  return box;
}

/** An EBML header as ffmpeg writes it, declaring `docType`. */
export function ebmlHeader(docType: string): Buffer {
  const children = Buffer.concat([
    hex('4286 81 01'), // EBMLVersion 1
    hex('42f7 81 01'), // EBMLReadVersion 1
    hex('42f2 81 04'), // EBMLMaxIDLength 4
    hex('42f3 81 08'), // EBMLMaxSizeLength 8
    hex('4282'),
    Buffer.from([0x80 | docType.length]),
    ascii(docType),
    hex('4287 81 04'), // DocTypeVersion 4
    hex('4285 81 02'), // DocTypeReadVersion 2
  ]);
  return Buffer.concat([hex('1a45dfa3'), Buffer.from([0x80 | children.length]), children]);
}

/** What follows an EBML header in a WebM file: the Segment element, size unknown (live), as browsers record. */
const SEGMENT_START = hex('18538067 01ffffffffffffff 1549a966');

const JFIF = hex('ffd8ffe0 0010 4a464946 00 0101 0048 0048 0000');
const EXIF = Buffer.concat([hex('ffd8ffe1 0018'), ascii('Exif\0\0'), hex('4d4d002a 00000008 0000 00000000')]);
const RAW_JPEG = hex('ffd8ffdb 0043 00 0806060706050806070707090908');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A PNG signature and IHDR, then an APNG animation control chunk (acTL: 2 frames, loop forever). */
const APNG = Buffer.concat([PNG.subarray(0, 33), hex('00000008 6163544c 00000002 00000000 c8a7c5a2')]);
const GIF89A = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const GIF87A = Buffer.concat([
  ascii('GIF87a'),
  hex('0100 0100 80 00 00 000000 ffffff 2c 0000 0000 0100 0100 00 02024401 00 3b'),
]);
const WEBP_LOSSY = Buffer.from('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA', 'base64');
const WEBP_LOSSLESS = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
const WEBP_EXTENDED = Buffer.concat([
  ascii('RIFF'),
  hex('4a000000'),
  ascii('WEBPVP8X'),
  hex('0a000000 10000000 000000 000000'),
  ascii('ALPH'),
]);

export const REAL_HEADERS: RealHeader[] = [
  { name: 'JPEG (JFIF)', bytes: JFIF, type: 'image/jpeg', needs: 4 },
  { name: 'JPEG (Exif, from a phone camera)', bytes: EXIF, type: 'image/jpeg', needs: 4 },
  { name: 'JPEG (no APP segment)', bytes: RAW_JPEG, type: 'image/jpeg', needs: 4 },
  { name: 'PNG', bytes: PNG, type: 'image/png', needs: 16 },
  { name: 'APNG', bytes: APNG, type: 'image/png', needs: 16 },
  { name: 'GIF89a', bytes: GIF89A, type: 'image/gif', needs: 13 },
  { name: 'GIF87a', bytes: GIF87A, type: 'image/gif', needs: 13 },
  { name: 'WebP (lossy)', bytes: WEBP_LOSSY, type: 'image/webp', needs: 16 },
  { name: 'WebP (lossless)', bytes: WEBP_LOSSLESS, type: 'image/webp', needs: 16 },
  { name: 'WebP (extended, with alpha)', bytes: WEBP_EXTENDED, type: 'image/webp', needs: 16 },
  { name: 'MP4 (ffmpeg: isom)', bytes: ftyp('isom', ['isom', 'iso2', 'avc1', 'mp41']), type: 'video/mp4', needs: 32 },
  { name: 'MP4 (Android phone: mp42)', bytes: ftyp('mp42', ['isom', 'mp42']), type: 'video/mp4', needs: 24 },
  { name: 'MP4 (DASH segment)', bytes: ftyp('dash', ['iso6', 'avc1', 'mp41']), type: 'video/mp4', needs: 28 },
  {
    name: 'MP4 (camera brand, MP4 compatible)',
    bytes: ftyp('XAVC', ['XAVC', 'mp42', 'iso2']),
    type: 'video/mp4',
    needs: 28,
  },
  { name: 'M4V (iTunes)', bytes: ftyp('M4V ', ['M4V ', 'M4A ', 'mp42', 'isom']), type: 'video/x-m4v', needs: 32 },
  { name: 'MOV (iPhone: qt)', bytes: ftyp('qt  ', ['qt  ']), type: 'video/quicktime', needs: 20 },
  { name: 'WebM (ffmpeg)', bytes: Buffer.concat([ebmlHeader('webm'), SEGMENT_START]), type: 'video/webm', needs: 28 },
];

/** An ASF header object (the 16-byte GUID) whose declared size is 0: 64 bytes in all. */
export const ASF_ZERO_SIZE = Buffer.concat([hex('3026b275 8e66cf11 a6d900aa 0062ce6c'), Buffer.alloc(48)]);
