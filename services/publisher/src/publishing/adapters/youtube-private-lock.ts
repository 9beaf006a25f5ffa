import type { PostWarning } from '@postbus/contracts';
import type { YouTubeVideoStatus } from '@postbus/platforms';

export type YouTubePrivacy = 'public' | 'unlisted' | 'private';

/**
 * "All videos uploaded via the videos.insert endpoint from unverified API projects created after
 * 28 July 2020 will be restricted to private viewing mode" until the project passes an audit
 * (https://developers.google.com/youtube/v3/docs/videos/insert).
 */
const WHY = "YouTube keeps videos uploaded through an API project that has not passed YouTube's audit private";
const FIX =
  'have the Google API project audited (YouTube API Services audit and quota extension form), then set YOUTUBE_PROJECT_AUDITED=true';

/**
 * Whether YouTube keeps (or will keep) the video private though it was asked to be public or
 * unlisted: its read-back privacy says so, or the project is known to be unaudited. A video asked
 * private, or whose privacy YouTube did not tell and whose project is audited, has no lock.
 */
export function isPrivateLocked(
  asked: YouTubePrivacy,
  status: YouTubeVideoStatus | null | undefined,
  projectAudited: boolean,
): boolean {
  if (asked === 'private') return false;
  return status?.privacyStatus === 'private' || !projectAudited;
}

/** The post's warning when the video went out private (YOUTUBE_PRIVATE_LOCK=warn). */
export function privateLockWarning(asked: YouTubePrivacy): PostWarning {
  return {
    code: 'youtube_private_lock',
    message: `The video is on YouTube but private, though it was asked to be ${asked}: ${WHY}. Only the channel can see it until ${FIX}.`,
  };
}

/** The failure reason when YOUTUBE_PRIVATE_LOCK=fail: before the upload (project unaudited) or after it (YouTube kept it private). */
export function privateLockReason(asked: YouTubePrivacy, videoId?: string): string {
  const uploaded = videoId
    ? ` The video was uploaded and stays private on the channel (id ${videoId}).`
    : ' Nothing was uploaded.';
  return `The post asks for a ${asked} YouTube video, but ${WHY}, and YOUTUBE_PRIVATE_LOCK=fail refuses to publish it privately.${uploaded} Set privacyStatus to private, or ${FIX}.`;
}
