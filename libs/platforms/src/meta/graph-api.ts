import { nodeFetch } from '../http/node-fetch';
import { sendGraphRequest, type GraphErrorMapper } from './graph-request';

/** How to reach one Meta Graph API (Facebook, Instagram, Threads): `baseUrl` carries its version. */
export interface GraphApiOptions {
  baseUrl: string;
  accessToken: string;
  /** Defaults to nodeFetch (keep-alive node:http). */
  fetchImpl?: typeof fetch;
  /** Deadline of each HTTP call; default 30 s. */
  timeoutMs?: number;
}

export const GRAPH_DEFAULT_TIMEOUT_MS = 30_000;

export interface GraphParams {
  query?: Record<string, string | undefined>;
  form?: Record<string, string | undefined>;
  /** A `multipart/form-data` body, already encoded, in place of `form`. */
  multipart?: { body: Buffer; contentType: string };
}

/** One call to `{baseUrl}/{path segments}`, Bearer-authenticated, errors mapped by the platform's mapper. */
export function callGraph(
  api: GraphApiOptions,
  method: 'GET' | 'POST',
  segments: string[],
  params: GraphParams,
  errors: GraphErrorMapper,
): Promise<Record<string, unknown>> {
  return sendGraphRequest(
    {
      method,
      url: `${api.baseUrl.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`,
      accessToken: api.accessToken,
      query: params.query,
      form: params.form,
      multipart: params.multipart,
      fetchImpl: api.fetchImpl ?? nodeFetch,
      timeoutMs: api.timeoutMs ?? GRAPH_DEFAULT_TIMEOUT_MS,
    },
    errors,
  );
}

/** A non-empty string (or number, as Graph sends some ids) of a success body, as a string. */
export function graphString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : undefined;
}

/** The id of a success body such as `{"id":"1789..."}`. */
export function graphIdOf(body: Record<string, unknown>): string | undefined {
  return graphString(body, 'id');
}
