import type { Platform } from '@postbus/contracts';
import { PlatformError } from '../errors';

/**
 * Reading a post's media from where it is stored, for the platforms that take bytes rather
 * than a link (TikTok FILE_UPLOAD, YouTube, Facebook Reels). Bytes are streamed: a chunk is
 * never held whole in memory, and a resumed upload re-reads from its offset with a Range request.
 */

export interface MediaInfo {
  size: number;
  contentType: string;
}

export interface MediaFetchOptions {
  platform: Platform;
  fetchImpl?: typeof fetch;
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
  const fetchImpl = opts.fetchImpl ?? fetch;
  const head = await request(fetchImpl, url, { method: 'HEAD' }, opts);
  const length = Number(head.headers.get('content-length'));
  if (head.ok && Number.isInteger(length) && length > 0) return { size: length, contentType: contentTypeOf(head.headers) };

  const ranged = await request(fetchImpl, url, { method: 'GET', headers: { range: 'bytes=0-0' } }, opts);
  await ranged.body?.cancel().catch(() => undefined);
  if (!ranged.ok) throw unreadableMedia(opts.platform, url, ranged.status);
  const total = Number(/\/(\d+)$/.exec(ranged.headers.get('content-range') ?? '')?.[1] ?? ranged.headers.get('content-length'));
  if (!Number.isInteger(total) || total <= 0) {
    throw new PlatformError(`The media at ${hostOf(url)} does not say how large it is; store it with the media endpoints and publish again.`, {
      platform: opts.platform,
      transient: false,
      code: 'media_size_unknown',
    });
  }
  return { size: total, contentType: contentTypeOf(ranged.headers) };
}

/**
 * Sequential reader over the media's bytes from `offset`. `chunk(n)` answers a stream of
 * exactly the next n bytes, suitable as a fetch body; call it again only after that stream was consumed.
 */
export class MediaReader {
  private pending: Uint8Array | null = null;

  private constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly platform: Platform,
    private readonly host: string,
    private readonly connection: AbortController,
    private readonly waitMs: number,
  ) {}

  static async open(url: string, offset: number, opts: MediaFetchOptions): Promise<MediaReader> {
    const fetchImpl = opts.fetchImpl ?? fetch;
    const connection = new AbortController();
    const res = await request(fetchImpl, url, { method: 'GET', headers: offset > 0 ? { range: `bytes=${offset}-` } : {} }, opts, connection);
    if (!res.ok || !res.body) {
      connection.abort();
      throw unreadableMedia(opts.platform, url, res.status);
    }
    const reader = new MediaReader(res.body.getReader() as ReadableStreamDefaultReader<Uint8Array>, opts.platform, hostOf(url), connection, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    // A server that ignores Range answers the whole file: skip to the offset.
    if (offset > 0 && res.status === 200) await reader.skip(offset);
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
    await this.reader.cancel().catch(() => undefined);
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
      this.connection.abort();
    }, this.waitMs);
    try {
      const { value, done } = await this.reader.read();
      return done ? null : value;
    } catch (cause) {
      throw new PlatformError(
        stalled
          ? `The media at ${this.host} stopped sending for ${Math.round(this.waitMs / 1000)} s while it was being read for upload; publishing will be tried again.`
          : `The connection to the media at ${this.host} failed while it was being read for upload; publishing will be tried again.`,
        { platform: this.platform, transient: true, code: stalled ? 'media_stalled' : 'media_unreachable', cause },
      );
    } finally {
      clearTimeout(timer);
    }
  }

  private shortRead(): PlatformError {
    return new PlatformError('The media ended before its announced size while it was being sent; publishing will be tried again.', {
      platform: this.platform,
      transient: true,
      code: 'media_short_read',
    });
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
 * request, and the answer once the body is sent. Either rejects with a `TimeoutError`.
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
  const body = new ReadableStream<Uint8Array>({
    async pull(out) {
      const { value, done } = await source.read();
      if (!done) return out.enqueue(value);
      out.close();
      timers.push(setTimeout(timeUp("The platform's answer to the upload"), deadlines.answerTimeoutMs ?? 30_000));
    },
    cancel: (reason) => source.cancel(reason),
  });
  try {
    return await fetchImpl(url, { ...init, body, duplex: 'half', signal: controller.signal } as RequestInit);
  } finally {
    timers.forEach(clearTimeout);
  }
}

/** Host only: media URLs may be signed, and their query strings must not reach logs or reasons. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the media link';
  }
}

/** A request whose answer is due within the deadline; its body then reads without one (`connection` can still abort it). */
async function request(fetchImpl: typeof fetch, url: string, init: RequestInit, opts: MediaFetchOptions, connection = new AbortController()): Promise<Response> {
  const timer = setTimeout(() => connection.abort(new DOMException('The media did not answer in time', 'TimeoutError')), opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    return await fetchImpl(url, { ...init, signal: connection.signal });
  } catch (cause) {
    throw new PlatformError(`The media at ${hostOf(url)} could not be downloaded for upload (the connection failed); publishing will be tried again.`, {
      platform: opts.platform,
      transient: true,
      code: 'media_unreachable',
      cause,
    });
  } finally {
    clearTimeout(timer);
  }
}

function unreadableMedia(platform: Platform, url: string, status: number): PlatformError {
  const transient = status === 429 || status >= 500;
  return new PlatformError(
    transient
      ? `The media at ${hostOf(url)} answered HTTP ${status} while it was being read for upload; publishing will be tried again.`
      : `The media at ${hostOf(url)} could not be read for upload (HTTP ${status}); make sure the link is public and points at the file itself, or upload the file with the media endpoints.`,
    { platform, transient, code: 'media_unreadable', status },
  );
}

function contentTypeOf(headers: Headers): string {
  return (headers.get('content-type') ?? 'application/octet-stream').split(';')[0].trim() || 'application/octet-stream';
}
