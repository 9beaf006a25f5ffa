import type { Platform } from '@postbus/contracts';
import { isNetError, safeRequest, type Resolver } from '@postbus/net';
import { PlatformError } from '../errors';

export const MASTODON_PLATFORM: Platform = 'mastodon';
export const MASTODON_DEFAULT_TIMEOUT_MS = 30_000;
/** Bytes of an answer read at most: statuses, attachments and instance documents are small. */
const ANSWER_MAX_BYTES = 2 * 1024 * 1024;

/**
 * How Mastodon instances are reached. An instance is named by whoever connects an account, so
 * every call goes through @postbus/net (http(s) only, every resolved address judged, no
 * redirects). `baseUrlTemplate` turns an instance host into its base URL: `https://{instance}`
 * for real instances; the sandbox's `${SANDBOX_URL}/mastodon/{instance}` is an address the
 * operator configured, so URLs under its origin are trusted.
 */
export interface MastodonInstances {
  baseUrlTemplate: string;
  /** Let loopback addresses through (tests and development only). */
  allowLoopback?: boolean;
  /** Injected in tests to play DNS answers; the system resolver otherwise. */
  resolve?: Resolver;
}

export interface MastodonApiOptions {
  instances: MastodonInstances;
  /** The instance's host name, e.g. `mastodon.social`. */
  instance: string;
  /** The user's access token; absent for public calls. */
  accessToken?: string;
  /** Deadline of each HTTP call; default 30 s. */
  timeoutMs?: number;
}

const HOST_RE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/;

/**
 * The instance host from what a person typed: `mastodon.social`, `https://mastodon.social/`,
 * `@user@mastodon.social`. Undefined when it is not a host name (no paths, credentials or spaces).
 */
export function mastodonInstanceHost(input: string): string | undefined {
  let raw = input.trim().toLowerCase();
  const acct = /^@?[a-z0-9_]+@([^@\s/]+)$/.exec(raw);
  if (acct) raw = acct[1];
  raw = raw.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  return HOST_RE.test(raw) ? raw : undefined;
}

/** The instance's base URL (no trailing slash). */
export function mastodonBaseUrl(instances: MastodonInstances, instance: string): string {
  const host = mastodonInstanceHost(instance);
  if (!host)
    throw new PlatformError(`"${instance.slice(0, 100)}" is not a Mastodon instance address.`, {
      platform: MASTODON_PLATFORM,
      transient: false,
      code: 'invalid_instance',
    });
  return instances.baseUrlTemplate.replace('{instance}', host).replace(/\/+$/, '');
}

/** An operator-configured template with a fixed origin (the sandbox) is trusted; `https://{instance}` is not. */
export function mastodonTrustedOrigin(instances: MastodonInstances): string | undefined {
  const [origin] = /^https?:\/\/[^/]+/.exec(instances.baseUrlTemplate) ?? [];
  return origin && !origin.includes('{instance}') ? new URL(origin).origin : undefined;
}

export interface MastodonCall {
  method: 'GET' | 'POST' | 'PUT';
  /** Under the instance, e.g. `/api/v1/statuses`. */
  path: string;
  query?: Record<string, string | undefined>;
  /** Form fields (application/x-www-form-urlencoded); an array value repeats the field (`media_ids[]`). */
  form?: Record<string, string | string[] | undefined>;
  /** A multipart body already encoded, with its content type. */
  multipart?: { body: Buffer; contentType: string };
  headers?: Record<string, string>;
  /** True for a call whose effect may have happened though no answer came (a write): a lost answer is outcomeUnknown. */
  write?: boolean;
  timeoutMs?: number;
}

export interface MastodonAnswer<T> {
  status: number;
  body: T;
}

/** One call to an instance; errors become PlatformError with `transient`, `tokenRejected`, `retryAfterMs` and `outcomeUnknown` set as they apply. */
export async function callMastodon<T = Record<string, unknown>>(
  api: MastodonApiOptions,
  call: MastodonCall,
): Promise<MastodonAnswer<T>> {
  const url = new URL(`${mastodonBaseUrl(api.instances, api.instance)}${call.path}`);
  for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'Postbus/1.0', ...call.headers };
  if (api.accessToken) headers.authorization = `Bearer ${api.accessToken}`;
  let body: string | Buffer | undefined;
  if (call.multipart) {
    headers['content-type'] = call.multipart.contentType;
    body = call.multipart.body;
  } else if (call.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = formOf(call.form);
  }
  const trusted = mastodonTrustedOrigin(api.instances);
  const what = `${call.method} ${call.path}`;
  let res;
  try {
    res = await safeRequest(url, {
      method: call.method,
      headers,
      body,
      allowLoopback: api.instances.allowLoopback ?? false,
      resolve: api.instances.resolve,
      trustedUrl: trusted ? (u) => u.origin === trusted : undefined,
      maxRedirects: 0,
      timeoutMs: call.timeoutMs ?? api.timeoutMs ?? MASTODON_DEFAULT_TIMEOUT_MS,
      maxResponseBytes: ANSWER_MAX_BYTES,
      oversize: 'truncate',
    });
  } catch (err) {
    if (!isNetError(err)) throw err;
    // An address the rules refuse is the instance's fault, not a passing one.
    const refused = err.kind === 'invalid_url' || err.kind === 'refused_address' || err.kind === 'too_many_redirects';
    throw new PlatformError(
      `The Mastodon instance ${api.instance} (${what}) ${refused ? `cannot be reached: ${err.message}` : 'did not answer; trying again'}.`,
      {
        platform: MASTODON_PLATFORM,
        transient: !refused,
        code: err.kind === 'timeout' ? 'timeout' : refused ? 'instance_refused' : 'network_error',
        outcomeUnknown: !refused && call.write === true,
        cause: err,
      },
    );
  }
  const json = parseJson(res.body.toString('utf8'));
  if (res.status >= 200 && res.status < 300) return { status: res.status, body: (json ?? {}) as T };
  throw mastodonError(api, what, call, res.status, res.headers, json);
}

function formOf(form: Record<string, string | string[] | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) {
    if (Array.isArray(v)) for (const item of v) params.append(k, item);
    else if (v !== undefined) params.append(k, v);
  }
  return params.toString();
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
 * Errors are `{ error, error_description? }` (https://docs.joinmastodon.org/entities/Error/): 401 is
 * a revoked token; 422 a refused status or media; 429 carries `X-RateLimit-Reset`, an ISO time
 * (https://docs.joinmastodon.org/api/rate-limits/); 5xx may pass.
 */
function mastodonError(
  api: MastodonApiOptions,
  what: string,
  call: MastodonCall,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  json: Record<string, unknown> | undefined,
): PlatformError {
  const said = typeof json?.error === 'string' ? `: ${json.error.slice(0, 300)}` : '';
  const base = { platform: MASTODON_PLATFORM, code: `HTTP ${status}`, status };
  if (status === 401) {
    return new PlatformError(`Mastodon (${api.instance}) refused the access token${said}; reconnect the account.`, {
      ...base,
      code: 'token_revoked',
      transient: false,
      tokenRejected: true,
    });
  }
  if (status === 429) {
    const reset = Date.parse(String(headers['x-ratelimit-reset'] ?? ''));
    const retryAfterMs = Number.isFinite(reset) ? Math.max(0, reset - Date.now()) : undefined;
    return new PlatformError(
      `Mastodon (${api.instance}) is rate limiting this account (${what}); trying again later.`,
      {
        ...base,
        transient: true,
        retryAfterMs,
        throttle: { kind: 'rate_limit', scope: 'account', waitMs: retryAfterMs },
      },
    );
  }
  if (status >= 500) {
    return new PlatformError(`Mastodon (${api.instance}) failed (${what}${said}); trying again.`, {
      ...base,
      transient: true,
      outcomeUnknown: call.write === true,
    });
  }
  return new PlatformError(`Mastodon (${api.instance}) refused ${what}${said}.`, {
    ...base,
    code: status === 422 ? 'unprocessable' : status === 404 ? 'not_found' : base.code,
    transient: false,
  });
}

/** A config setting holding the instance URL template (`{instance}` stands for the host); empty: the sandbox's instances. */
export function mastodonInstanceUrlVar(doc: string): { doc: string; default: string; parse(raw: string): string } {
  return {
    doc: `${doc} (empty: \${SANDBOX_URL}/mastodon/{instance})`,
    default: '',
    parse(raw) {
      if (!raw.includes('{instance}')) throw new Error('must contain {instance}, e.g. https://{instance}');
      new URL(raw.replace('{instance}', 'mastodon.example')); // throws on a malformed URL
      return raw.replace(/\/+$/, '');
    },
  };
}

/** Where the sandbox serves its Mastodon instances, under SANDBOX_URL. */
export const MASTODON_SANDBOX_PATH = '/mastodon/{instance}';
