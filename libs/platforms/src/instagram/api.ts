import { nodeFetch } from '../http/node-fetch';
import { sendGraphRequest } from '../meta/graph-request';
import { instagramErrorMapper } from './errors';

/** How to reach the Instagram Graph API: `baseUrl` is e.g. `https://graph.instagram.com/v26.0` or `${sandboxUrl}/instagram/v26.0` (META_GRAPH_VERSION). */
export interface InstagramApiOptions {
  baseUrl: string;
  accessToken: string;
  fetchImpl?: typeof fetch;
  /** Deadline of each HTTP call; default 30 s. */
  timeoutMs?: number;
}

/** One call to `{baseUrl}/{segments}`, Bearer-authenticated, Meta errors mapped to PlatformError. */
export function callInstagram(
  api: InstagramApiOptions,
  method: 'GET' | 'POST',
  segments: string[],
  params: { query?: Record<string, string | undefined>; form?: Record<string, string | undefined> } = {},
): Promise<Record<string, unknown>> {
  return sendGraphRequest(
    {
      method,
      url: `${api.baseUrl.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`,
      accessToken: api.accessToken,
      query: params.query,
      form: params.form,
      fetchImpl: api.fetchImpl ?? nodeFetch,
      timeoutMs: api.timeoutMs ?? 30_000,
    },
    instagramErrorMapper,
  );
}

export function graphIdOf(body: Record<string, unknown>): string | undefined {
  const id = body.id;
  return typeof id === 'string' && id ? id : typeof id === 'number' ? String(id) : undefined;
}
