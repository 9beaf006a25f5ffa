import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { bodyTooLarge, declaresMoreThan, readBoundedBody } from './bounded-body';
import { NetError } from './net-error';
import { parseTargetUrl, pinTarget, type TargetPolicy } from './pin-target';
import type { ResolvedAddress } from './resolver';

export interface SafeRequestOptions extends TargetPolicy {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Redirects followed, each one judged again like the first URL. 0 (the default) answers a 3xx as it is. */
  maxRedirects?: number;
  /** The whole exchange: resolving, connecting, redirects and the response body (see timeoutCoversBody). */
  timeoutMs: number;
  /**
   * False: timeoutMs ends once the answer's headers are in, and the caller bounds the body itself
   * (a stream read at the pace of whoever consumes it). Default true.
   */
  timeoutCoversBody?: boolean;
  /** Longest wait for a connection (default: timeoutMs). */
  connectTimeoutMs?: number;
  /** Longest silence of the remote server (default: timeoutMs; 0: none, the caller watches the body itself). */
  idleTimeoutMs?: number;
  /** The caller's own check of every URL before it is requested (the first and each redirect); throw to refuse. */
  checkUrl?(url: URL): void;
}

export interface SafeResponse {
  /** The URL that answered (the last of the chain). */
  url: URL;
  /** Every URL requested, the first one first. */
  chain: URL[];
  /** The address connected to. */
  address: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as it streams; destroy it to stop. It fails with a NetError when a time limit passes. */
  body: IncomingMessage;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CROSS_ORIGIN_DROPPED = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * An outbound request that cannot be pointed inside our network: only http(s); the host name is
 * resolved once and every address judged; the connection goes to the judged address through a
 * pinned `lookup` (no second resolution can change it); redirects, when allowed, are followed by
 * hand and each one judged again; every phase runs against one deadline.
 */
export async function openSafeRequest(target: string | URL, opts: SafeRequestOptions): Promise<SafeResponse> {
  const deadline = Date.now() + opts.timeoutMs;
  const maxRedirects = opts.maxRedirects ?? 0;
  const chain: URL[] = [];
  let url = parseTargetUrl(target);
  let method = (opts.method ?? 'GET').toUpperCase();
  let body = opts.body;
  let headers: Record<string, string> = { ...opts.headers };
  for (;;) {
    chain.push(url);
    opts.checkUrl?.(url);
    const pinned = await beforeDeadline(pinTarget(url, opts), deadline, `resolving ${url.hostname} took too long`);
    const res = await send(url, pinned, { method, headers, body }, opts, deadline);
    const status = res.statusCode ?? 0;
    if (!(REDIRECTS.has(status) && res.headers.location && maxRedirects > 0)) {
      return { url, chain, address: pinned.address, status, headers: res.headers, body: res };
    }
    res.destroy();
    if (chain.length > maxRedirects)
      throw new NetError('too_many_redirects', `more than ${maxRedirects} redirect${maxRedirects === 1 ? '' : 's'}`);
    let next: URL;
    try {
      next = parseTargetUrl(new URL(res.headers.location, url));
    } catch (err) {
      throw err instanceof NetError ? err : new NetError('invalid_url', 'it redirected to an invalid address');
    }
    if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers = withoutHeaders(headers, ['content-type', 'content-length']);
    }
    if (next.origin !== url.origin) headers = withoutHeaders(headers, CROSS_ORIGIN_DROPPED);
    url = next;
  }
}

export interface BufferedResponse extends Omit<SafeResponse, 'body'> {
  body: Buffer;
  /** True when the body was cut at maxResponseBytes (oversize: 'truncate'). */
  truncated: boolean;
}

/** openSafeRequest, reading the body into memory up to `maxResponseBytes`: beyond it, fail (default) or keep the start. */
export async function safeRequest(
  target: string | URL,
  opts: SafeRequestOptions & { maxResponseBytes: number; oversize?: 'fail' | 'truncate' },
): Promise<BufferedResponse> {
  const res = await openSafeRequest(target, opts);
  const stop = () => res.body.destroy();
  if (opts.oversize !== 'truncate' && declaresMoreThan(res.headers['content-length'], opts.maxResponseBytes)) {
    stop();
    throw bodyTooLarge(opts.maxResponseBytes);
  }
  const { bytes, truncated } = await readBoundedBody(res.body, {
    maxBytes: opts.maxResponseBytes,
    oversize: opts.oversize,
    stop,
  });
  return { ...res, body: bytes, truncated };
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k.toLowerCase())));
}

async function beforeDeadline<T>(work: Promise<T>, deadline: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NetError('timeout', message)), Math.max(1, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function send(
  url: URL,
  pinned: ResolvedAddress,
  msg: { method: string; headers: Record<string, string>; body?: string | Buffer },
  opts: SafeRequestOptions,
  deadline: number,
): Promise<IncomingMessage> {
  // Whatever the http module asks, it gets the address that was judged.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const headers: Record<string, string> = { ...msg.headers };
  if (msg.body !== undefined) headers['content-length'] = String(Buffer.byteLength(msg.body));
  return new Promise<IncomingMessage>((resolve, reject) => {
    const left = () => Math.max(1, deadline - Date.now());
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: msg.method,
      headers,
      lookup,
      agent: false,
    });
    let response: IncomingMessage | undefined;
    const fail = (err: NetError) => (response ? response.destroy(err) : req.destroy(err));
    const connectTimer = setTimeout(
      () => fail(new NetError('timeout', `connecting to ${url.host} timed out`)),
      Math.min(opts.connectTimeoutMs ?? opts.timeoutMs, left()),
    );
    const totalTimer = setTimeout(
      () => fail(new NetError('timeout', `${url.host} did not answer within ${opts.timeoutMs} ms`)),
      left(),
    );
    req.on('socket', (socket) =>
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer)),
    );
    req.setTimeout(opts.idleTimeoutMs ?? opts.timeoutMs, () =>
      fail(new NetError('timeout', `${url.host} stopped answering`)),
    );
    req.on('error', (err) => {
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      reject(
        err instanceof NetError
          ? err
          : new NetError('connection_failed', `${url.host}: ${(err as NodeJS.ErrnoException).code ?? err.message}`),
      );
    });
    req.on('response', (res) => {
      response = res;
      clearTimeout(connectTimer);
      if (opts.timeoutCoversBody === false) clearTimeout(totalTimer);
      res.once('close', () => clearTimeout(totalTimer));
      resolve(res);
    });
    req.end(msg.body);
  });
}
