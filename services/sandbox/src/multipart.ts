import express, { type RequestHandler } from 'express';

/** One part of a `multipart/form-data` body (RFC 7578): a text field, or a file when it has a filename. */
export interface MultipartPart {
  name: string;
  filename?: string;
  /** The part's own `Content-Type`, lower-cased, without parameters. */
  contentType?: string;
  data: Buffer;
}

/**
 * Reads a `multipart/form-data` body whole into `req.body` as a Buffer, at most `maxBytes`: a larger
 * one fails with express's `entity.too.large`, which each platform's error handler answers as that
 * platform does. Other bodies pass untouched.
 */
export function rawMultipart(maxBytes: number): RequestHandler {
  return express.raw({ type: 'multipart/form-data', limit: maxBytes });
}

/**
 * Enough of RFC 7578 for uploads: each part's name, filename, content type and bytes, in the order
 * sent (a repeated name stands twice; the caller says which one counts). Parts without a header
 * block or a `name` are skipped; nothing after the closing delimiter is read. A content type that
 * names no boundary is refused with the platform's own error, `noBoundary()`.
 */
export function readMultipart(body: Buffer, contentType: string, noBoundary: () => Error): MultipartPart[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) throw noBoundary();
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = partOf(body.subarray(start + 2, next - 2));
    if (part) parts.push(part);
    at = next;
  }
  return parts;
}

/** A part from the bytes between two delimiters: its headers, a blank line, its data. */
function partOf(chunk: Buffer): MultipartPart | undefined {
  const headerEnd = chunk.indexOf('\r\n\r\n');
  if (headerEnd === -1) return undefined;
  const head = chunk.subarray(0, headerEnd).toString('utf8');
  const name = /name="([^"]*)"/i.exec(head)?.[1];
  if (name === undefined) return undefined;
  return {
    name,
    filename: /filename="([^"]*)"/i.exec(head)?.[1],
    contentType: /content-type:\s*([^\r\n;]+)/i.exec(head)?.[1]?.trim().toLowerCase(),
    data: chunk.subarray(headerEnd + 4),
  };
}
