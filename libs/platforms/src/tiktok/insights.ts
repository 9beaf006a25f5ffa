import { countOf, itemNotListed, type PlatformEngagement } from '../insights/engagement';
import { callTikTok, type TikTokApiOptions } from './api';

const FIELDS = 'id,view_count,like_count,comment_count,share_count';

/**
 * `POST /v2/video/query/` (scope video.list) for one public video id: its view, like, comment and share counts.
 * Follows https://developers.tiktok.com/doc/tiktok-api-v2-video-query (ids are strings there; a numeric id is read losslessly too).
 */
export async function getTikTokEngagement(api: TikTokApiOptions, videoId: string): Promise<PlatformEngagement> {
  const data = await callTikTok(api, `/v2/video/query/?fields=${FIELDS}`, { filters: { video_ids: [videoId] } });
  const videos = Array.isArray(data.videos) ? (data.videos as Record<string, unknown>[]) : [];
  const video = videos.find((v) => String(v.id) === videoId);
  if (!video) throw itemNotListed('tiktok', videoId);
  return {
    views: countOf(video.view_count),
    likes: countOf(video.like_count),
    comments: countOf(video.comment_count),
    shares: countOf(video.share_count),
  };
}
