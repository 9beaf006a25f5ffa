import { PlatformError } from '../errors';
import { answerTooLarge, readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import { nodeFetch } from '../http/node-fetch';
import { parseJson } from '../meta/graph-request';
import { fetchStreamed, type UploadDeadlines } from '../media/media-source';
import { YOUTUBE_ANSWER_MAX_BYTES, youtubeErrorFromResponse, youtubeNetworkError } from './errors';
import { readYouTubeVideoStatus, type YouTubeVideoStatus } from './video-status';

/** How to reach the upload API: `uploadBaseUrl` is `https://www.googleapis.com/upload/youtube/v3` or `${sandboxUrl}/youtube/upload/youtube/v3`. */
export interface YouTubeApiOptions {
  uploadBaseUrl: string;
  accessToken: string;
  fetchImpl?: typeof fetch;
  /** Deadline of each non-upload call; default 30 s. */
  timeoutMs?: number;
}

export interface YouTubeVideoMetadata {
  snippet: { title: string; description: string; tags?: string[]; categoryId?: string };
  status: {
    privacyStatus: 'public' | 'private' | 'unlisted';
    publishAt?: string;
    selfDeclaredMadeForKids: boolean;
    containsSyntheticMedia?: boolean;
  };
}

/**
 * Where an upload stands: done (with the video id, and its `status` when the answer carried the
 * resource), or how many bytes YouTube holds, or gone (start over).
 */
export type YouTubeUploadState =
  | { kind: 'complete'; videoId: string; status?: YouTubeVideoStatus }
  | { kind: 'incomplete'; received: number }
  | { kind: 'expired' };

/**
 * Step 1 of videos.insert: `POST ?uploadType=resumable&part=snippet,status` with the metadata
 * and `X-Upload-Content-Length/Type`; the session URI comes back in `Location`.
 */
export async function openYouTubeUpload(
  api: YouTubeApiOptions,
  upload: { metadata: YouTubeVideoMetadata; size: number; contentType: string },
): Promise<string> {
  const url = `${api.uploadBaseUrl.replace(/\/+$/, '')}/videos?uploadType=resumable&part=snippet,status`;
  const json = JSON.stringify(upload.metadata);
  const res = await send(api, url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${api.accessToken}`,
      'content-type': 'application/json; charset=UTF-8',
      'x-upload-content-length': String(upload.size),
      'x-upload-content-type': upload.contentType,
    },
    body: json,
    signal: AbortSignal.timeout(api.timeoutMs ?? 30_000),
  });
  const { text } = await answerOf(res); // the session is in Location: only an error's body is read, cut when long
  const location = res.headers.get('location');
  if (res.ok && location) return new URL(location, url).toString();
  if (res.ok) {
    throw new PlatformError(
      'YouTube opened the upload without saying where to send the video; publishing will be tried again.',
      {
        platform: 'youtube',
        transient: true,
        code: 'invalid_response',
      },
    );
  }
  throw youtubeErrorFromResponse(res.status, res.headers, parseJson(text) ?? text);
}

/**
 * Step 2: one `PUT <session>` of bytes first..last with `Content-Range`. 308 Resume Incomplete
 * answers how much YouTube holds (`Range: bytes=0-N`); 200/201 answers the video.
 */
export async function putYouTubeChunk(
  api: YouTubeApiOptions,
  chunk: {
    sessionUrl: string;
    first: number;
    last: number;
    total: number;
    contentType: string;
    body: ReadableStream<Uint8Array>;
  } & UploadDeadlines,
): Promise<YouTubeUploadState> {
  const res = await send(api, chunk.sessionUrl, (fetchImpl, url) =>
    fetchStreamed(
      fetchImpl,
      url,
      {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${api.accessToken}`,
          'content-type': chunk.contentType,
          'content-length': String(chunk.last - chunk.first + 1),
          'content-range': `bytes ${chunk.first}-${chunk.last}/${chunk.total}`,
        },
        body: chunk.body,
      },
      chunk,
    ),
  );
  return readUploadState(res);
}

/** Status probe: `PUT <session>` with `Content-Range: bytes *\/total` and no body. */
export async function probeYouTubeUpload(
  api: YouTubeApiOptions,
  session: { sessionUrl: string; total: number },
): Promise<YouTubeUploadState> {
  const res = await send(api, session.sessionUrl, {
    method: 'PUT',
    headers: {
      authorization: `Bearer ${api.accessToken}`,
      'content-length': '0',
      'content-range': `bytes */${session.total}`,
    },
    signal: AbortSignal.timeout(api.timeoutMs ?? 30_000),
  });
  return readUploadState(res);
}

export function youtubeWatchUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${videoId}`;
}

async function readUploadState(res: Response): Promise<YouTubeUploadState> {
  const { text, cut } = await answerOf(res);
  if (res.status === 308) {
    const range = /bytes=0-(\d+)/.exec(res.headers.get('range') ?? '');
    return { kind: 'incomplete', received: range ? Number(range[1]) + 1 : 0 };
  }
  if (res.status === 404 || res.status === 410) return { kind: 'expired' };
  // The video may be complete though its resource could not be read: as for one answered without its id, its status is checked.
  if (res.ok && cut)
    throw answerTooLarge('youtube', 'the upload', YOUTUBE_ANSWER_MAX_BYTES, {
      status: res.status,
      transient: true,
      outcomeUnknown: true,
    });
  const parsed = parseJson(text) as { id?: unknown; status?: unknown } | undefined;
  // The finished upload answers the video resource, part=status included (https://developers.google.com/youtube/v3/docs/videos/insert).
  if ((res.status === 200 || res.status === 201) && typeof parsed?.id === 'string') {
    const status = readYouTubeVideoStatus(parsed.status);
    return status ? { kind: 'complete', videoId: parsed.id, status } : { kind: 'complete', videoId: parsed.id };
  }
  if (res.ok) {
    throw new PlatformError('YouTube finished the upload without naming the video; its status will be checked.', {
      platform: 'youtube',
      transient: true,
      code: 'invalid_response',
      outcomeUnknown: true,
    });
  }
  throw youtubeErrorFromResponse(res.status, res.headers, parsed ?? text);
}

/** The answer's body, bounded; a connection that breaks while it is read fails like one that broke before. */
async function answerOf(res: Response): Promise<BoundedAnswer> {
  try {
    return await readBoundedAnswer(res, YOUTUBE_ANSWER_MAX_BYTES);
  } catch (cause) {
    const name = (cause as { name?: string }).name;
    throw youtubeNetworkError(name === 'TimeoutError' || name === 'AbortError', cause);
  }
}

/** A call to the upload API, its network failures mapped; `init` may be a request of its own making (a streamed body). */
async function send(
  api: YouTubeApiOptions,
  url: string,
  init: RequestInit | ((fetchImpl: typeof fetch, url: string) => Promise<Response>),
): Promise<Response> {
  try {
    return typeof init === 'function'
      ? await init(api.fetchImpl ?? fetch, url)
      : await (api.fetchImpl ?? nodeFetch)(url, init);
  } catch (cause) {
    if ((cause as { platform?: unknown }).platform) throw cause;
    const name = (cause as { name?: string }).name;
    throw youtubeNetworkError(name === 'TimeoutError' || name === 'AbortError', cause);
  }
}
