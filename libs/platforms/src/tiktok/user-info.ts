import { joinUrl, type GrantTokens, type OAuthAppOptions, type PlatformAccount } from '../oauth/oauth-client';
import { callOAuth, optionalString, requireString } from '../oauth/oauth-http';

/** TikTok API success: `error.code == "ok"` (business errors may arrive with HTTP 200). */
export const isTikTokOk = (body: Record<string, unknown>) =>
  (body.error as { code?: unknown } | undefined)?.code === 'ok';

/** `GET /v2/user/info/`: the creator the token belongs to. */
export async function readTikTokAccount(
  opts: OAuthAppOptions & { apiUrl: string },
  tokens: GrantTokens,
): Promise<PlatformAccount> {
  const action = 'reading the TikTok profile';
  const answer = await callOAuth(opts, {
    platform: 'tiktok',
    action,
    method: 'GET',
    url: joinUrl(opts.apiUrl, 'v2/user/info/'),
    query: { fields: 'open_id,union_id,avatar_url,display_name,username,profile_deep_link' },
    bearer: tokens.accessToken,
    isSuccess: isTikTokOk,
  });
  const user = (answer.data as { user?: Record<string, unknown> } | undefined)?.user ?? {};
  const openId =
    optionalString(user.open_id) ?? tokens.platformUserId ?? requireString('tiktok', action, user, 'open_id');
  const displayName = optionalString(user.display_name) ?? '';
  const username = optionalString(user.username) ?? displayName;
  if (!username) requireString('tiktok', action, user, 'username');
  return {
    platformUserId: openId,
    handle: username,
    displayName: displayName || username,
    profileUrl: optionalString(user.profile_deep_link) ?? `https://www.tiktok.com/@${encodeURIComponent(username)}`,
    profileImageUrl: optionalString(user.avatar_url) ?? null,
    credentials: {
      platformUserId: openId,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: tokens.expiresAt,
    },
  };
}
