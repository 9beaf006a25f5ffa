import { AppError, MEDIA_MAX_BYTES, type MediaImported, type Principal } from '@postbus/contracts';
import { isNetError } from '@postbus/net';
import { looksLikeHtml } from '../ingest/media-types';
import { stageObject } from '../ingest/stage-object';
import { linkFailure, type Download } from '../link-import/download-link';
import { assertNotSharePage, webPageError } from '../link-import/share-pages';
import { toMediaAsset } from './media-asset';
import type { MediaPorts } from './media-ports';
import { recordMedia } from './record-media.use-case';
import { assertRoomLeft, getUploadAllowance, storageQuotaExceeded } from './upload-allowance';

export interface ImportPorts extends MediaPorts {
  /** Opens the link safely (pinned DNS, checked redirects, time limits); every URL goes through checkUrl first. */
  download(url: URL, checkUrl: (url: URL) => void): Promise<Download>;
}

const HTML_TYPES = /^\s*(text\/html|application\/xhtml\+xml)\b/i;

/** The link as the account's dedupe key: parsed, without its fragment. */
export function normaliseLink(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError('validation_error', 'url: not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AppError('validation_error', 'url: only http and https links can be imported.');
  url.hash = '';
  return url;
}

/**
 * Downloads a direct file link into the account's library. The same link again answers the
 * media it made (nothing downloaded while its bytes are stored); a share page or a web page is
 * refused with instructions.
 */
export async function importFromUrl(
  ports: ImportPorts,
  principal: Principal,
  rawUrl: string,
): Promise<MediaImported & { deduplicated: boolean }> {
  const url = normaliseLink(rawUrl);
  assertNotSharePage(url);
  const allowance = await getUploadAllowance(ports, principal);
  const known = await ports.media.findReadyByLink(ports.media.ds, principal.accountId, url.href);
  // A link whose stored bytes were lost is downloaded again (recordMedia restores the media).
  if (known && (await ports.store.exists(known.storageKey))) return { ...answer(ports, known), deduplicated: true };
  assertRoomLeft(allowance);

  const download = await ports.download(url, assertNotSharePage);
  const staged = await (async () => {
    try {
      if (download.contentType && HTML_TYPES.test(download.contentType)) throw webPageError(download.chain);
      if (download.contentLength !== undefined && download.contentLength > MEDIA_MAX_BYTES) {
        throw new AppError('file_too_large', `The linked file is larger than ${MEDIA_MAX_BYTES / 1024 / 1024} MB.`, {
          maxBytes: MEDIA_MAX_BYTES,
        });
      }
      if (download.contentLength !== undefined && download.contentLength > allowance.remainingBytes)
        throw storageQuotaExceeded(allowance.remainingBytes);
      return await stageObject(ports.store, download.body, {
        maxBytes: MEDIA_MAX_BYTES,
        quotaBytes: allowance.remainingBytes,
        onUnknownType: (head) =>
          looksLikeHtml(head)
            ? webPageError(download.chain)
            : new AppError(
                'unsupported_media_type',
                'The linked file is not an image or video of an accepted type (JPEG, PNG, WebP, GIF, MP4, MOV, WebM).',
              ),
      });
    } catch (err) {
      download.body.destroy();
      if (err instanceof AppError) throw err;
      // The body failed: a time limit (a NetError) or the connection breaking off.
      const broken = download.body.errored ?? err;
      throw isNetError(broken)
        ? linkFailure(broken, url)
        : new AppError(
            'validation_error',
            `The link could not be downloaded from ${url.host}: the connection broke off.`,
          );
    }
  })();
  const filename = lastSegment(download.chain[download.chain.length - 1]);
  const { media, created } = await recordMedia(ports, principal, staged, {
    origin: 'url',
    sourceUrl: url.href,
    filename,
    quotaBytes: allowance.quotaBytes,
  });
  return { ...answer(ports, media), deduplicated: !created };
}

function answer(ports: MediaPorts, media: Parameters<typeof toMediaAsset>[0]): MediaImported {
  const asset = toMediaAsset(media, ports.signer, ports.publicBaseUrl);
  return {
    success: true,
    mediaId: asset.mediaId,
    url: asset.url,
    contentType: asset.contentType,
    sizeBytes: asset.sizeBytes,
  };
}

function lastSegment(url: URL): string | null {
  const segment = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment).slice(0, 255) || null;
  } catch {
    return segment.slice(0, 255) || null;
  }
}
