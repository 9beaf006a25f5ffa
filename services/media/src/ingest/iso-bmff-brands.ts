import type { DetectedType } from './media-types';

/**
 * Brands of the ISO base media file format (MP4, M4V, MOV) that mean a video we accept. 3GPP,
 * audio-only (M4A, M4B, M4P) and still-image brands (HEIC, AVIF) are not in it; HEIC photos are
 * recognised apart (heicType).
 */
const VIDEO_BRANDS = new Map<string, DetectedType>([
  ['isom', 'video/mp4'],
  ['iso2', 'video/mp4'],
  ['iso3', 'video/mp4'],
  ['iso4', 'video/mp4'],
  ['iso5', 'video/mp4'],
  ['iso6', 'video/mp4'],
  ['mp41', 'video/mp4'],
  ['mp42', 'video/mp4'],
  ['avc1', 'video/mp4'],
  ['dash', 'video/mp4'],
  ['MSNV', 'video/mp4'],
  ['M4V ', 'video/x-m4v'],
  ['M4VH', 'video/x-m4v'],
  ['M4VP', 'video/x-m4v'],
  ['qt  ', 'video/quicktime'],
]);

/**
 * Major brands that say the file is a still image or audio. Such files often list ISO brands as
 * compatible too (a HEIC photo may name `iso8`, an M4A `isom`), so their major brand decides.
 */
const NOT_VIDEO_BRANDS = new Set([
  'heic',
  'heix',
  'hevc',
  'hevx',
  'heim',
  'heis',
  'mif1',
  'msf1',
  'avif',
  'avis',
  'crx ',
  'M4A ',
  'M4B ',
  'M4P ',
  'F4A ',
  'F4B ',
]);

/** size (4) + 'ftyp' (4) + major brand (4) + minor version (4). */
const FTYP_FIXED_BYTES = 16;

/**
 * The video type an ISO-BMFF file names in its `ftyp` box, which must come first: the major
 * brand, else the first compatible brand we know. The whole box must lie inside `head` (a real
 * one is a few dozen bytes), so the brand loop is bounded by the bytes given.
 */
export function isoBmffType(head: Buffer): DetectedType | undefined {
  if (head.length < FTYP_FIXED_BYTES || head.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  const boxSize = head.readUInt32BE(0);
  // 0 ("to the end of the file") and 1 (a 64-bit size follows) are never right for ftyp.
  if (boxSize < FTYP_FIXED_BYTES || boxSize > head.length || (boxSize - FTYP_FIXED_BYTES) % 4 !== 0) return undefined;
  const major = head.toString('latin1', 8, 12);
  if (NOT_VIDEO_BRANDS.has(major)) return heicType(head, major, boxSize);
  const byMajor = VIDEO_BRANDS.get(major);
  if (byMajor) return byMajor;
  for (let at = FTYP_FIXED_BYTES; at < boxSize; at += 4) {
    const compatible = VIDEO_BRANDS.get(head.toString('latin1', at, at + 4));
    if (compatible) return compatible;
  }
  return undefined;
}

/** HEIF brands of HEVC-coded still images (ISO/IEC 23008-12 Annex B): a phone's HEIC photo. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis']);

/**
 * A HEIC photo: its major brand a HEIC one, or the generic image brand (`mif1`, `msf1`) with a
 * HEIC brand among the compatible ones. AVIF and image sequences (`hevc`, `hevx`) are not.
 */
function heicType(head: Buffer, major: string, boxSize: number): DetectedType | undefined {
  if (HEIC_BRANDS.has(major)) return 'image/heic';
  if (major !== 'mif1' && major !== 'msf1') return undefined;
  for (let at = FTYP_FIXED_BYTES; at < boxSize; at += 4)
    if (HEIC_BRANDS.has(head.toString('latin1', at, at + 4))) return 'image/heic';
  return undefined;
}
