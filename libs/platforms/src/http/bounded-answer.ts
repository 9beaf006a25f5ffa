import type { Readable } from 'node:stream';
import type { Platform } from '@postbus/contracts';
import { declaresMoreThan, readBoundedBody } from '@postbus/net';
import { PlatformError, type PlatformErrorInit } from '../errors';
import { PLATFORM_NAMES } from '../oauth/oauth-error';
import { NODE_BODY } from './node-fetch';

/** What most platform answers (JSON records, upload receipts, error bodies) stay well under. */
export const JSON_ANSWER_MAX_BYTES = 1024 * 1024;

export interface BoundedAnswer {
  /** The answer as UTF-8 text, or its first maxBytes when it was longer (none when its Content-Length said so). */
  text: string;
  /** True when the answer was longer than maxBytes: `text` is cut, and JSON in it cannot be read. */
  cut: boolean;
}

/**
 * A platform's answer read as text, at most `maxBytes` of it: a Content-Length above the limit is
 * refused before any of the body is read, and a body that goes on past it is stopped there (its
 * stream cancelled), never read to its end. Multi-byte characters split between chunks decode
 * whole; a character the limit cuts in two is left out.
 */
export async function readBoundedAnswer(res: Response, maxBytes: number): Promise<BoundedAnswer> {
  const node = (res as Response & { [NODE_BODY]?: Readable })[NODE_BODY];
  const stream = node ? undefined : res.body;
  const stop = () => (node ? node.destroy() : void stream?.cancel().catch(() => undefined));
  if (declaresMoreThan(res.headers.get('content-length'), maxBytes)) {
    stop();
    return { text: '', cut: true };
  }
  const chunks = node ?? (stream ? chunksOf(stream) : undefined);
  if (!chunks) return { text: '', cut: false };
  const { bytes, truncated } = await readBoundedBody(chunks as AsyncIterable<Uint8Array>, {
    maxBytes,
    oversize: 'truncate',
    stop,
  });
  // stream: true keeps back an unfinished last character instead of turning it into U+FFFD.
  return { text: new TextDecoder().decode(bytes, { stream: truncated }), cut: truncated };
}

/**
 * The error for an answer longer than the platform's limit: its JSON cannot be read. Not transient
 * by default (the same call answers the same way); a write passes `transient` and `outcomeUnknown`
 * when its module treats an unreadable answer to a write as one that may have gone through.
 */
export function answerTooLarge(
  platform: Platform,
  what: string,
  maxBytes: number,
  init: Partial<PlatformErrorInit> = {},
): PlatformError {
  return new PlatformError(answerTooLargeMessage(platform, what, maxBytes), {
    platform,
    transient: false,
    code: 'answer_too_large',
    ...init,
  });
}

/** `X answered with more than 1 MiB (GET /2/users/me); …`: `what` names the call. */
export function answerTooLargeMessage(platform: Platform, what: string, maxBytes: number): string {
  return `${PLATFORM_NAMES[platform]} answered with more than ${sizeOf(maxBytes)} (${what}); Postbus reads at most that much of an answer and left it unread.`;
}

function sizeOf(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** A web stream's chunks; leaving the loop early cancels the stream. */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) void reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
