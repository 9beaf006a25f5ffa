import type { Platform } from '@postbus/contracts';
import type { PlatformError } from '../errors';
import { answerTooLarge, readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import { parseLosslessJson } from '../http/lossless-json';

/** Bytes of a Graph answer read at most: objects, ids and pages of comments are far smaller. */
export const GRAPH_ANSWER_MAX_BYTES = 1024 * 1024;

/** What a Graph call answered when it was not a success, handed to the platform's error mapper. */
export interface GraphFailure {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
}

/** Why no answer arrived. `maybeDelivered` is false only when the request certainly never left (e.g. connection refused). */
export interface GraphNetworkFailure {
  timedOut: boolean;
  maybeDelivered: boolean;
  cause: unknown;
}

export interface GraphErrorMapper {
  /** Whose errors these are: an answer too large to read is refused in its name. */
  platform: Platform;
  fromResponse(failure: GraphFailure): PlatformError;
  fromNetwork(failure: GraphNetworkFailure): PlatformError;
}

export interface GraphRequest {
  method: 'GET' | 'POST';
  url: string;
  accessToken: string;
  /** Sent in the query string. */
  query?: Record<string, string | undefined>;
  /** Sent as an `application/x-www-form-urlencoded` body (POST only). */
  form?: Record<string, string | undefined>;
  /** Sent as a `multipart/form-data` body instead, already encoded (a call that carries a file). */
  multipart?: { body: Buffer; contentType: string };
  fetchImpl: typeof fetch;
  timeoutMs: number;
}

/** Errors that prove the request never reached the server. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ERR_INVALID_URL',
]);

/**
 * One Graph call with `Authorization: Bearer`: returns the JSON object of a 2xx answer,
 * throws the mapper's PlatformError for everything else (error envelope, non-JSON, network, timeout).
 */
export async function sendGraphRequest(req: GraphRequest, errors: GraphErrorMapper): Promise<Record<string, unknown>> {
  const url = new URL(req.url);
  for (const [key, value] of Object.entries(req.query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
  const headers: Record<string, string> = { authorization: `Bearer ${req.accessToken}`, accept: 'application/json' };
  let body: string | Buffer | undefined;
  if (req.multipart) {
    body = req.multipart.body;
    headers['content-type'] = req.multipart.contentType;
  } else if (req.form) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(req.form)) if (value !== undefined) form.set(key, value);
    body = form.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }

  let status: number;
  let responseHeaders: Headers;
  let answer: BoundedAnswer;
  try {
    const res = await req.fetchImpl(url, {
      method: req.method,
      headers,
      body,
      signal: AbortSignal.timeout(req.timeoutMs),
    });
    status = res.status;
    responseHeaders = res.headers;
    answer = await readBoundedAnswer(res, GRAPH_ANSWER_MAX_BYTES);
  } catch (cause) {
    throw errors.fromNetwork({ timedOut: isTimeout(cause), maybeDelivered: !provesNotSent(cause), cause });
  }

  const ok = status >= 200 && status < 300;
  // Like any 2xx Graph cannot make readable: not transient, its status telling a publish step it may have gone through.
  if (ok && answer.cut)
    throw answerTooLarge(errors.platform, `${req.method} ${url.pathname}`, GRAPH_ANSWER_MAX_BYTES, { status });
  const text = answer.text;
  const parsed = parseJson(text);
  if (ok && parsed && typeof parsed === 'object' && !Array.isArray(parsed) && !('error' in parsed)) {
    return parsed as Record<string, unknown>;
  }
  throw errors.fromResponse({ status, headers: responseHeaders, body: parsed ?? text });
}

/** A platform's JSON answer, 64-bit integer ids kept exact (as decimal strings); undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return parseLosslessJson(text);
  } catch {
    return undefined;
  }
}

/** By name, not instanceof: the DOMException fetch rejects with may come from another realm. */
function isTimeout(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function provesNotSent(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NOT_SENT_CODES.has(code);
}
