import type { Request, RequestHandler, Response } from 'express';
import { refuseUnread, sendJsonRpcError } from './json-rpc-refusal';

export interface BodyLimit {
  maxBytes: number;
  /** The 413 message: the limit and where bigger payloads go. */
  tooLarge: string;
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Reads a JSON-RPC body of at most `limitFor(res).maxBytes`, chosen per request (after the caller
 * is known). A declared Content-Length over the limit is refused before a byte is read; otherwise
 * reading stops, and 413 is answered, as soon as the limit is passed. Nothing is inflated: a
 * compressed body is refused, so a small request cannot become a large one.
 */
export function readJsonBody(limitFor: (res: Response) => BodyLimit): RequestHandler {
  return (req, res, next) => {
    const limit = limitFor(res);
    if (!JSON_TYPE.test(req.headers['content-type'] ?? ''))
      return refuseUnread(req, res, 415, 'Unsupported Media Type: Content-Type must be application/json');
    if ((req.headers['content-encoding'] ?? 'identity').toLowerCase() !== 'identity')
      return refuseUnread(req, res, 415, 'Unsupported Media Type: send the body uncompressed (no Content-Encoding)');
    if (Number(req.headers['content-length']) > limit.maxBytes) return refuseUnread(req, res, 413, limit.tooLarge);
    collect(req, limit.maxBytes, (outcome) => {
      if (outcome === 'too_large') return refuseUnread(req, res, 413, limit.tooLarge);
      try {
        const body: unknown = JSON.parse(outcome.toString('utf8'));
        req.body = body;
      } catch {
        return sendJsonRpcError(res, 400, -32700, 'Parse error');
      }
      next();
    });
  };
}

/** Gathers the body up to maxBytes; stops listening at the first byte past it. A client that goes away gets no callback. */
function collect(req: Request, maxBytes: number, done: (outcome: Buffer | 'too_large') => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  const stop = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', stop);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= maxBytes) return void chunks.push(chunk);
    stop();
    chunks.length = 0;
    done('too_large');
  };
  const onEnd = () => {
    stop();
    done(Buffer.concat(chunks, received));
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', stop);
}
