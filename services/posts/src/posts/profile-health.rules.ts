import { firstCommentFor, type ConnectionHealth, type FirstCommentInput } from '@postbus/contracts';
import type { Problem } from './post-payload.rules';

/**
 * What a profile's health says about this post: a grant without the publishing scopes, or a
 * TikTok post asking for more than SELF_ONLY where TikTok only takes SELF_ONLY (an unaudited
 * app, or creator_info offering nothing else), or a first comment the grant does not allow (YouTube
 * without youtube.force-ssl). The same facts GET /connections/{id}/health shows.
 */
export function profileHealthProblems(health: ConnectionHealth, body: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  const platform = health.platform as Problem['platform'];
  if (health.scopes.missing?.length) {
    problems.push({
      code: 'invalid_profile_ids',
      message: `Profile ${health.profileId} (${health.handle}) has not granted ${health.scopes.missing.join(', ')}, which publishing needs; connect it again and grant them.`,
      platform,
      field: 'profileIds',
    });
  }
  const firstComment =
    typeof body.firstComment === 'string' || (typeof body.firstComment === 'object' && body.firstComment !== null)
      ? (body.firstComment as FirstCommentInput)
      : undefined;
  if (
    health.scopes.firstCommentMissing?.length &&
    firstCommentFor(firstComment, health.platform as never) !== undefined
  ) {
    problems.push({
      code: 'invalid_profile_ids',
      message: `Profile ${health.profileId} (${health.handle}) has not granted ${health.scopes.firstCommentMissing.join(', ')}, which a first comment needs; connect it again and grant it, or post without firstComment for ${health.platform}.`,
      platform,
      field: 'firstComment',
    });
  }
  const tiktok = (body.platformMeta as { tiktok?: { privacyLevel?: unknown } } | null | undefined)?.tiktok;
  const privacy = typeof tiktok?.privacyLevel === 'string' ? tiktok.privacyLevel : undefined;
  if (health.tiktok?.selfOnly && privacy && privacy !== 'SELF_ONLY') {
    const why = health.tiktok.clientAudited
      ? "this creator's creator_info offers only SELF_ONLY"
      : 'the TikTok app is unaudited, and TikTok takes only SELF_ONLY posts to private accounts from it';
    problems.push({
      code: 'validation_error',
      message: `TikTok would refuse ${privacy} for profile ${health.profileId}: ${why}. Use SELF_ONLY.`,
      platform,
      field: 'platformMeta.tiktok.privacyLevel',
    });
  }
  return problems;
}
