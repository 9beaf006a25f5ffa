import type { MediaAsset, Platform, Principal } from '@postbus/contracts';
import type { RenditionNeed } from './normalize.rules';

/** What one platform's posts carry instead of the stored media. */
export interface PlatformRendition {
  mediaId: string;
  url: string;
  /** Not made yet: the posts wait for it (awaiting_media_id) before they are dispatched. */
  pending: boolean;
}

export type RequestRendition = (principal: Principal, req: { mediaId: string } & RenditionNeed) => Promise<MediaAsset>;

/**
 * Asks media for each platform's rendition of the post's mediaId. Media answers the same
 * rendition for the same bytes and preset, so a post sent again, or another post of the same
 * media for the same platform, waits for the one already being made.
 */
export async function requestRenditions(
  request: RequestRendition,
  principal: Principal,
  mediaId: string,
  needs: Map<Platform, RenditionNeed>,
): Promise<Map<Platform, PlatformRendition>> {
  const answers = await Promise.all(
    [...needs].map(async ([platform, need]) => [platform, await request(principal, { mediaId, ...need })] as const),
  );
  return new Map(
    answers.map(([platform, asset]) => [
      platform,
      { mediaId: asset.mediaId, url: asset.url, pending: asset.status !== 'ready' },
    ]),
  );
}
