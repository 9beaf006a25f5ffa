import { isPlatformError } from '../errors';
import { readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import { parseJson } from '../meta/graph-request';
import { fetchStreamed } from '../media/media-source';
import { YOUTUBE_ANSWER_MAX_BYTES, youtubeErrorFromResponse, youtubeNetworkError } from './errors';
import type { YouTubeApiOptions } from './upload';

/** `POST /thumbnails/set?videoId=` with the image bytes streamed as the body. */
export async function setYouTubeThumbnail(
  api: YouTubeApiOptions,
  thumbnail: { videoId: string; size: number; contentType: string; body: ReadableStream<Uint8Array> },
): Promise<void> {
  const url = `${api.uploadBaseUrl.replace(/\/+$/, '')}/thumbnails/set?videoId=${encodeURIComponent(thumbnail.videoId)}`;
  let res: Response;
  let answer: BoundedAnswer;
  try {
    res = await fetchStreamed(
      api.fetchImpl ?? fetch,
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${api.accessToken}`,
          'content-type': ['image/jpeg', 'image/png'].includes(thumbnail.contentType)
            ? thumbnail.contentType
            : 'application/octet-stream',
          'content-length': String(thumbnail.size),
        },
        body: thumbnail.body,
      },
      { timeoutMs: 60_000, answerTimeoutMs: api.timeoutMs },
    );
    // Only an error's body is read, for its message: a long one is cut.
    answer = await readBoundedAnswer(res, YOUTUBE_ANSWER_MAX_BYTES);
  } catch (cause) {
    if (isPlatformError(cause)) throw cause; // the image could not be read
    const name = (cause as { name?: string }).name;
    throw youtubeNetworkError(name === 'TimeoutError' || name === 'AbortError', cause);
  }
  if (res.ok) return;
  throw youtubeErrorFromResponse(res.status, res.headers, parseJson(answer.text) ?? answer.text);
}
