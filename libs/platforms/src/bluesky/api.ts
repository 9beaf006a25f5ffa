import type { Platform } from '@postbus/contracts';
import { PlatformError } from '../errors';
import { answerTooLarge, readBoundedAnswer } from '../http/bounded-answer';
import type { DpopSigner } from './oauth/dpop';

/**
 * How to reach a Bluesky account's PDS over XRPC (https://docs.bsky.app/docs/api/http-reference):
 * `serviceUrl` is the PDS (e.g. https://bsky.social, a self-hosted PDS, or `${sandboxUrl}/bluesky`).
 */
export interface BlueskyApiOptions {
  serviceUrl: string;
  /** The session's access JWT (com.atproto.server.createSession / refreshSession); absent for public calls. */
  accessJwt?: string;
  /**
   * An OAuth session's DPoP key: `accessJwt` is then a DPoP-bound access token, sent as
   * `Authorization: DPoP <token>` with a proof carrying `ath` (https://atproto.com/specs/oauth#demonstrating-proof-of-possession-dpop).
   */
  dpop?: DpopSigner;
  fetchImpl?: typeof fetch;
  /** Deadline of each HTTP call; default 30 s. */
  timeoutMs?: number;
}

export const BLUESKY_PLATFORM: Platform = 'bluesky';
export const BLUESKY_DEFAULT_TIMEOUT_MS = 30_000;
/** Bytes of an XRPC answer read at most: records and sessions are small. */
const ANSWER_MAX_BYTES = 1024 * 1024;

/** A list (`reasons`, `uris`) is sent as the parameter repeated, as XRPC reads arrays (https://atproto.com/specs/xrpc#lexicon-http-endpoints). */
type Query = Record<string, string | readonly string[] | undefined>;

export interface XrpcCall {
  method: 'GET' | 'POST';
  nsid: string;
  query?: Query;
  /** A JSON body, or raw bytes (uploadBlob) with their content type. */
  body?: Record<string, unknown> | { bytes: Uint8Array; contentType: string };
  /** True for a call whose effect may have happened though no answer came (a write): a lost answer is outcomeUnknown. */
  write?: boolean;
}

/** One XRPC call; errors become PlatformError with `transient`, `tokenRejected`, `retryAfterMs` and `outcomeUnknown` set as they apply. */
export async function callXrpc<T = Record<string, unknown>>(api: BlueskyApiOptions, call: XrpcCall): Promise<T> {
  // Relative to the service URL, so a PDS under a path (a proxy, the sandbox's /bluesky) keeps it.
  const url = new URL(`xrpc/${call.nsid}`, api.serviceUrl.endsWith('/') ? api.serviceUrl : `${api.serviceUrl}/`);
  for (const [k, v] of Object.entries(call.query ?? {})) {
    if (typeof v === 'string') url.searchParams.set(k, v);
    else for (const one of v ?? []) url.searchParams.append(k, one);
  }
  const headers: Record<string, string> = {};
  if (api.accessJwt) headers.authorization = api.dpop ? `DPoP ${api.accessJwt}` : `Bearer ${api.accessJwt}`;
  let body: Uint8Array | string | undefined;
  if (isBytes(call.body)) {
    headers['content-type'] = call.body.contentType;
    body = call.body.bytes;
  } else if (call.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.body);
  }
  let res: Response;
  try {
    res = await send(api, call, url, headers, body);
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new PlatformError(`Bluesky (${call.nsid}) did not answer${timedOut ? ' in time' : ''}; trying again.`, {
      platform: BLUESKY_PLATFORM,
      transient: true,
      code: timedOut ? 'timeout' : 'network_error',
      outcomeUnknown: call.write === true,
      cause: err,
    });
  }
  const answer = await readBoundedAnswer(res, ANSWER_MAX_BYTES);
  // A cut answer cannot be read; to a write, it may still mean the write went through.
  if (answer.cut)
    throw answerTooLarge(BLUESKY_PLATFORM, `${call.method} ${call.nsid}`, ANSWER_MAX_BYTES, {
      status: res.status,
      outcomeUnknown: call.write === true && res.ok,
    });
  const json = parseJson(answer.text);
  if (res.ok) return (json ?? {}) as T;
  throw xrpcError(call, res, json);
}

/**
 * Sends the call; with a DPoP key, each attempt carries a fresh proof, and a 401 whose
 * WWW-Authenticate says use_dpop_nonce (with a DPoP-Nonce header) is sent once more with that
 * nonce (https://atproto.com/specs/oauth#demonstrating-proof-of-possession-dpop).
 */
async function send(
  api: BlueskyApiOptions,
  call: XrpcCall,
  url: URL,
  headers: Record<string, string>,
  body: Uint8Array | string | undefined,
): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    if (api.dpop) headers.dpop = api.dpop.proof(call.method, url, api.accessJwt);
    const res = await (api.fetchImpl ?? fetch)(url, {
      method: call.method,
      headers,
      body,
      signal: AbortSignal.timeout(api.timeoutMs ?? BLUESKY_DEFAULT_TIMEOUT_MS),
    });
    if (!api.dpop) return res;
    const fresh = api.dpop.remember(url, res.headers.get('dpop-nonce'));
    const askedNonce = res.status === 401 && /use_dpop_nonce/.test(res.headers.get('www-authenticate') ?? '');
    if (!(askedNonce && fresh && attempt === 0)) return res;
    await res.body?.cancel();
  }
}

function isBytes(body: XrpcCall['body']): body is { bytes: Uint8Array; contentType: string } {
  return body !== undefined && 'bytes' in body && body.bytes instanceof Uint8Array;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * XRPC errors are `{ error, message }` (https://atproto.com/specs/xrpc#error-responses): 401
 * ExpiredToken/InvalidToken/AuthRequired ask for a new session; 429 carries `ratelimit-reset`
 * (epoch seconds, https://docs.bsky.app/docs/advanced-guides/rate-limits); 5xx may pass.
 */
function xrpcError(call: XrpcCall, res: Response, json: Record<string, unknown> | undefined): PlatformError {
  const name = typeof json?.error === 'string' ? json.error : `HTTP ${res.status}`;
  const said = typeof json?.message === 'string' ? `: ${json.message.slice(0, 300)}` : '';
  const base = { platform: BLUESKY_PLATFORM, code: name, status: res.status };
  if (res.status === 401 || name === 'ExpiredToken' || name === 'InvalidToken') {
    return new PlatformError(`Bluesky refused the session (${name}${said}); reconnect the account if this persists.`, {
      ...base,
      transient: false,
      tokenRejected: true,
    });
  }
  if (res.status === 429) {
    const reset = Number(res.headers.get('ratelimit-reset'));
    const retryAfterMs = Number.isFinite(reset) && reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : undefined;
    return new PlatformError(`Bluesky is rate limiting this account (${call.nsid}); trying again later.`, {
      ...base,
      transient: true,
      retryAfterMs,
      throttle: { kind: 'rate_limit', scope: 'account', waitMs: retryAfterMs },
    });
  }
  if (res.status >= 500) {
    return new PlatformError(`Bluesky failed (${name}${said}); trying again.`, {
      ...base,
      transient: true,
      outcomeUnknown: call.write === true,
    });
  }
  return new PlatformError(`Bluesky refused ${call.nsid} (${name}${said}).`, { ...base, transient: false });
}
