import type { GraphErrorBody } from '../meta/graph-error';
import {
  graphDuplicateReason,
  graphInvalidInput,
  graphNetworkError,
  graphPolicyBlockReason,
  type GraphWording,
} from '../meta/graph-failures';
import { graphErrorFromResponse } from '../meta/graph-refusal';
import type { GraphErrorMapper } from '../meta/graph-request';

const platform = 'facebook' as const;

export const FACEBOOK_TOKEN_REASON = 'The Facebook Page access token is invalid or expired; reconnect the Page.';

const FACEBOOK_WORDING: GraphWording = {
  label: 'Facebook',
  tokenReason: FACEBOOK_TOKEN_REASON,
  permissionReason:
    'Postbus is not allowed to publish to this Facebook Page (pages_manage_posts is missing, or the user lost the CREATE_CONTENT task); reconnect the Page and grant publishing access.',
  appNotEnabledReason: 'The Facebook app is not enabled for this call; an operator must add the capability to the app.',
  throttledReason: 'Facebook is limiting how often this Page may be called; publishing will be tried again later.',
  baseUrls: 'the Facebook API base URLs',
  postParts: 'text and media',
  ownReason: facebookOwnReason,
};

/** Maps any answer of the Facebook Graph API (graph, rupload) that is not a success. */
export const facebookErrorFromResponse = graphErrorFromResponse(platform, { wording: FACEBOOK_WORDING });

export const facebookNetworkError = graphNetworkError(platform, 'Facebook');

export const facebookErrorMapper: GraphErrorMapper = {
  platform: 'facebook',
  fromResponse: facebookErrorFromResponse,
  fromNetwork: facebookNetworkError,
};

export const facebookInvalidInput = graphInvalidInput(platform);

function facebookOwnReason(error: GraphErrorBody): string | undefined {
  if (error.code === 368) return graphPolicyBlockReason('Facebook', 'Page');
  if (error.code === 506) return graphDuplicateReason('Facebook');
  if (error.code === 1609005)
    return 'Facebook could not read the link in the post; check that the URL is correct and publicly reachable.';
  if (error.message?.includes('reels') && error.message.includes('limit')) {
    return 'This Facebook Page has reached its limit of 30 API-published reels in 24 hours; publish it again later.';
  }
  return undefined;
}
