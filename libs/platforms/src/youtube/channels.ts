import { joinUrl, type GrantTokens, type OAuthAppOptions, type PlatformAccount } from '../oauth/oauth-client';
import { callOAuth, optionalString } from '../oauth/oauth-http';

interface ChannelItem {
  id?: unknown;
  snippet?: { title?: unknown; customUrl?: unknown; thumbnails?: Record<string, { url?: unknown } | undefined> };
}

/** `GET /channels?part=snippet&mine=true`: the channel(s) of the Google account that consented. */
export async function listYouTubeChannels(
  opts: OAuthAppOptions & { apiUrl: string },
  tokens: GrantTokens,
): Promise<PlatformAccount[]> {
  const answer = await callOAuth(opts, {
    platform: 'youtube',
    action: 'reading the YouTube channel',
    method: 'GET',
    url: joinUrl(opts.apiUrl, 'channels'),
    query: { part: 'snippet', mine: 'true', maxResults: '50' },
    bearer: tokens.accessToken,
  });
  const items = Array.isArray(answer.items) ? (answer.items as ChannelItem[]) : [];
  const channels: PlatformAccount[] = [];
  for (const item of items) {
    const id = optionalString(item.id);
    if (!id) continue;
    const title = optionalString(item.snippet?.title) ?? id;
    const customUrl = optionalString(item.snippet?.customUrl)?.replace(/^@/, '');
    const thumbs = item.snippet?.thumbnails ?? {};
    channels.push({
      platformUserId: id,
      handle: customUrl ?? title,
      displayName: title,
      profileUrl: customUrl
        ? `https://www.youtube.com/@${encodeURIComponent(customUrl)}`
        : `https://www.youtube.com/channel/${id}`,
      profileImageUrl: optionalString(thumbs.default?.url ?? thumbs.medium?.url ?? thumbs.high?.url) ?? null,
      credentials: {
        platformUserId: id,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: tokens.expiresAt,
      },
    });
  }
  return channels;
}
