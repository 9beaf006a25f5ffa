import { AppError, type MediaAsset, type Principal } from '@postbus/contracts';
import type { PostsPorts } from './posts.ports';
import type { PostMediaItem } from './tiktok-photos.rules';

/** The ready asset a mediaId names (its serve URL and detected type); missing, deleted, unready or another account's media is media_not_found. */
export async function resolveReadyMedia(
  ports: Pick<PostsPorts, 'resolveMedia'>,
  principal: Principal,
  mediaId: string,
): Promise<MediaAsset> {
  const notFound = () =>
    new AppError(
      'media_not_found',
      `No ready media ${mediaId} in this account; upload it with POST /api/v1/media or /api/v1/media/from-url.`,
    );
  try {
    const asset = await ports.resolveMedia(principal, mediaId);
    if (asset.status !== 'ready') throw notFound();
    return asset;
  } catch (err) {
    if (err instanceof AppError && (err.code === 'not_found' || err.code === 'media_not_found')) throw notFound();
    throw err;
  }
}

/** The media of a post: the resolved mediaId first, then the given URLs; each with the field it came from and, for the mediaId, its detected type. */
export async function postMediaOf(
  ports: Pick<PostsPorts, 'resolveMedia'>,
  principal: Principal,
  p: { mediaId?: string; mediaUrls?: string[] },
): Promise<PostMediaItem[]> {
  const links = (p.mediaUrls ?? []).map((url, i) => ({ field: `mediaUrls[${i}]`, url }));
  if (!p.mediaId) return links;
  const asset = await resolveReadyMedia(ports, principal, p.mediaId);
  return [
    {
      field: 'mediaId',
      url: asset.url,
      contentType: asset.contentType,
      sizeBytes: asset.sizeBytes,
      probe: asset.probe,
    },
    ...links,
  ];
}
