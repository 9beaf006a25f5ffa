import { nodeFetch } from '../http/node-fetch';
import { sendGraphRequest } from '../meta/graph-request';
import { threadsErrorMapper } from './errors';

/** How to reach the Threads Graph API: `baseUrl` is e.g. `https://graph.threads.net/v1.0` or `${sandboxUrl}/threads/v1.0`. */
export interface ThreadsApiOptions {
  baseUrl: string;
  accessToken: string;
  /** Defaults to nodeFetch (keep-alive node:http). */
  fetchImpl?: typeof fetch;
  /** Deadline of each HTTP call; default 30 s. */
  timeoutMs?: number;
}

export const THREADS_DEFAULT_TIMEOUT_MS = 30_000;

/** One call to `{baseUrl}/{path segments}`, Bearer-authenticated, Meta errors mapped to PlatformError. */
export function callThreads(
  api: ThreadsApiOptions,
  method: 'GET' | 'POST',
  segments: string[],
  params: { query?: Record<string, string | undefined>; form?: Record<string, string | undefined> } = {},
): Promise<Record<string, unknown>> {
  const base = api.baseUrl.replace(/\/+$/, '');
  return sendGraphRequest(
    {
      method,
      url: `${base}/${segments.map(encodeURIComponent).join('/')}`,
      accessToken: api.accessToken,
      query: params.query,
      form: params.form,
      fetchImpl: api.fetchImpl ?? nodeFetch,
      timeoutMs: api.timeoutMs ?? THREADS_DEFAULT_TIMEOUT_MS,
    },
    threadsErrorMapper,
  );
}

/** Reads a string id out of a success body such as `{"id":"1789..."}`. */
export function idFrom(body: Record<string, unknown>): string | undefined {
  const id = body.id;
  return typeof id === 'string' && id ? id : typeof id === 'number' ? String(id) : undefined;
}
