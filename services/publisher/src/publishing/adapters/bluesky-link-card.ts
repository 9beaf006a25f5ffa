import type { PostWarning } from '@postbus/contracts';
import {
  BLUESKY_PLATFORM,
  LinkPreviewUnavailable,
  isPlatformError,
  linkCardUri,
  readLinkPreview,
  uploadBlueskyBlob,
  type BlueskyApiOptions,
  type BlueskyPostRecord,
} from '@postbus/platforms';
import type { AdapterConfig } from './adapter-config';
import { metaFor } from './adapter-config';
import type { PublishContext } from './platform-adapter';

export type LinkCard = NonNullable<BlueskyPostRecord['external']>;

/**
 * The post's link card (https://docs.bsky.app/docs/advanced-guides/posts#website-card-embeds):
 * the page named by platformMeta.bluesky.linkCard, else the text's first link when the post has no
 * media, read through @postbus/net; its image uploaded as the thumb. A page that cannot be read
 * leaves the post without a card, an image that cannot be used leaves the card without a thumb:
 * each with a warning, never a failed post.
 */
export async function linkCardFor(
  cfg: AdapterConfig,
  ctx: PublishContext,
  api: BlueskyApiOptions,
  hasMedia: boolean,
): Promise<{ card: LinkCard | null; warnings: PostWarning[] }> {
  const meta = metaFor(ctx.job.platformMeta, BLUESKY_PLATFORM);
  const uri = linkCardUri(ctx.job.caption, meta.linkCard, hasMedia);
  if (!uri) return { card: null, warnings: [] };
  let preview;
  try {
    preview = await readLinkPreview(uri, { access: cfg.mediaAccess, timeoutMs: cfg.requestTimeoutMs });
  } catch (err) {
    if (!(err instanceof LinkPreviewUnavailable)) throw err;
    return {
      card: null,
      warnings: [{ code: 'bluesky_link_card_skipped', message: `Posted without a link card: ${err.message}.` }],
    };
  }
  const card: LinkCard = { uri, title: preview.title, description: preview.description };
  if (!preview.image) return { card, warnings: preview.imageSkipped ? [thumbSkipped(preview.imageSkipped)] : [] };
  try {
    // https://docs.bsky.app/docs/api/com-atproto-repo-upload-blob
    const thumb = await uploadBlueskyBlob(api, preview.image.bytes, preview.image.contentType);
    return { card: { ...card, thumb }, warnings: [] };
  } catch (err) {
    // A refused image (a passing failure is retried like any call) costs the card its thumb, not the post.
    if (!isPlatformError(err) || err.transient || err.tokenRejected) throw err;
    return { card, warnings: [thumbSkipped(`Bluesky refused the image (${err.message})`)] };
  }
}

function thumbSkipped(reason: string): PostWarning {
  return {
    code: 'bluesky_link_card_thumb_skipped',
    message: `The link card was posted without the page's image: ${reason}.`,
  };
}
