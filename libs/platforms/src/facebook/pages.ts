import { joinUrl, type OAuthAppOptions, type PlatformAccount } from '../oauth/oauth-client';
import { callOAuth, optionalString } from '../oauth/oauth-http';

interface PageEntry {
  id?: unknown;
  name?: unknown;
  username?: unknown;
  link?: unknown;
  access_token?: unknown;
  tasks?: unknown;
  picture?: { data?: { url?: unknown } };
}

/**
 * `GET /me/accounts` with a user token: the Pages the person granted, each with its own Page token.
 * Pages where the person may not create content (no CREATE_CONTENT task) are left out.
 */
export async function listFacebookPages(
  opts: OAuthAppOptions & { graphUrl: string },
  userToken: string,
): Promise<PlatformAccount[]> {
  const answer = await callOAuth(opts, {
    platform: 'facebook',
    action: 'listing the granted Pages',
    method: 'GET',
    url: joinUrl(opts.graphUrl, 'me/accounts'),
    query: { fields: 'id,name,username,link,access_token,tasks,picture{url}', limit: '100' },
    bearer: userToken,
  });
  const entries = Array.isArray(answer.data) ? (answer.data as PageEntry[]) : [];
  const pages: PlatformAccount[] = [];
  for (const entry of entries) {
    const id = optionalString(entry.id);
    const pageToken = optionalString(entry.access_token);
    if (!id || !pageToken) continue;
    if (Array.isArray(entry.tasks) && !entry.tasks.includes('CREATE_CONTENT')) continue;
    const name = optionalString(entry.name) ?? id;
    pages.push({
      platformUserId: id,
      handle: optionalString(entry.username) ?? name,
      displayName: name,
      profileUrl: optionalString(entry.link) ?? `https://www.facebook.com/${id}`,
      profileImageUrl: optionalString(entry.picture?.data?.url) ?? null,
      credentials: { platformUserId: id, accessToken: pageToken, refreshToken: userToken, expiresAt: null },
    });
  }
  return pages;
}
