import type { Platform } from '@postbus/contracts';
import type { RequestHandler, Response } from 'express';

/** One request an emulated platform received, as tests compare it: what a client sent, never a token. */
export interface ReceivedRequest {
  seq: number;
  platform: Platform;
  method: string;
  /** Path under the sandbox, e.g. `/instagram/v21.0/1784…/media`. */
  path: string;
  query: Record<string, string>;
  /** The headers that carry protocol meaning (content-range, offset, file_size, x-upload-*, content-type…). */
  headers: Record<string, string>;
  /** `Bearer` / `OAuth` / `DPoP`, or null when the token came as `access_token=` or not at all. */
  authScheme: string | null;
  /** Parsed form or JSON body; null for binary bodies. */
  body: Record<string, unknown> | null;
  /** Length of a binary body, once the emulator has read it. */
  bodyBytes: number | null;
  at: string;
}

const PROTOCOL_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'offset',
  'file_size',
  'file_url',
  'x-upload-content-length',
  'x-upload-content-type',
  // A DPoP proof (RFC 9449) is a signed statement about the request, not a credential.
  'dpop',
] as const;

/** Every request the platform emulators received, oldest first (bounded, so a long benchmark cannot exhaust memory). */
export class RequestLog {
  private items: ReceivedRequest[] = [];
  private seq = 0;

  constructor(private readonly max = 50_000) {}

  record(entry: Omit<ReceivedRequest, 'seq'>): ReceivedRequest {
    const item = { ...entry, seq: ++this.seq };
    this.items.push(item);
    // Trimmed a tenth at a time: dropping one from the front of a full log per request would move the whole array each time.
    if (this.items.length > this.max + this.max / 10) this.items = this.items.slice(-this.max);
    return item;
  }

  list(filter: { platform?: Platform; since?: number } = {}): ReceivedRequest[] {
    return this.items.filter(
      (r) => (!filter.platform || r.platform === filter.platform) && (!filter.since || r.seq > filter.since),
    );
  }

  clear(): void {
    this.items = [];
  }
}

/**
 * Records each request of a platform router (after its body parsers); binary upload handlers
 * fill in `bodyBytes` through `res.locals.received`.
 */
export function recordRequests(log: RequestLog, platform: Platform, now: () => number): RequestHandler {
  return (req, res, next) => {
    const headers: Record<string, string> = {};
    for (const name of PROTOCOL_HEADERS) {
      const value = req.get(name);
      if (value !== undefined) headers[name] = value;
    }
    const scheme = /^(Bearer|OAuth|DPoP)\s/i.exec(req.get('authorization') ?? '')?.[1] ?? null;
    const query: Record<string, string> = {};
    for (const [key, value] of Object.entries(req.query))
      if (typeof value === 'string' && key !== 'access_token') query[key] = value;
    const parsed: unknown = req.body;
    const body =
      parsed && typeof parsed === 'object' && !Buffer.isBuffer(parsed) && Object.keys(parsed).length
        ? withoutToken(parsed as Record<string, unknown>)
        : null;
    res.locals.received = log.record({
      platform,
      method: req.method,
      path: req.originalUrl.split('?')[0],
      query,
      headers,
      authScheme: scheme,
      body,
      bodyBytes: null,
      at: new Date(now()).toISOString(),
    });
    next();
  };
}

/** Fills in the length of a binary body on the request being recorded (see recordRequests). */
export function recordBodyBytes(res: Response, bytes: number): void {
  const received = res.locals.received as ReceivedRequest | undefined;
  if (received) received.bodyBytes = bytes;
}

function withoutToken(body: Record<string, unknown>): Record<string, unknown> {
  const { access_token: _token, ...rest } = body;
  return rest;
}
