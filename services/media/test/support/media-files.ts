import { randomBytes } from 'node:crypto';

/** Test files whose type the sniffer recognises from the first bytes; the rest is random. */
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const MP4_HEAD = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');

export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
export const TINY_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const A_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const A_WEB_PAGE = Buffer.from('<!DOCTYPE html><html><head><title>Shared file</title></head><body>Click to download</body></html>');

export function aJpeg(sizeBytes = 2048): Buffer {
  return Buffer.concat([JPEG_HEAD, randomBytes(Math.max(0, sizeBytes - JPEG_HEAD.length))]);
}

export function anMp4(sizeBytes = 4096): Buffer {
  return Buffer.concat([MP4_HEAD, randomBytes(Math.max(0, sizeBytes - MP4_HEAD.length))]);
}

export const MB = 1024 * 1024;
