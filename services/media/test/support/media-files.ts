export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
export const TINY_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const A_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const A_WEB_PAGE = Buffer.from(
  '<!DOCTYPE html><html><head><title>Shared file</title></head><body>Click to download</body></html>',
);

/** Real files of any size (ffprobe reads every stored file): built in @postbus/testing, shared with the gateway's tests. */
export { aJpeg, anMp4 } from '@postbus/testing';

export const MB = 1024 * 1024;
