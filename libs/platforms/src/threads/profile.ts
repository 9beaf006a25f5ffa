import { joinUrl, type GrantTokens, type OAuthAppOptions, type PlatformAccount } from '../oauth/oauth-client';
import { callOAuth, optionalString, requireString } from '../oauth/oauth-http';

/** `GET graph.threads.net/v1.0/me`: the Threads user the token belongs to. */
export async function readThreadsAccount(
  opts: OAuthAppOptions & { apiUrl: string },
  tokens: GrantTokens,
): Promise<PlatformAccount> {
  const action = 'reading the Threads profile';
  const me = await callOAuth(opts, {
    platform: 'threads',
    action,
    method: 'GET',
    url: joinUrl(opts.apiUrl, 'me'),
    query: { fields: 'id,username,name,threads_profile_picture_url' },
    bearer: tokens.accessToken,
  });
  const platformUserId = requireString('threads', action, me, 'id');
  const username = requireString('threads', action, me, 'username');
  return {
    platformUserId,
    handle: username,
    displayName: optionalString(me.name) ?? username,
    profileUrl: `https://www.threads.net/@${encodeURIComponent(username)}`,
    profileImageUrl: optionalString(me.threads_profile_picture_url) ?? null,
    credentials: {
      platformUserId,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: tokens.expiresAt,
    },
  };
}
