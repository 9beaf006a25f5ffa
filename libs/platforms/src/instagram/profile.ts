import { joinUrl, type GrantTokens, type OAuthAppOptions, type PlatformAccount } from '../oauth/oauth-client';
import { callOAuth, optionalString, requireString } from '../oauth/oauth-http';

/** `GET graph.instagram.com/me`: the professional account the token belongs to. */
export async function readInstagramAccount(
  opts: OAuthAppOptions & { graphUrl: string },
  tokens: GrantTokens,
): Promise<PlatformAccount> {
  const action = 'reading the Instagram profile';
  const me = await callOAuth(opts, {
    platform: 'instagram',
    action,
    method: 'GET',
    url: joinUrl(opts.graphUrl, 'me'),
    query: { fields: 'user_id,username,name,profile_picture_url' },
    bearer: tokens.accessToken,
  });
  // `user_id` is the id publishing calls use (`/{ig-user-id}/media`); `id` is app-scoped.
  const platformUserId =
    optionalString(me.user_id) ?? tokens.platformUserId ?? requireString('instagram', action, me, 'id');
  const username = requireString('instagram', action, me, 'username');
  return {
    platformUserId,
    handle: username,
    displayName: optionalString(me.name) ?? username,
    profileUrl: `https://www.instagram.com/${encodeURIComponent(username)}`,
    profileImageUrl: optionalString(me.profile_picture_url) ?? null,
    credentials: {
      platformUserId,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: tokens.expiresAt,
    },
  };
}
