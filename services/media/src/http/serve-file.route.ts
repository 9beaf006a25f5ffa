import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '@postbus/contracts';
import type { MediaRepository } from '../library/media.repository';
import type { UrlSigner } from '../serving/url-signer';
import type { ByteRange, MediaStore } from '../storage/media-store';

const DAY = 24 * 3600;

/**
 * GET/HEAD {base_url}/files/{mediaId}?expires=…&sig=…: the bytes for platforms, with the
 * detected Content-Type, Content-Length, an ETag (the content hash) and single byte ranges.
 */
export function serveFile(ports: { media: MediaRepository; store: MediaStore; signer: UrlSigner }): RequestHandler {
  return async (req: Request, res: Response) => {
    const mediaId = String(req.params.mediaId);
    const secondsLeft = ports.signer.verify(mediaId, req.query.expires, req.query.sig);
    const media = await ports.media.findServable(mediaId);
    if (!media) throw new AppError('not_found', 'This media was deleted.');

    const etag = `"${media.sha256}"`;
    res.setHeader('ETag', etag);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Cache-Control', `private, max-age=${Math.min(secondsLeft, DAY)}`);
    res.setHeader('Content-Type', media.contentType);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (matchesEtag(req.header('if-none-match'), etag)) return void res.status(304).end();

    const range = requestedRange(req, media.sizeBytes, etag);
    if (range === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${media.sizeBytes}`);
      return void res.status(416).end();
    }
    if (range) {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${media.sizeBytes}`);
    }
    res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : media.sizeBytes));
    if (req.method === 'HEAD') return void res.end();

    const body = await ports.store.open(media.storageKey, range);
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
