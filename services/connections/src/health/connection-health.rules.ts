import type { ConnectionHealth } from '@postbus/contracts';
import type { TikTokCreatorInfo } from '@postbus/platforms';

/** TikTok's facts about posting: the app's audit state and what creator_info offers. */
export function tiktokFacts(
  clientAudited: boolean,
  info: TikTokCreatorInfo | null,
): NonNullable<ConnectionHealth['tiktok']> {
  const options = info?.privacyLevelOptions ?? null;
  const onlySelf = options !== null && options.length > 0 && options.every((o) => o === 'SELF_ONLY');
  return {
    clientAudited,
    privacyLevelOptions: options,
    // creator_info leaves PUBLIC_TO_EVERYONE out for private accounts (content-posting-api-reference-query-creator-info);
    // SELF_ONLY alone may be the client's restriction, which says nothing about the account.
    accountPrivate: options && !onlySelf ? !options.includes('PUBLIC_TO_EVERYONE') : null,
    selfOnly: !clientAudited || onlySelf,
  };
}

/** What stops or limits publishing, in words, from the facts gathered. */
export function healthProblems(h: Omit<ConnectionHealth, 'problems'>, platformName: string): string[] {
  const problems: string[] = [];
  if (h.status !== 'active')
    problems.push(
      `The profile is ${h.status}${h.statusReason ? ` (${h.statusReason})` : ''}; connect it again with POST /api/v1/connections.`,
    );
  else if (h.token.expired)
    problems.push(
      `The ${platformName} token expired at ${h.token.expiresAt}; it will be refreshed, or the profile must be connected again.`,
    );
  if (h.token.lastRefreshError) problems.push(`The last token refresh failed: ${h.token.lastRefreshError}`);
  if (h.scopes.missing?.length)
    problems.push(
      `The grant lacks ${h.scopes.missing.join(', ')}, which publishing needs; connect the profile again and grant them (the app may need them approved first).`,
    );
  if (h.quota.remaining === 0)
    problems.push(
      `${platformName}'s publishing quota is used up (${h.quota.used} of ${h.quota.total}); posts wait until a slot frees in the rolling window.`,
    );
  if (h.tiktok?.selfOnly) {
    problems.push(
      h.tiktok.clientAudited
        ? 'creator_info offers only SELF_ONLY: posts to this creator can only be private.'
        : 'The TikTok app is unaudited: posts can only be SELF_ONLY, to private accounts, and at most 5 users a day may post; pass the content-posting audit to post publicly.',
    );
    if (!h.tiktok.clientAudited && h.tiktok.accountPrivate === false)
      problems.push(
        'This TikTok account is public: an unaudited app may only post to private accounts (unaudited_client_can_only_post_to_private_accounts).',
      );
  }
  return problems;
}
