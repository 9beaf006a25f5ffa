import { callGraph, type GraphApiOptions, type GraphParams } from '../meta/graph-api';
import { facebookErrorMapper } from './errors';

/**
 * How to reach Facebook: `baseUrl` is the Graph API with its version (`https://graph.facebook.com/v26.0`),
 * for every call, Page videos included (graph-video.facebook.com is retired). Calls use the Page token.
 */
export type FacebookApiOptions = GraphApiOptions;

export function callFacebook(
  api: FacebookApiOptions,
  method: 'GET' | 'POST',
  segments: string[],
  params: GraphParams = {},
): Promise<Record<string, unknown>> {
  return callGraph(api, method, segments, params, facebookErrorMapper);
}
