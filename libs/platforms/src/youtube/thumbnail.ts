import { isPlatformError } from '../errors';
import { parseJson } from '../meta/graph-request';
import { fetchStreamed } from '../media/media-source';
import { youtubeErrorFromResponse, youtubeNetworkError } from './errors';
import type { YouTubeApiOptions } from './upload';

/** `POST /thumbnails/set?videoId=` with the image bytes streamed as the body. */
export async function setYouTubeThumbnail(
  api: YouTubeApiOptions,
  thumbnail: { videoId: string; size: number; contentType: string; body: ReadableStream<Uint8Array> },
): Promise<void> {
  const url = `${api.uploadBaseUrl.replace(/\/+$/, '')}/thumbnails/set?videoId=${encodeURIComponent(thumbnail.videoId)}`;
  let res: Response;
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
  } catch (cause) {
    if (isPlatformError(cause)) throw cause; // the image could not be read
    const name = (cause as { name?: string }).name;
    throw youtubeNetworkError(name === 'TimeoutError' || name === 'AbortError', cause);
  }
  const text = await res.text();
  if (res.ok) return;
  throw youtubeErrorFromResponse(res.status, res.headers, parseJson(text) ?? text);
}
