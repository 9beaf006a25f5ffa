import { callGraph, type GraphApiOptions, type GraphParams } from '../meta/graph-api';
import { instagramErrorMapper } from './errors';

/** How to reach the Instagram Graph API: `baseUrl` is e.g. `https://graph.instagram.com/v26.0` or `${sandboxUrl}/instagram/v26.0` (META_GRAPH_VERSION). */
export type InstagramApiOptions = GraphApiOptions;

/** One call to `{baseUrl}/{segments}`, Bearer-authenticated, Meta errors mapped to PlatformError. */
export function callInstagram(
  api: InstagramApiOptions,
  method: 'GET' | 'POST',
  segments: string[],
  params: GraphParams = {},
): Promise<Record<string, unknown>> {
  return callGraph(api, method, segments, params, instagramErrorMapper);
}
