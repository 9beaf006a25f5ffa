import { PlatformError, isPlatformError } from '../errors';
import { mayHaveGoneThrough } from '../instagram/publish';
import { answerTooLarge, readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import { GRAPH_ANSWER_MAX_BYTES, parseJson } from '../meta/graph-request';
import { fetchStreamed, type UploadDeadlines } from '../media/media-source';
import { graphString } from '../meta/graph-api';
import { callFacebook, type FacebookApiOptions } from './api';
import { facebookErrorFromResponse, facebookNetworkError } from './errors';

type PageApi = FacebookApiOptions & { pageId: string };

/** Step 1: `POST /{page-id}/video_reels upload_phase=start` → the video id and where its bytes go. */
export async function startFacebookReel(api: PageApi): Promise<{ videoId: string; uploadUrl: string }> {
  const body = await callFacebook(api, 'POST', [api.pageId, 'video_reels'], { form: { upload_phase: 'start' } });
  const videoId = graphString(body, 'video_id');
  const uploadUrl = graphString(body, 'upload_url');
  if (!videoId || !uploadUrl) {
    throw new PlatformError(
      'Facebook answered the start of a reel upload without a video id; publishing will be tried again.',
      {
        platform: 'facebook',
        transient: true,
        code: 'invalid_response',
      },
    );
  }
  return { videoId, uploadUrl };
}

/**
 * Step 2: `POST {upload_url}` (rupload) with `Authorization: OAuth`, `offset`, `file_size` and
 * the bytes from `offset` to the end, streamed.
 */
export async function uploadFacebookReel(
  api: FacebookApiOptions,
  upload: { uploadUrl: string; fileSize: number; offset: number; body: ReadableStream<Uint8Array> } & UploadDeadlines,
): Promise<void> {
  let res: Response;
  let answer: BoundedAnswer;
  try {
    res = await fetchStreamed(
      api.fetchImpl ?? fetch,
      upload.uploadUrl,
      {
        method: 'POST',
        headers: {
          authorization: `OAuth ${api.accessToken}`,
          offset: String(upload.offset),
          file_size: String(upload.fileSize),
          'content-type': 'application/octet-stream',
          'content-length': String(upload.fileSize - upload.offset),
        },
        body: upload.body,
      },
      upload,
    );
    answer = await readBoundedAnswer(res, GRAPH_ANSWER_MAX_BYTES);
  } catch (cause) {
    if (isPlatformError(cause)) throw cause;
    const name = (cause as { name?: string }).name;
    throw facebookNetworkError({
      timedOut: name === 'TimeoutError' || name === 'AbortError',
      maybeDelivered: true,
      cause,
    });
  }
  // rupload answers `{"success":true}`: one too long to read confirms nothing, like any unreadable 2xx (not transient).
  if (res.ok && answer.cut)
    throw answerTooLarge('facebook', 'the reel upload', GRAPH_ANSWER_MAX_BYTES, { status: res.status });
  const text = answer.text;
  const parsed = parseJson(text);
  if (res.ok && parsed && typeof parsed === 'object' && (parsed as { success?: unknown }).success === true) return;
  throw facebookErrorFromResponse({ status: res.status, headers: res.headers, body: parsed ?? text });
}

export interface FacebookVideoStatus {
  /** upload_complete | processing | ready | error (or another value Facebook adds). */
  videoStatus: string;
  processing: string | null;
  publishing: string | null;
  publishStatus: string | null;
  /** Bytes rupload holds (`uploading_phase.bytes_transferred`): where a resumed upload continues. */
  bytesTransferred: number;
}

/** `GET /{video-id}?fields=status`. */
export async function getFacebookVideoStatus(api: FacebookApiOptions, videoId: string): Promise<FacebookVideoStatus> {
  const body = await callFacebook(api, 'GET', [videoId], { query: { fields: 'status' } });
  const status = (body.status ?? {}) as Record<string, unknown>;
  const phase = (name: string) => (status[name] ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    videoStatus: str(status.video_status) ?? 'unknown',
    processing: str(phase('processing_phase').status),
    publishing: str(phase('publishing_phase').status),
    publishStatus: str(phase('publishing_phase').publish_status),
    bytesTransferred: Number(phase('uploading_phase').bytes_transferred) || 0,
  };
}

/**
 * Step 3: `POST /{page-id}/video_reels upload_phase=finish video_state=PUBLISHED`: the reel goes live once processed.
 * Follows https://developers.facebook.com/docs/video-api/guides/reels-publishing; the fields go in the
 * form body, where a long caption cannot overflow a URL limit (Graph reads body and query alike).
 */
export async function finishFacebookReel(api: PageApi, reel: { videoId: string; description: string }): Promise<void> {
  let body: Record<string, unknown>;
  try {
    body = await callFacebook(api, 'POST', [api.pageId, 'video_reels'], {
      form: {
        upload_phase: 'finish',
        video_id: reel.videoId,
        video_state: 'PUBLISHED',
        description: reel.description || undefined,
      },
    });
  } catch (err) {
    if (isPlatformError(err)) throw err.with({ outcomeUnknown: mayHaveGoneThrough(err) });
    throw err;
  }
  if (body.success !== true) {
    throw new PlatformError('Facebook did not confirm publishing the reel; its status will be checked.', {
      platform: 'facebook',
      transient: true,
      code: 'invalid_response',
      outcomeUnknown: true,
    });
  }
}

export function facebookReelPermalink(videoId: string): string {
  return `https://www.facebook.com/reel/${videoId}`;
}
