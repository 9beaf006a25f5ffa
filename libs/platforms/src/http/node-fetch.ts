import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';

/**
 * A `fetch` for the platform API calls (small JSON or form bodies, JSON answers) over node:http
 * with keep-alive agents. The WHATWG fetch of Node spends several times the CPU per call on
 * streams, Request/Response objects and abort plumbing; a publisher makes four to six such
 * calls per post. Uploads (streamed bodies) keep using the global fetch.
 *
 * Behaves like fetch where the clients rely on it: failures reject with TypeError('fetch failed')
 * and the socket error as `cause`; an aborted signal rejects with the signal's reason.
 */

/** Below the usual 5 s server keep-alive, so an idle socket is dropped before the server closes it. */
const IDLE_SOCKET_MS = 4000;

const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
};

export const nodeFetch: typeof fetch = async (input, init = {}) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const body = init.body;
  if (input instanceof Request || (body !== undefined && body !== null && typeof body !== 'string'))
    return fetch(input, init);
  return send(url, init, typeof body === 'string' ? body : undefined, true);
};

async function send(url: URL, init: RequestInit, body: string | undefined, mayRetry: boolean): Promise<Response> {
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const transport = url.protocol === 'https:' ? https : http;
  const agent = agents[url.protocol as keyof typeof agents];
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const onAbort = () => {
      req.destroy();
      fail(signal!.reason);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(err); // eslint-disable-line @typescript-eslint/prefer-promise-reject-errors -- like fetch, an abort rejects with the signal's reason, whatever value it is
    };
    const req = transport.request(url, { method: init.method ?? 'GET', headers, agent }, (res) => {
      if (settled) return void res.destroy();
      settled = true;
      // The deadline goes on covering the body: an abort now ends the stream its reader is waiting on.
      const endBody = () => res.destroy(signal!.reason as Error);
      signal?.removeEventListener('abort', onAbort);
      signal?.addEventListener('abort', endBody, { once: true });
      res.once('close', () => signal?.removeEventListener('abort', endBody));
      res.on('error', () => {}); // whoever reads the body sees the error; no reader yet must not crash the process
      resolve(responseOf(url, res));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed just as it was reused: nothing reached the server (Node's documented retry).
      if (mayRetry && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE') && !settled) {
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        send(url, init, body, false).then(resolve, reject);
        return;
      }
      fail(new TypeError('fetch failed', { cause: err }));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    req.end(body);
  });
}

/** Where a nodeFetch answer keeps its body as a node stream, for readers that take one (readBoundedAnswer). */
export const NODE_BODY = Symbol('postbus.nodeBody');

/**
 * The part of Response the clients use: status, headers and the body, which streams from the
 * socket. `text()`, `json()` and `arrayBuffer()` read all of it; a bounded reader takes
 * `[NODE_BODY]` (or `body`, made on first use) and stops where it likes.
 */
function responseOf(url: URL, res: http.IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  const status = res.statusCode ?? 0;
  const whole = async () => {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) chunks.push(chunk);
    } catch (err) {
      throw isAbort(err) ? err : new TypeError('fetch failed', { cause: err });
    }
    return Buffer.concat(chunks);
  };
  const text = async () => new TextDecoder().decode(await whole());
  let body: ReadableStream<Uint8Array> | undefined;
  return {
    url: url.toString(),
    status,
    statusText: res.statusMessage ?? '',
    ok: status >= 200 && status < 300,
    redirected: false,
    type: 'basic',
    headers,
    get bodyUsed() {
      return res.readableDidRead;
    },
    get body() {
      return (body ??= Readable.toWeb(res) as ReadableStream<Uint8Array>);
    },
    [NODE_BODY]: res,
    text,
    json: async () => JSON.parse(await text()) as unknown,
    arrayBuffer: async () => {
      const buffer = await whole();
      return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
    },
  } as unknown as Response;
}

/** An abort's reason (TimeoutError, AbortError) passes as it is, like fetch rejects with it. */
function isAbort(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}
