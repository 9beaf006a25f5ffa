import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '@postbus/contracts';
import type { MediaRepository } from '../library/media.repository';
import { servedFileHeaders } from '../serving/file-headers';
import { openStored, type StoredObjectPorts } from '../serving/stored-object';
import type { UrlSigner } from '../serving/url-signer';
import type { ByteRange } from '../storage/media-store';

const DAY = 24 * 3600;

/**
 * GET/HEAD {base_url}/files/{mediaId}?expires=…&sig=…: the bytes for platforms, with the
 * detected Content-Type, Content-Length, an ETag (the content hash) and single byte ranges,
 * named and sandboxed (servedFileHeaders) so a file is never a page of {base_url}.
 * A media whose object storage lost answers 410 media_gone, whatever was asked of it.
 */
export function serveFile(ports: StoredObjectPorts & { media: MediaRepository; signer: UrlSigner }): RequestHandler {
  return async (req: Request, res: Response) => {
    const mediaId = String(req.params.mediaId);
    const secondsLeft = ports.signer.verify(mediaId, req.query.expires, req.query.sig);
    const media = await ports.media.findServable(mediaId);
    if (!media) throw new AppError('not_found', 'This media was deleted.');

    const etag = `"${media.sha256}"`;
    const notModified = matchesEtag(req.header('if-none-match'), etag);
    const range = notModified ? undefined : requestedRange(req, media.sizeBytes, etag);
    // The object is opened (or, with no body to send, looked up) before any header is set, so a
    // missing one leaves as a plain JSON error.
    const body =
      range === 'unsatisfiable'
        ? undefined
        : await openStored(ports, media, req.method === 'GET' && !notModified ? { range } : 'check');

    res.setHeader('ETag', etag);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Cache-Control', `private, max-age=${Math.min(secondsLeft, DAY)}`);
    res.setHeader('Content-Type', media.contentType);
    res.set(servedFileHeaders(media.id, media.contentType));
    if (notModified) return void res.status(304).end();
    if (range === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${media.sizeBytes}`);
      return void res.status(416).end();
    }
    if (range) {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${media.sizeBytes}`);
    }
    res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : media.sizeBytes));
    if (!body) return void res.end();

    await pipeline(body, res).catch((err) => {
      if (!res.destroyed && !req.destroyed) throw err; // a client that hung up is not an error
    });
  };
}

/** One byte range; several ranges, a malformed header or a stale If-Range get the whole file. */
function requestedRange(req: Request, size: number, etag: string): ByteRange | 'unsatisfiable' | undefined {
  if (!req.headers.range) return undefined;
  const ifRange = req.header('if-range');
  if (ifRange && ifRange !== etag) return undefined;
  const ranges = req.range(size, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges === undefined || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  return { start: ranges[0].start, end: ranges[0].end };
}

/** If-None-Match: `*` or a list of (possibly weak) tags; the comparison is weak, as RFC 9110 asks. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
