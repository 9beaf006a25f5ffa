import express, { type RequestHandler, type Response } from 'express';
import { invalidParameter } from './graph-error';

/** A file part of a `multipart/form-data` Graph call. */
export interface GraphFile {
  filename: string;
  contentType: string | undefined;
  data: Buffer;
}

/**
 * Graph calls that carry a file (`POST /{page-id}/videos` with `thumb`) come as
 * `multipart/form-data`: the body is read whole (at most `maxBytes`), its text parts become the
 * parameters (`req.body`, as the form parsers leave them) and its files are kept for multipartFile.
 * Other bodies pass untouched.
 */
export function graphMultipart(maxBytes: number): RequestHandler[] {
  const parse: RequestHandler = (req, res, next) => {
    if (!Buffer.isBuffer(req.body)) return next();
    const boundary = /boundary="?([^";]+)"?/i.exec(req.get('content-type') ?? '')?.[1];
    if (!boundary) throw invalidParameter('The multipart body has no boundary.');
    const fields: Record<string, string> = {};
    const files: Record<string, GraphFile> = {};
    for (const part of partsOf(req.body, boundary)) {
      if (part.filename === undefined) fields[part.name] = part.data.toString('utf8');
      else files[part.name] = { filename: part.filename, contentType: part.contentType, data: part.data };
    }
    req.body = fields;
    res.locals.graphFiles = files;
    next();
  };
  return [express.raw({ type: 'multipart/form-data', limit: maxBytes }), parse];
}

/** The file sent under `name` in a multipart Graph call, if any. */
export function multipartFile(res: Response, name: string): GraphFile | undefined {
  return (res.locals.graphFiles as Record<string, GraphFile> | undefined)?.[name];
}

function partsOf(
  body: Buffer,
  boundary: string,
): { name: string; filename?: string; contentType?: string; data: Buffer }[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { name: string; filename?: string; contentType?: string; data: Buffer }[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const chunk = body.subarray(start + 2, next - 2);
    const headerEnd = chunk.indexOf('\r\n\r\n');
    const head = headerEnd === -1 ? '' : chunk.subarray(0, headerEnd).toString('utf8');
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (name !== undefined)
      parts.push({
        name,
        filename: /filename="([^"]*)"/i.exec(head)?.[1],
        contentType: /content-type:\s*([^\r\n;]+)/i.exec(head)?.[1]?.trim().toLowerCase(),
        data: chunk.subarray(headerEnd + 4),
      });
    at = next;
  }
  return parts;
}
