// One runtime module on purpose: the package is built into one ESM and one CommonJS file, and
// the only other source file (schema.ts) holds types, imported with `import type`, so neither
// output needs a relative import resolved at run time.
import type { paths } from './schema.js';

export type { paths, components, operations } from './schema.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op<P extends keyof paths, M extends Method> = paths[P][M] extends infer O
  ? O extends { responses: unknown }
    ? O
    : never
  : never;
type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];

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

/** A post as `GET /api/v1/posts/{id}` answers it. */
export type Post = SuccessBody<Op<'/api/v1/posts/{id}', 'get'>>;
/** The answer of `POST /api/v1/media`: the media id to post with and a signed serve URL. */
export type UploadedMedia = SuccessBody<Op<'/api/v1/media', 'post'>>;

/** Statuses a post does not leave: `waitForPost` answers once the post reaches one. */
export const FINAL_POST_STATUSES: readonly Post['status'][] = ['posted', 'failed', 'cancelled', 'rejected'];

/** The longest wait the API grants one `GET /api/v1/posts/{id}?waitFor=final` (seconds). */
const LONG_POLL_MAX_SECONDS = 25;

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

export interface UploadOptions {
  /** The file name the upload carries (default `upload`); the API reads the type from the bytes. */
  filename?: string;
  /** The part's content type (default: the Blob's own, else application/octet-stream). */
  contentType?: string;
}

export interface WaitOptions {
  /** How long to wait for a final status in all (ms, default 120 s); then a PostbusError `timeout`. */
  timeoutMs?: number;
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

/** The `{ error, code, details }` of an error answer, as far as its body has them. */
function errorBodyOf(parsed: unknown): { error?: string; code?: string; details?: unknown } {
  if (typeof parsed !== 'object' || parsed === null) return {};
  const { error, code, details } = parsed as Record<string, unknown>;
  return {
    error: typeof error === 'string' ? error : undefined,
    code: typeof code === 'string' ? code : undefined,
    details,
  };
}

function toBlob(file: Blob | ArrayBuffer | ArrayBufferView, contentType?: string): Blob {
  if (file instanceof Blob) return contentType ? new Blob([file], { type: contentType }) : file;
  const bytes = ArrayBuffer.isView(file)
    ? new Uint8Array(file.buffer, file.byteOffset, file.byteLength)
    : new Uint8Array(file);
  return new Blob([bytes], { type: contentType ?? 'application/octet-stream' });
}

type Send = (
  method: string,
  url: string,
  body: string | FormData | undefined,
  headers: Record<string, string>,
) => Promise<unknown>;

/** Makes the function that sends one request, retrying 429 and 503; it answers the parsed JSON body or throws PostbusError. */
function createSender(opts: ClientOptions): Send {
  const doFetch = opts.fetch ?? fetch;
  return async function send(method, url, body, headers) {
    const retries = opts.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const res = await doFetch(url, {
        method,
        headers: { authorization: `Bearer ${opts.apiKey}`, accept: 'application/json', ...headers },
        body,
      });
      if ((res.status === 429 || res.status === 503) && attempt < retries) {
        await sleep(retryDelayMs(res, attempt, opts.maxRetryDelayMs ?? 30_000));
        continue;
      }
      const text = await res.text();
      const parsed: unknown = text ? JSON.parse(text) : undefined;
      if (res.ok) return parsed;
      const answer = errorBodyOf(parsed);
      throw new PostbusError(res.status, answer.code ?? 'unknown', answer.error ?? res.statusText, answer.details);
    }
  };
}

/** The address of `path` under `base`: `{name}` segments filled from `params` (encoded), then the defined query values. */
function buildUrl(
  base: string,
  path: string,
  params: Record<string, string | number | undefined>,
  query: Record<string, unknown>,
): string {
  const url = `${base}${path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(params[k] ?? '')))}`;
  const defined = Object.entries(query).filter(([, v]) => v !== undefined);
  if (!defined.length) return url;
  return `${url}?${new URLSearchParams(defined.map(([k, v]) => [k, String(v)] as [string, string])).toString()}`;
}

/** A small typed client: every path and body is checked against openapi.json's types. */
export function createClient(opts: ClientOptions) {
  const base = opts.baseUrl.replace(/\/$/, '');
  const send = createSender(opts);

  async function request<M extends Method, P extends PathsWith<M>>(
    method: M,
    path: P,
    init: RequestOptions<Op<P, M>> = {},
  ): Promise<SuccessBody<Op<P, M>>> {
    // Path parameters are ids: strings, or numbers in a few places.
    const params = (init.params ?? {}) as Record<string, string | number | undefined>;
    const url = buildUrl(base, String(path), params, init.query ?? {});
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return send(
      method.toUpperCase(),
      url,
      init.body === undefined ? undefined : JSON.stringify(init.body),
      headers,
    ) as Promise<SuccessBody<Op<P, M>>>;
  }

  const readPost = (id: string, query: { waitFor?: 'final'; timeout?: number } = {}) =>
    request('get', '/api/v1/posts/{id}', { params: { id }, query });

  return {
    request,
    createPost: (body: RequestBody<Op<'/api/v1/posts', 'post'>>, headers?: Record<string, string>) =>
      request('post', '/api/v1/posts', { body, headers }),
    schedulePost: (body: RequestBody<Op<'/api/v1/posts/schedule', 'post'>>) =>
      request('post', '/api/v1/posts/schedule', { body }),
    publish: (body: RequestBody<Op<'/api/v1/publish', 'post'>>) => request('post', '/api/v1/publish', { body }),
    getPost: (id: string) => readPost(id),
    /** Uploads an image or video (multipart field `file`); post it with `mediaId`. */
    uploadMedia(
      file: Blob | ArrayBuffer | ArrayBufferView,
      { filename = 'upload', contentType }: UploadOptions = {},
    ): Promise<UploadedMedia> {
      const form = new FormData();
      form.append('file', toBlob(file, contentType), filename);
      return send('POST', `${base}/api/v1/media`, form, {}) as Promise<UploadedMedia>;
    },
    /**
     * Waits for a post to be posted, failed, cancelled or rejected, then answers it. Each call
     * is a long poll (`?waitFor=final`): the API answers as soon as the outcome is known.
     */
    async waitForPost(id: string, { timeoutMs = 120_000 }: WaitOptions = {}): Promise<Post> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const seconds = Math.min(LONG_POLL_MAX_SECONDS, Math.ceil((deadline - Date.now()) / 1000));
        const asked = Date.now();
        const post = await readPost(id, seconds >= 1 ? { waitFor: 'final', timeout: seconds } : {});
        if (FINAL_POST_STATUSES.includes(post.status)) return post;
        if (seconds < 1)
          throw new PostbusError(408, 'timeout', `post ${id} is still ${post.status} after ${timeoutMs} ms`);
        // Answered at once though not final (the gateway had no waiting place free): do not spin.
        if (Date.now() - asked < 1000) await sleep(Math.min(1000, Math.max(0, deadline - Date.now())));
      }
    },
  };
}

export type PostbusClient = ReturnType<typeof createClient>;
