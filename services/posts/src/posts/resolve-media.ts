import { AppError, type Principal } from '@postbus/contracts';
import type { PostsPorts } from './posts.ports';

/** A mediaId becomes its serve URL; missing, deleted, unready or another account's media is media_not_found. */
export async function resolveMediaUrl(ports: Pick<PostsPorts, 'resolveMedia'>, principal: Principal, mediaId: string): Promise<string> {
  const notFound = () => new AppError('media_not_found', `No ready media ${mediaId} in this account; upload it with POST /api/v1/media or /api/v1/media/from-url.`);
  try {
    const asset = await ports.resolveMedia(principal, mediaId);
    if (asset.status !== 'ready') throw notFound();
    return asset.url;
  } catch (err) {
    if (err instanceof AppError && (err.code === 'not_found' || err.code === 'media_not_found')) throw notFound();
    throw err;
  }
}

/** The media of a post: the resolved mediaId first, then the given URLs. */
export async function mediaUrlsOf(ports: Pick<PostsPorts, 'resolveMedia'>, principal: Principal, p: { mediaId?: string; mediaUrls?: string[] }): Promise<string[]> {
  const urls = p.mediaUrls ?? [];
  return p.mediaId ? [await resolveMediaUrl(ports, principal, p.mediaId), ...urls] : urls;
}
