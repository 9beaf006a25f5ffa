import { nodeFetch } from '../http/node-fetch';
import { sendGraphRequest } from '../meta/graph-request';
import { facebookErrorMapper } from './errors';

/**
 * How to reach Facebook: `baseUrl` is the Graph API with its version (`https://graph.facebook.com/v26.0`),
 * for every call, Page videos included (graph-video.facebook.com is retired). Calls use the Page token.
 */
export interface FacebookApiOptions {
  baseUrl: string;
  accessToken: string;
  fetchImpl?: typeof fetch;
  /** Deadline of each HTTP call; default 30 s. */
  timeoutMs?: number;
}

export function callFacebook(
  api: FacebookApiOptions,
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
      timeoutMs: api.timeoutMs ?? 30_000,
    },
    facebookErrorMapper,
  );
}

export function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : undefined;
}
