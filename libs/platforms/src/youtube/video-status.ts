import { PlatformError } from '../errors';
import { listYouTubeVideo, type YouTubeDataApiOptions } from './insights';

const platform = 'youtube' as const;

/** A video's `status` as far as publishing cares (https://developers.google.com/youtube/v3/docs/videos#status). */
export interface YouTubeVideoStatus {
  /** uploaded (processing), processed, failed, rejected or deleted. */
  uploadStatus: string | null;
  privacyStatus: string | null;
  failureReason: string | null;
  rejectionReason: string | null;
}

/** The `status` member of a video resource, or undefined when it has none (an answer without part=status). */
export function readYouTubeVideoStatus(raw: unknown): YouTubeVideoStatus | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const s = raw as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    uploadStatus: text(s.uploadStatus),
    privacyStatus: text(s.privacyStatus),
    failureReason: text(s.failureReason),
    rejectionReason: text(s.rejectionReason),
  };
}

/**
 * `GET /videos?part=status&id=…` (https://developers.google.com/youtube/v3/docs/videos/list): the
 * video's status as its owner sees it; null when YouTube does not list it.
 */
export async function getYouTubeVideoStatus(
  api: YouTubeDataApiOptions,
  videoId: string,
): Promise<YouTubeVideoStatus | null> {
  const item = await listYouTubeVideo(api, 'status', videoId);
  return item ? (readYouTubeVideoStatus(item.status) ?? null) : null;
}

/** What `rejectionReason` means (videos#status.rejectionReason), as the end of "YouTube rejected the video …". */
const REJECTIONS: Record<string, string> = {
  claim: 'because of a copyright claim',
  copyright: 'for copyright infringement',
  duplicate: 'as a duplicate of a video already on the channel',
  inappropriate: 'as inappropriate',
  legal: 'for a legal reason',
  length: 'because it is too long',
  termsOfUse: 'for breaking the Terms of Service',
  trademark: 'for trademark infringement',
  uploaderAccountClosed: "because the channel's account is closed",
  uploaderAccountSuspended: "because the channel's account is suspended",
};

/** What `failureReason` means (videos#status.failureReason). */
const FAILURES: Record<string, string> = {
  codec: 'its codec is not supported; re-encode it as H.264 MP4',
  conversion: 'YouTube could not convert it; re-encode it as H.264 MP4',
  emptyFile: 'the file is empty; check that the media link serves the video',
  invalidFile: 'the file is not a video YouTube can read; re-encode it as H.264 MP4',
  tooSmall: 'the file is too small to be a video',
  uploadAborted: 'the upload was aborted',
};

/** An upload YouTube rejected, failed or deleted, as a permanent PlatformError naming the reason; undefined when the video stands. */
export function youtubeUploadFailure(status: YouTubeVideoStatus, videoId: string): PlatformError | undefined {
  const { uploadStatus } = status;
  if (uploadStatus !== 'rejected' && uploadStatus !== 'failed' && uploadStatus !== 'deleted') return undefined;
  const why = status.rejectionReason ?? status.failureReason;
  const reason =
    uploadStatus === 'rejected'
      ? `YouTube rejected the video ${(why && REJECTIONS[why]) ?? `(${why ?? 'no reason given'})`}; it was not published.`
      : uploadStatus === 'failed'
        ? `YouTube could not process the video: ${(why && FAILURES[why]) ?? why ?? 'no reason given'}; it was not published.`
        : 'The video was deleted on YouTube right after its upload; it was not published.';
  return new PlatformError(reason, {
    platform,
    transient: false,
    code: `upload_${uploadStatus}${why ? `_${why}` : ''}`,
    containerId: videoId,
  });
}
