import type { paths } from './schema';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op<P extends keyof paths, M extends Method> = paths[P][M] extends infer O ? (O extends { responses: unknown } ? O : never) : never;
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never }[keyof paths];

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type SuccessBody<O> = O extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201>]> : never;
type RequestBody<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type PathParams<O> = O extends { parameters: { path: infer PP } } ? PP : never;
type QueryParams<O> = O extends { parameters: { query?: infer Q } } ? Q : never;

export interface RequestOptions<O> {
  params?: PathParams<O> extends never ? never : PathParams<O>;
  query?: QueryParams<O>;
  body?: RequestBody<O>;
  headers?: Record<string, string>;
}

/** An error answer of the API: `{ error, code }` with its HTTP status. */
export class PostbusError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'PostbusError';
  }
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Retries on 429 and 503, honouring Retry-After (default 3). */
  retries?: number;
  fetch?: typeof fetch;
  /** Upper bound of one wait between retries (ms, default 30 s). */
  maxRetryDelayMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function retryDelayMs(res: Response, attempt: number, cap: number): number {
  const header = res.headers.get('retry-after');
  if (header) {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
    if (ms >= 0) return Math.min(ms, cap);
  }
  return Math.min(250 * 2 ** attempt + Math.random() * 100, cap);
}

/** A small typed client: every path and body is checked against openapi.json's types. */
export function createClient(opts: ClientOptions) {
  const doFetch = opts.fetch ?? fetch;
  const base = opts.baseUrl.replace(/\/$/, '');

  async function request<M extends Method, P extends PathsWith<M>>(method: M, path: P, init: RequestOptions<Op<P, M>> = {}): Promise<SuccessBody<Op<P, M>>> {
    let url = `${base}${String(path).replace(/\{(\w+)\}/g, (_, k) => encodeURIComponent(String((init.params as Record<string, unknown> | undefined)?.[k] ?? '')))}`;
    const query = Object.entries((init.query ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (query.length) url += `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)] as [string, string]))}`;
    const headers: Record<string, string> = { authorization: `Bearer ${opts.apiKey}`, accept: 'application/json', ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const retries = opts.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const res = await doFetch(url, { method: method.toUpperCase(), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
      if ((res.status === 429 || res.status === 503) && attempt < retries) {
        await sleep(retryDelayMs(res, attempt, opts.maxRetryDelayMs ?? 30_000));
        continue;
      }
      const text = await res.text();
      const body = text ? JSON.parse(text) : undefined;
      if (!res.ok) throw new PostbusError(res.status, body?.code ?? 'unknown', body?.error ?? res.statusText, body?.details);
      return body;
    }
  }

  type Post = SuccessBody<Op<'/api/v1/posts/{id}', 'get'>>;

  return {
    request,
    createPost: (body: RequestBody<Op<'/api/v1/posts', 'post'>>, headers?: Record<string, string>) => request('post', '/api/v1/posts', { body, headers } as never),
    schedulePost: (body: RequestBody<Op<'/api/v1/posts/schedule', 'post'>>) => request('post', '/api/v1/posts/schedule', { body } as never),
    publish: (body: RequestBody<Op<'/api/v1/publish', 'post'>>) => request('post', '/api/v1/publish', { body } as never),
    getPost: (id: string) => request('get', '/api/v1/posts/{id}', { params: { id } } as never) as Promise<Post>,
    /** Polls a post until it is posted or failed (or another terminal state), then answers it. */
    async waitForPost(id: string, { timeoutMs = 120_000, intervalMs = 1000 } = {}): Promise<Post> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const post = (await request('get', '/api/v1/posts/{id}', { params: { id } } as never)) as Post & { status: string };
        if (!['scheduled', 'draft', 'pending_approval'].includes(post.status)) return post;
        if (Date.now() + intervalMs > deadline) throw new PostbusError(408, 'timeout', `post ${id} is still ${post.status} after ${timeoutMs} ms`);
        await sleep(intervalMs);
      }
    },
  };
}

export type PostbusClient = ReturnType<typeof createClient>;
