import { countOf, itemNotListed, type PlatformEngagement } from '../insights/engagement';
import { isPlatformError } from '../errors';
import { callMastodon, MASTODON_PLATFORM, type MastodonApiOptions } from './api';

/**
 * A status's counts on the account's own instance (`GET /api/v1/statuses/:id`,
 * https://docs.joinmastodon.org/methods/statuses/#get; fields of https://docs.joinmastodon.org/entities/Status/):
 * favourites as likes, replies as comments, boosts and quotes (instances that count them) together
 * as shares. Mastodon reports no views. A status that is gone (404) is not listed any more.
 */
export async function getMastodonEngagement(api: MastodonApiOptions, statusId: string): Promise<PlatformEngagement> {
  let body: Record<string, unknown>;
  try {
    // https://docs.joinmastodon.org/methods/statuses/#get
    ({ body } = await callMastodon(api, { method: 'GET', path: `/api/v1/statuses/${encodeURIComponent(statusId)}` }));
  } catch (err) {
    if (isPlatformError(err) && err.status === 404) throw itemNotListed(MASTODON_PLATFORM, statusId);
    throw err;
  }
  const boosts = countOf(body.reblogs_count);
  const quotes = countOf(body.quotes_count);
  return {
    views: null,
    likes: countOf(body.favourites_count),
    comments: countOf(body.replies_count),
    shares: boosts === null && quotes === null ? null : (boosts ?? 0) + (quotes ?? 0),
  };
}
