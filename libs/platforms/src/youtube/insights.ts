import { countOf, itemNotListed, type PlatformEngagement } from '../insights/engagement';
import { answerTooLarge, readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import { parseJson } from '../meta/graph-request';
import { YOUTUBE_ANSWER_MAX_BYTES, youtubeErrorFromResponse, youtubeNetworkError } from './errors';

/** How to reach the YouTube Data API: `apiUrl` is `https://www.googleapis.com/youtube/v3` or `${sandboxUrl}/youtube/v3`. */
export interface YouTubeDataApiOptions {
  apiUrl: string;
  accessToken: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

/**
 * `GET /videos?part=<part>&id=…` (https://developers.google.com/youtube/v3/docs/videos/list): the
 * listed item for `videoId`, or undefined when YouTube does not list it; errors mapped once.
 */
export async function listYouTubeVideo(
  api: YouTubeDataApiOptions,
  part: 'statistics' | 'status',
  videoId: string,
): Promise<Record<string, unknown> | undefined> {
  const url = `${api.apiUrl.replace(/\/+$/, '')}/videos?part=${part}&id=${encodeURIComponent(videoId)}`;
  let res: Response;
  let answer: BoundedAnswer;
  try {
    res = await (api.fetchImpl ?? fetch)(url, {
      headers: { authorization: `Bearer ${api.accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(api.timeoutMs ?? 30_000),
    });
    answer = await readBoundedAnswer(res, YOUTUBE_ANSWER_MAX_BYTES);
  } catch (cause) {
    const name = (cause as { name?: string }).name;
    throw youtubeNetworkError(name === 'TimeoutError' || name === 'AbortError', cause);
  }
  if (res.ok && answer.cut)
    throw answerTooLarge('youtube', `GET /videos?part=${part}`, YOUTUBE_ANSWER_MAX_BYTES, { status: res.status });
  const body = parseJson(answer.text) as { items?: Record<string, unknown>[] } | undefined;
  if (!res.ok || !body) throw youtubeErrorFromResponse(res.status, res.headers, body ?? answer.text);
  return body.items?.find((i) => i.id === videoId);
}

/** `GET /videos?part=statistics&id=…`: a video's view, like and comment counts (YouTube reports no shares). */
export async function getYouTubeEngagement(api: YouTubeDataApiOptions, videoId: string): Promise<PlatformEngagement> {
  const item = await listYouTubeVideo(api, 'statistics', videoId);
  if (!item) throw itemNotListed('youtube', videoId);
  const s = (item.statistics ?? {}) as Record<string, unknown>;
  return { views: countOf(s.viewCount), likes: countOf(s.likeCount), comments: countOf(s.commentCount), shares: null };
}
