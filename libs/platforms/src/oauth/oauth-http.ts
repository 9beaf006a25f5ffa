import type { Platform } from '@postbus/contracts';
import { answerTooLargeMessage, readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import { parseLosslessJson } from '../http/lossless-json';
import { OAUTH_DEFAULT_TIMEOUT_MS, type OAuthAppOptions } from './oauth-client';
import { OAuthError, oauthErrorFromResponse, oauthMalformed, oauthNetworkError } from './oauth-error';

/** Bytes of a token or profile answer read at most: they are a few hundred bytes. */
export const OAUTH_ANSWER_MAX_BYTES = 1024 * 1024;

export interface OAuthCall {
  platform: Platform;
  /** Completes "… while <action>" in error messages, e.g. "exchanging the authorization code". */
  action: string;
  method: 'GET' | 'POST';
  url: string;
  query?: Record<string, string | undefined>;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string | undefined>;
  /** Sent as `Authorization: Bearer`. */
  bearer?: string;
  /** Sent as `Authorization: Basic` (client credentials of a confidential client, RFC 6749 2.3.1). */
  basicAuth?: { user: string; password: string };
  /** Sent as a JSON body. */
  json?: unknown;
  /** Decides whether a 2xx JSON body is a success (default: no `error` member). */
  isSuccess?: (body: Record<string, unknown>) => boolean;
}

/**
 * One call to an OAuth or profile endpoint. Returns the JSON object of a success; throws OAuthError
 * for every other outcome (error body, non-JSON, network failure, timeout). Tokens never reach a log.
 */
export async function callOAuth(
  app: Pick<OAuthAppOptions, 'fetchImpl' | 'timeoutMs'>,
  call: OAuthCall,
): Promise<Record<string, unknown>> {
  const url = new URL(call.url);
  for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.bearer) headers.authorization = `Bearer ${call.bearer}`;
  if (call.basicAuth)
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(call.basicAuth.user)}:${encodeURIComponent(call.basicAuth.password)}`).toString('base64')}`;
  let body: string | undefined;
  if (call.form) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(call.form)) if (v !== undefined) form.set(k, v);
    body = form.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (call.json !== undefined) {
    body = JSON.stringify(call.json);
    headers['content-type'] = 'application/json; charset=UTF-8';
  }

  let status: number;
  let answer: BoundedAnswer;
  try {
    const res = await (app.fetchImpl ?? fetch)(url, {
      method: call.method,
      headers,
      body,
      signal: AbortSignal.timeout(app.timeoutMs ?? OAUTH_DEFAULT_TIMEOUT_MS),
      redirect: 'manual',
    });
    status = res.status;
    answer = await readBoundedAnswer(res, OAUTH_ANSWER_MAX_BYTES);
  } catch (cause) {
    throw oauthNetworkError(call.platform, call.action, cause);
  }
  if (status >= 200 && status < 300 && answer.cut)
    throw oauthAnswerTooLarge(call.platform, call.action, OAUTH_ANSWER_MAX_BYTES, status);
  const text = answer.text;
  let parsed: unknown;
  try {
    parsed = parseLosslessJson(text); // user_id may be a JSON number beyond 2^53 (Threads, Instagram)
  } catch {
    parsed = undefined;
  }
  const isObject = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
  if (status >= 200 && status < 300 && isObject) {
    const obj = parsed as Record<string, unknown>;
    const ok = call.isSuccess ? call.isSuccess(obj) : !obj.error;
    if (ok) return obj;
  }
  if (status >= 200 && status < 300 && !isObject) throw oauthMalformed(call.platform, call.action, 'a JSON object');
  throw oauthErrorFromResponse(call.platform, call.action, { status, body: parsed ?? text });
}

/** A success answer longer than Postbus reads of one: its JSON cannot be read, and the same call answers the same. */
export function oauthAnswerTooLarge(platform: Platform, action: string, maxBytes: number, status: number): OAuthError {
  return new OAuthError(answerTooLargeMessage(platform, action, maxBytes), {
    platform,
    transient: false,
    code: 'answer_too_large',
    status,
  });
}

/** A string member of an answer, or a malformed-answer error. */
export function requireString(platform: Platform, action: string, body: Record<string, unknown>, key: string): string {
  const v = body[key];
  if (typeof v === 'string' && v) return v;
  if (typeof v === 'number') return String(v);
  throw oauthMalformed(platform, action, key);
}

export function optionalString(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined;
}

/** Scopes as the platform lists them: comma- or space-separated, or an array. */
export function scopesOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((s): s is string => typeof s === 'string');
  return typeof v === 'string' ? v.split(/[\s,]+/).filter(Boolean) : [];
}
