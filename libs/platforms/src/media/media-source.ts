import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Platform } from '@postbus/contracts';
import { PlatformError } from '../errors';
import { openMediaLink, type MediaAccess } from './media-access';
import { hostOf, unreadableMedia } from './media-errors';

/**
 * Reading a post's media from where it is stored, for the platforms that take bytes rather
 * than a link (TikTok FILE_UPLOAD, YouTube, Facebook Reels). Every read goes through
 * @postbus/net (see MediaAccess). Bytes are streamed: a chunk is never held whole in memory,
 * and a resumed upload re-reads from its offset with a Range request.
 */

export interface MediaInfo {
  size: number;
  contentType: string;
}

export interface MediaFetchOptions {
  platform: Platform;
  /** Which links may be read: loopback or not, our own file links. */
  access: MediaAccess;
  /**
   * Deadline of each wait on the media's host, default 30 s: for the answer, then for each piece
   * of the body while one is wanted. A large file read slowly (as fast as the platform takes
   * it) never runs into it; a host that stops sending does.
   */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** Size and type of the media: HEAD, or a one-byte Range GET when HEAD tells nothing. */
export async function probeMedia(url: string, opts: MediaFetchOptions): Promise<MediaInfo> {
  const link = { ...opts, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS };
  const head = await openMediaLink(url, { method: 'HEAD' }, link);
  head.body.destroy();
  const length = Number(head.headers['content-length']);
  if (isSuccess(head.status) && Number.isInteger(length) && length > 0)
    return { size: length, contentType: contentTypeOf(head.headers) };

  const ranged = await openMediaLink(url, { method: 'GET', headers: { range: 'bytes=0-0' } }, link);
  ranged.body.destroy();
  if (!isSuccess(ranged.status)) throw unreadableMedia(opts.platform, url, ranged.status);
  const total = Number(
    /\/(\d+)$/.exec(String(ranged.headers['content-range'] ?? ''))?.[1] ?? ranged.headers['content-length'],
  );
  if (!Number.isInteger(total) || total <= 0) {
    throw new PlatformError(
      `The media at ${hostOf(url)} does not say how large it is; store it with the media endpoints and publish again.`,
      {
        platform: opts.platform,
        transient: false,
        code: 'media_size_unknown',
      },
    );
  }
  return { size: total, contentType: contentTypeOf(ranged.headers) };
}

/**
 * Sequential reader over the media's bytes from `offset`. `chunk(n)` answers a stream of
 * exactly the next n bytes, suitable as a fetch body; call it again only after that stream was consumed.
 */
export class MediaReader {
  private pending: Uint8Array | null = null;
  private readonly pieces: AsyncIterator<Buffer, undefined>;

  private constructor(
    private readonly body: IncomingMessage,
    private readonly platform: Platform,
    private readonly host: string,
    private readonly waitMs: number,
  ) {
    this.pieces = body[Symbol.asyncIterator]();
  }

  static async open(url: string, offset: number, opts: MediaFetchOptions): Promise<MediaReader> {
    const waitMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const res = await openMediaLink(
      url,
      { method: 'GET', headers: offset > 0 ? { range: `bytes=${offset}-` } : {} },
      { ...opts, timeoutMs: waitMs },
    );
    if (!isSuccess(res.status)) {
      res.body.destroy();
      throw unreadableMedia(opts.platform, url, res.status);
    }
    const reader = new MediaReader(res.body, opts.platform, hostOf(url), waitMs);
    // A server that ignores Range answers the whole file: skip to the offset.
    if (offset > 0 && res.status === 200) {
      await reader.skip(offset).catch(async (err) => {
        await reader.close();
        throw err;
      });
    }
    return reader;
  }

  chunk(length: number): ReadableStream<Uint8Array> {
    let remaining = length;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        if (remaining <= 0) {
          controller.close();
          return;
        }
        const piece = await this.next();
        if (!piece) {
          controller.error(this.shortRead());
          return;
        }
        if (piece.byteLength > remaining) {
          this.pending = piece.subarray(remaining);
          controller.enqueue(piece.subarray(0, remaining));
          remaining = 0;
        } else {
          controller.enqueue(piece);
          remaining -= piece.byteLength;
        }
        if (remaining === 0) controller.close();
      },
    });
  }

  async close(): Promise<void> {
    this.body.destroy();
  }

  private async skip(bytes: number): Promise<void> {
    let left = bytes;
    while (left > 0) {
      const piece = await this.next();
      if (!piece) throw this.shortRead();
      if (piece.byteLength > left) this.pending = piece.subarray(left);
      left -= Math.min(left, piece.byteLength);
    }
  }

  private async next(): Promise<Uint8Array | null> {
    if (this.pending) {
      const piece = this.pending;
      this.pending = null;
      return piece;
    }
    let stalled = false;
    const timer = setTimeout(() => {
      stalled = true;
      this.body.destroy(new Error('the media stopped sending'));
    }, this.waitMs);
    try {
      const { value, done } = await this.pieces.next();
      return done ? null : value;
    } catch (cause) {
      throw new PlatformError(
        stalled
          ? `The media could not be read: ${this.host} stopped sending for ${Math.round(this.waitMs / 1000)} s while it was being read for upload; publishing will be tried again.`
          : `The media could not be read: the connection to ${this.host} failed while it was being read for upload; publishing will be tried again.`,
        { platform: this.platform, transient: true, code: stalled ? 'media_stalled' : 'media_unreachable', cause },
      );
    } finally {
      clearTimeout(timer);
    }
  }

  private shortRead(): PlatformError {
    return new PlatformError(
      'The media could not be read: it ended before its announced size while it was being sent; publishing will be tried again.',
      {
        platform: this.platform,
        transient: true,
        code: 'media_short_read',
      },
    );
  }
}

/** Deadlines of a request whose body is streamed (an upload). */
export interface UploadDeadlines {
  /** The whole request, its bytes included; default 600 s. */
  timeoutMs?: number;
  /**
   * Once the last byte is handed over, the platform has this long to answer; default 30 s. An
   * answer lost on the way is found out in seconds rather than at the upload's deadline.
   */
  answerTimeoutMs?: number;
}

/**
 * `fetch` with a streamed body (undici needs `duplex: 'half'`) under two deadlines: the whole
 * request, and the answer once the body is sent. Either rejects with a `TimeoutError`; a body
 * that fails (the media could not be read) rejects with that failure.
 */
export async function fetchStreamed(
  fetchImpl: typeof fetch,
  url: string,
  init: Omit<RequestInit, 'body' | 'signal'> & { body: ReadableStream<Uint8Array> },
  deadlines: UploadDeadlines = {},
): Promise<Response> {
  const controller = new AbortController();
  const timeUp = (what: string) => () => controller.abort(new DOMException(`${what} took too long`, 'TimeoutError'));
  const timers = [setTimeout(timeUp('The upload'), deadlines.timeoutMs ?? 600_000)];
  const source = init.body.getReader();
  let sourceFailure: { error: unknown } | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(out) {
      const { value, done } = await source.read().catch((error: unknown) => {
        sourceFailure = { error };
        throw error;
      });
      if (!done) return out.enqueue(value);
      out.close();
      timers.push(setTimeout(timeUp("The platform's answer to the upload"), deadlines.answerTimeoutMs ?? 30_000));
    },
    cancel: (reason) => source.cancel(reason),
  });
  try {
    const res = await fetchImpl(url, { ...init, body, duplex: 'half', signal: controller.signal });
    // Its body is read after this returns: the deadline to answer goes on covering it (an abort ends the body's stream).
    setTimeout(timeUp("The platform's answer to the upload"), deadlines.answerTimeoutMs ?? 30_000).unref();
    return res;
  } catch (err) {
    // fetch wraps a failing body in its own "fetch failed": the bytes never came, which is not the platform's doing
    throw sourceFailure ? sourceFailure.error : err;
  } finally {
    timers.forEach(clearTimeout);
  }
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function contentTypeOf(headers: IncomingHttpHeaders): string {
  return (headers['content-type'] ?? 'application/octet-stream').split(';')[0].trim() || 'application/octet-stream';
}
