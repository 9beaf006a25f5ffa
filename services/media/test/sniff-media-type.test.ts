import { randomBytes } from 'node:crypto';
import { acceptedContentType } from '../src/ingest/media-types';
import { sniffMediaType, SNIFF_BYTES } from '../src/ingest/sniff-media-type';
import { A_PDF, A_WEB_PAGE } from './support/media-files';
import { ASF_ZERO_SIZE, ebmlHeader, ftyp, REAL_HEADERS } from './support/media-headers';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('sniffMediaType: the accepted formats', () => {
  test.each(REAL_HEADERS.map((h) => [h.name, h.type, h] as const))(
    'when the bytes start like a real %s, then it is %s',
    (_name, type, header) => {
      expect(sniffMediaType(header.bytes)).toBe(type);
      expect(sniffMediaType(Buffer.concat([header.bytes, randomBytes(SNIFF_BYTES)]))).toBe(type);
    },
  );

  test.each(REAL_HEADERS.map((h) => [h.name, h.needs, h] as const))(
    'when the %s header is cut anywhere before byte %i, then it is refused',
    (_name, needs, header) => {
      const cut = Array.from({ length: needs }, (_, n) => n).filter(
        (n) => sniffMediaType(header.bytes.subarray(0, n)) !== undefined,
      );
      expect(cut).toEqual([]);
      expect(sniffMediaType(header.bytes.subarray(0, needs))).toBe(header.type);
    },
  );

  test('when a HEIC photo is sniffed (brand heic, or mif1 naming heic compatible), then it is image/heic', () => {
    expect(acceptedContentType(sniffMediaType(ftyp('heic', ['mif1', 'heic', 'iso8'])))).toBe('image/heic');
    expect(acceptedContentType(sniffMediaType(ftyp('mif1', ['mif1', 'heic', 'miaf'])))).toBe('image/heic');
    expect(acceptedContentType(sniffMediaType(ftyp('heix', ['heix'])))).toBe('image/heic');
  });

  test('when M4V or QuickTime brands are sniffed, then they are stored as the types served', () => {
    expect(acceptedContentType(sniffMediaType(ftyp('M4VH', ['M4VH'])))).toBe('video/mp4');
    expect(acceptedContentType(sniffMediaType(ftyp('qt  ', ['qt  '])))).toBe('video/quicktime');
    expect(acceptedContentType(sniffMediaType(REAL_HEADERS.find((h) => h.name === 'APNG')!.bytes))).toBe('image/png');
  });
});

describe('sniffMediaType: everything else', () => {
  const refused: [string, Buffer][] = [
    ['an empty file', Buffer.alloc(0)],
    ['an ASF header object of declared size 0 (the 64 bytes that hung file-type)', ASF_ZERO_SIZE],
    [
      'an ASF header object of a plausible size',
      Buffer.concat([ASF_ZERO_SIZE.subarray(0, 16), hex('1e00000000000000 01000000 0102'), Buffer.alloc(40)]),
    ],
    ['a web page', A_WEB_PAGE],
    ['a PDF', A_PDF],
    ['a Matroska video (EBML DocType "matroska")', ebmlHeader('matroska')],
    ['an EBML header of another DocType', ebmlHeader('webmx')],
    ['an EBML header of unknown size', Buffer.concat([hex('1a45dfa3 ff'), ebmlHeader('webm').subarray(5)])],
    [
      'an EBML header declaring a child far past the bytes given',
      hex('1a45dfa3 01ffffffffffff00 4282 01fffffffffffff0 7765626d'),
    ],
    ['an EBML header whose DocType size is unknown', hex('1a45dfa3 8a 4282 ff 7765626d 00000000')],
    ['an EBML header that is only zero bytes after the ID', Buffer.concat([hex('1a45dfa3'), Buffer.alloc(60)])],
    ['an AVIF image under the generic image brand', ftyp('mif1', ['mif1', 'avif', 'miaf'])],
    ['a HEVC image sequence', ftyp('hevc', ['msf1', 'hevc'])],
    ['an AVIF image that lists MP4 brands', ftyp('avif', ['avif', 'mif1', 'miaf', 'iso6'])],
    ['an M4A audio file that lists isom', ftyp('M4A ', ['M4A ', 'mp42', 'isom'])],
    ['a 3GPP video', ftyp('3gp4', ['3gp4', '3gp5'])],
    ['an ftyp box of unknown brands only', ftyp('abcd', ['efgh', 'ijkl'])],
    ['an ftyp box of declared size 0', Buffer.concat([hex('00000000'), ftyp('isom', ['isom']).subarray(4)])],
    [
      'an ftyp box of declared size 1 (64-bit size)',
      Buffer.concat([hex('00000001'), ftyp('isom', ['isom']).subarray(4), Buffer.alloc(64)]),
    ],
    [
      'an ftyp box larger than the bytes given',
      Buffer.concat([hex('00010000'), ftyp('isom', ['isom']).subarray(4), Buffer.alloc(64)]),
    ],
    ['an ftyp box of a size between brands', Buffer.concat([hex('00000013'), ftyp('isom', ['isom']).subarray(4)])],
    [
      'an ftyp box that does not come first (a legacy QuickTime moov)',
      Buffer.concat([hex('00000008 77696465'), ftyp('qt  ', ['qt  '])]),
    ],
    [
      'a RIFF WAVE file',
      Buffer.concat([Buffer.from('RIFF'), hex('24000000'), Buffer.from('WAVEfmt '), Buffer.alloc(24)]),
    ],
    [
      'a RIFF WEBP without a bitstream chunk',
      Buffer.concat([Buffer.from('RIFF'), hex('0c000000'), Buffer.from('WEBPJUNK'), Buffer.alloc(8)]),
    ],
    ['"WEBP" at offset 8 without RIFF', Buffer.concat([Buffer.alloc(8), Buffer.from('WEBPVP8 '), Buffer.alloc(16)])],
    ['a JPEG start of image with no marker after it', hex('ffd8ff00 0000')],
    [
      'a PNG signature without IHDR',
      Buffer.concat([hex('89504e470d0a1a0a'), hex('0000000d'), Buffer.from('IDAT'), Buffer.alloc(16)]),
    ],
    ['a GIF signature of an unknown version', Buffer.concat([Buffer.from('GIF88a'), Buffer.alloc(16)])],
    ['text', Buffer.from('just some words, not a picture\n'.repeat(10))],
  ];

  test.each(refused)('when the bytes are %s, then no type is recognised', (_what, bytes) => {
    expect(sniffMediaType(bytes)).toBeUndefined();
  });

  test('when an accepted header starts past the sniff window, then it is not looked for', () => {
    const png = REAL_HEADERS.find((h) => h.type === 'image/png')!.bytes;
    expect(sniffMediaType(Buffer.concat([Buffer.alloc(SNIFF_BYTES), png]))).toBeUndefined();
  });

  test('when an ftyp box is larger than the sniff window, then it is refused even if the bytes go on', () => {
    const brands = Array.from({ length: SNIFF_BYTES / 4 }, () => 'abcd');
    expect(sniffMediaType(ftyp('abcd', [...brands, 'isom']))).toBeUndefined();
    expect(sniffMediaType(ftyp('abcd', [...brands.slice(8), 'isom']))).toBe('video/mp4');
  });
});
