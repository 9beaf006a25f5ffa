import { safeRequest, type Resolver } from '@postbus/net';

/**
 * Which addresses the OAuth client and the DPoP-bound XRPC calls may reach. Every address comes
 * from outside (a handle's DID document names the PDS, the PDS names its authorization server), so
 * each request goes through @postbus/net: public addresses only, loopback only in development.
 */
export interface BlueskyNetAccess {
  /** Let loopback addresses (and plain http on them) through: tests and local development only. */
  allowLoopback: boolean;
  /** Injected in tests to play DNS answers; the system resolver otherwise. */
  resolve?: Resolver;
  /**
   * Origins the operator configured (BLUESKY_SERVICE_URL, BLUESKY_PLC_URL: the sandbox's in
   * development): connected to wherever they resolve, and plain http allowed on them.
   */
  trustedOrigins?: string[];
}

/** Whether the URL is under an origin the operator configured. */
export const isTrustedOrigin = (access: BlueskyNetAccess, url: URL): boolean =>
  (access.trustedOrigins ?? []).includes(url.origin);

/** Bytes of an answer read at most: metadata, DID documents, tokens and records are small. */
export const BLUESKY_OAUTH_ANSWER_MAX_BYTES = 256 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * A `fetch` that sends through @postbus/net: no redirects followed (an OAuth or XRPC answer is
 * never a redirect to follow), the whole exchange bounded in time and size. Only what callXrpc
 * and this client use of fetch is served: method, string headers, a string or byte body.
 */
export function netFetch(access: BlueskyNetAccess, opts: { timeoutMs?: number; maxBytes?: number } = {}): typeof fetch {
  const call = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : input;
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body =
      typeof init.body === 'string'
        ? init.body
        : init.body instanceof Uint8Array
          ? Buffer.from(init.body.buffer, init.body.byteOffset, init.body.byteLength)
          : init.body instanceof URLSearchParams
            ? init.body.toString()
            : undefined;
    if (init.body instanceof URLSearchParams) headers['content-type'] ??= 'application/x-www-form-urlencoded';
    const res = await safeRequest(url, {
      method: init.method ?? 'GET',
      headers,
      body,
      allowLoopback: access.allowLoopback,
      resolve: access.resolve,
      trustedUrl: (u) => isTrustedOrigin(access, u),
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxResponseBytes: opts.maxBytes ?? BLUESKY_OAUTH_ANSWER_MAX_BYTES,
    });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (Array.isArray(v)) for (const one of v) out.append(k, one);
      else if (v !== undefined) out.set(k, String(v));
    }
    const empty = res.status === 204 || res.status === 304;
    return new Response(empty ? null : new Uint8Array(res.body), { status: res.status, headers: out });
  };
  return call;
}
