import { NetError } from './net-error';

export interface BoundedBody {
  bytes: Buffer;
  /** True when the body went on past maxBytes and `bytes` holds only its first maxBytes (oversize: 'truncate'). */
  truncated: boolean;
}

export interface BodyLimit {
  maxBytes: number;
  /** Beyond maxBytes: fail with NetError `too_large` (the default) or keep the first maxBytes. */
  oversize?: 'fail' | 'truncate';
  /** Ends the body's stream (destroy, cancel) once no more of it is wanted. */
  stop(): void;
}

/**
 * Reads a body as it streams, holding at most `maxBytes` of it (plus the one chunk that crossed
 * the line): the stream is stopped the moment it goes past, never read to its end.
 */
export async function readBoundedBody(chunks: AsyncIterable<Uint8Array>, limit: BodyLimit): Promise<BoundedBody> {
  const kept: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of chunks) {
      if (size + chunk.byteLength > limit.maxBytes) {
        if (limit.oversize !== 'truncate') throw bodyTooLarge(limit.maxBytes);
        kept.push(Buffer.from(chunk.buffer, chunk.byteOffset, limit.maxBytes - size));
        limit.stop();
        return { bytes: Buffer.concat(kept), truncated: true };
      }
      kept.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      size += chunk.byteLength;
    }
  } catch (err) {
    limit.stop();
    throw err;
  }
  return { bytes: Buffer.concat(kept), truncated: false };
}

/** True when a Content-Length header already says the body is larger than `maxBytes`: refuse it unread. */
export function declaresMoreThan(contentLength: string | string[] | null | undefined, maxBytes: number): boolean {
  const declared = Number(Array.isArray(contentLength) ? contentLength[0] : (contentLength ?? NaN));
  return Number.isFinite(declared) && declared > maxBytes;
}

export function bodyTooLarge(maxBytes: number): NetError {
  return new NetError('too_large', `the response is larger than ${maxBytes} bytes`);
}
