/** What an image is, read from its first bytes (as platforms judge uploads), not from the Content-Type it came with. */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** How many first bytes imageTypeOf needs. */
export const IMAGE_SNIFF_BYTES = 12;

/** `image/jpeg`, `image/png`, `image/gif`, `image/webp`, `image/bmp` or `image/tiff` by signature; '' for anything else. */
export function imageTypeOf(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  if (bytes.subarray(0, 2).toString('latin1') === 'BM') return 'image/bmp';
  const tiff = bytes.subarray(0, 4).toString('hex');
  if (tiff === '49492a00' || tiff === '4d4d002a') return 'image/tiff';
  return '';
}
