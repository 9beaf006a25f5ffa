import { PlatformError, isPlatformError } from '../errors';
import { callTikTok, type TikTokApiOptions } from './api';

export type TikTokVideoSource =
  | { source: 'FILE_UPLOAD'; videoSize: number; chunkSize: number; totalChunkCount: number }
  | { source: 'PULL_FROM_URL'; videoUrl: string };

/** How a file is cut for FILE_UPLOAD: `floor(size / chunk)` chunks, the remainder riding in the last; a small file goes whole. */
export function tiktokChunkPlan(
  videoSize: number,
  preferredChunkBytes: number,
): { chunkSize: number; totalChunkCount: number } {
  if (videoSize <= preferredChunkBytes) return { chunkSize: videoSize, totalChunkCount: 1 };
  return { chunkSize: preferredChunkBytes, totalChunkCount: Math.floor(videoSize / preferredChunkBytes) };
}

/**
 * `POST /v2/post/publish/video/init/`: a direct video post. PULL_FROM_URL starts publishing
 * here (a lost answer leaves the outcome unknown); FILE_UPLOAD answers where to PUT the bytes.
 */
export async function initTikTokVideo(
  api: TikTokApiOptions,
  init: { postInfo: Record<string, unknown>; source: TikTokVideoSource },
): Promise<{ publishId: string; uploadUrl: string | null }> {
  const source_info =
    init.source.source === 'FILE_UPLOAD'
      ? {
          source: 'FILE_UPLOAD',
          video_size: init.source.videoSize,
          chunk_size: init.source.chunkSize,
          total_chunk_count: init.source.totalChunkCount,
        }
      : { source: 'PULL_FROM_URL', video_url: init.source.videoUrl };
  const data = await startingPublish(init.source.source === 'PULL_FROM_URL', () =>
    callTikTok(api, '/v2/post/publish/video/init/', { post_info: init.postInfo, source_info }),
  );
  const publishId = requirePublishId(data);
  const uploadUrl = typeof data.upload_url === 'string' && data.upload_url ? data.upload_url : null;
  if (init.source.source === 'FILE_UPLOAD' && !uploadUrl) {
    throw new PlatformError('TikTok answered the upload start without an upload URL; publishing will be tried again.', {
      platform: 'tiktok',
      transient: true,
      code: 'invalid_response',
    });
  }
  return { publishId, uploadUrl };
}

/**
 * `POST /v2/post/publish/content/init/`: a direct photo post pulled from verified URLs (JPEG or WebP); publishing starts here.
 * https://developers.tiktok.com/doc/content-posting-api-reference-photo-post
 */
export async function initTikTokPhoto(
  api: TikTokApiOptions,
  init: { postInfo: Record<string, unknown>; photoUrls: string[]; coverIndex?: number },
): Promise<string> {
  const data = await startingPublish(true, () =>
    callTikTok(api, '/v2/post/publish/content/init/', {
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: init.postInfo,
      source_info: { source: 'PULL_FROM_URL', photo_images: init.photoUrls, photo_cover_index: init.coverIndex ?? 0 },
    }),
  );
  return requirePublishId(data);
}

/** A call that starts the publish: without its answer there is no publish_id to ask about, so the outcome is unknown. */
async function startingPublish<T>(publishes: boolean, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (
      publishes &&
      isPlatformError(err) &&
      (err.code === 'timeout' || err.code === 'network_error' || (err.status ?? 0) >= 500)
    ) {
      throw err.with({ outcomeUnknown: true });
    }
    throw err;
  }
}

function requirePublishId(data: Record<string, unknown>): string {
  if (typeof data.publish_id === 'string' && data.publish_id) return data.publish_id;
  throw new PlatformError(
    'TikTok accepted the post but did not answer its publish id; check the TikTok account before publishing again.',
    {
      platform: 'tiktok',
      transient: true,
      code: 'invalid_response',
      outcomeUnknown: true,
    },
  );
}
