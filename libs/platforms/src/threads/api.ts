import { callGraph, type GraphApiOptions, type GraphParams } from '../meta/graph-api';
import { threadsErrorMapper } from './errors';

/** How to reach the Threads Graph API: `baseUrl` is e.g. `https://graph.threads.net/v1.0` or `${sandboxUrl}/threads/v1.0`. */
export type ThreadsApiOptions = GraphApiOptions;

/** One call to `{baseUrl}/{path segments}`, Bearer-authenticated, Meta errors mapped to PlatformError. */
export function callThreads(
  api: ThreadsApiOptions,
  method: 'GET' | 'POST',
  segments: string[],
  params: GraphParams = {},
): Promise<Record<string, unknown>> {
  return callGraph(api, method, segments, params, threadsErrorMapper);
}
