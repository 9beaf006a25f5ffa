import type { RequestHandler, Response } from 'express';
import { rawMultipart, readMultipart } from '../multipart';
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
    const parts = readMultipart(req.body, req.get('content-type') ?? '', () =>
      invalidParameter('The multipart body has no boundary.'),
    );
    const fields: Record<string, string> = {};
    const files: Record<string, GraphFile> = {};
    for (const part of parts) {
      if (part.filename === undefined) fields[part.name] = part.data.toString('utf8');
      else files[part.name] = { filename: part.filename, contentType: part.contentType, data: part.data };
    }
    req.body = fields;
    res.locals.graphFiles = files;
    next();
  };
  return [rawMultipart(maxBytes), parse];
}

/** The file sent under `name` in a multipart Graph call, if any. */
export function multipartFile(res: Response, name: string): GraphFile | undefined {
  return (res.locals.graphFiles as Record<string, GraphFile> | undefined)?.[name];
}
