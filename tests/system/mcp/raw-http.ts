import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  body: any;
}

export interface RawPost {
  headers?: Record<string, string>;
  /** A whole JSON body, sent and ended. */
  json?: unknown;
  /**
   * Sends this many bytes of a body and then waits without ending it: an answer can only come
   * from a server that refuses before reading the whole body (the rest is never sent).
   */
  sendThenWait?: number;
  /** Declared Content-Length (chunked when absent). */
  contentLength?: number;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x20); // spaces: valid leading JSON whitespace, so only the size can be refused

/**
 * A POST through node:http, which (unlike fetch) sends any Host header and lets a body stay
 * unfinished. Settles with the answer, or fails if none comes within `timeoutMs`.
 */
export function rawPost(url: string, opts: RawPost, timeoutMs = 20_000): Promise<RawAnswer> {
  const target = new URL(url);
  const body = opts.json === undefined ? undefined : Buffer.from(JSON.stringify(opts.json));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(body && { 'content-length': String(body.length) }),
    ...(opts.contentLength !== undefined && { 'content-length': String(opts.contentLength) }),
    ...opts.headers,
  };
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: 'POST',
      headers,
      setHost: !('host' in headers),
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer from ${url} within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: the text itself is the answer
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    // Once the answer is in, the server may close a connection we are still sending on.
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    if (body) return void req.end(body);
    let left = opts.sendThenWait ?? 0;
    const pump = () => {
      while (left > 0 && !req.destroyed) {
        const chunk = CHUNK.subarray(0, Math.min(left, CHUNK.length));
        left -= chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}
