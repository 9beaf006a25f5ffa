import { PlatformError } from '../errors';
import { callTikTok, type TikTokApiOptions } from './api';

export const TIKTOK_PUBLISH_STATUSES = [
  'PROCESSING_UPLOAD',
  'PROCESSING_DOWNLOAD',
  'SEND_TO_USER_INBOX',
  'PUBLISH_COMPLETE',
  'FAILED',
] as const;
export type TikTokPublishStatus = (typeof TIKTOK_PUBLISH_STATUSES)[number];

export interface TikTokPublishState {
  status: TikTokPublishStatus;
  failReason: string | null;
  /** Public post ids (`publicaly_available_post_id`, misspelled by TikTok); empty until moderation passes, and for private posts. */
  postIds: string[];
  uploadedBytes: number | null;
}

/**
 * `POST /v2/post/publish/status/fetch/ {publish_id}`.
 * Follows https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status (`publicaly_available_post_id`: list<int64>).
 */
export async function fetchTikTokPublishStatus(api: TikTokApiOptions, publishId: string): Promise<TikTokPublishState> {
  const data = await callTikTok(api, '/v2/post/publish/status/fetch/', { publish_id: publishId });
  const status = data.status;
  if (typeof status !== 'string' || !(TIKTOK_PUBLISH_STATUSES as readonly string[]).includes(status)) {
    throw new PlatformError(
      'TikTok answered the status check with a status Postbus does not know; it will be checked again.',
      {
        platform: 'tiktok',
        transient: true,
        code: 'invalid_response',
      },
    );
  }
  // int64 ids beyond 2^53 arrive as exact decimal strings (callTikTok parses losslessly); String() keeps both forms.
  const raw = data.publicaly_available_post_id;
  const ids = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw]).map(String).filter(Boolean);
  const uploaded = Number(data.uploaded_bytes);
  return {
    status: status as TikTokPublishStatus,
    failReason: typeof data.fail_reason === 'string' && data.fail_reason ? data.fail_reason : null,
    postIds: ids,
    uploadedBytes: Number.isFinite(uploaded) ? uploaded : null,
  };
}

export function tiktokPermalink(username: string, postId: string): string {
  return `https://www.tiktok.com/@${username}/video/${postId}`;
}
