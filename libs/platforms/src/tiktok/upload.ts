import { parseJson } from '../meta/graph-request';
import { readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import { fetchStreamed, type UploadDeadlines } from '../media/media-source';
import { TIKTOK_ANSWER_MAX_BYTES } from './api';
import { tiktokErrorFromResponse, tiktokNetworkError } from './errors';

/**
 * `PUT {upload_url}` of one chunk, `Content-Range: bytes first-last/total`, body streamed.
 * TikTok answers 206 while chunks are missing and 201 once the file is complete.
 */
export async function putTikTokChunk(
  upload: {
    uploadUrl: string;
    first: number;
    last: number;
    total: number;
    contentType: string;
    body: ReadableStream<Uint8Array>;
    fetchImpl?: typeof fetch;
  } & UploadDeadlines,
): Promise<'partial' | 'complete'> {
  let res: Response;
  let answer: BoundedAnswer;
  try {
    res = await fetchStreamed(
      upload.fetchImpl ?? fetch,
      upload.uploadUrl,
      {
        method: 'PUT',
        headers: {
          'content-type': upload.contentType,
          'content-length': String(upload.last - upload.first + 1),
          'content-range': `bytes ${upload.first}-${upload.last}/${upload.total}`,
        },
        body: upload.body,
      },
      upload,
    );
    // Only an error's body is read, for its message: a long one is cut.
    answer = await readBoundedAnswer(res, TIKTOK_ANSWER_MAX_BYTES);
  } catch (cause) {
    const name = (cause as { name?: string }).name;
    if ((cause as { platform?: unknown }).platform) throw cause;
    throw tiktokNetworkError(name === 'TimeoutError' || name === 'AbortError', true, cause);
  }
  const text = answer.text;
  if (res.status === 201 || (res.status === 200 && upload.last + 1 === upload.total)) return 'complete';
  if (res.status === 206 || res.status === 200) return 'partial';
  throw tiktokErrorFromResponse(res.status, res.headers, parseJson(text) ?? text);
}

/** TikTok accepts MP4, MOV and WebM; anything else is labelled MP4 and left to TikTok to judge. */
export function tiktokVideoContentType(contentType: string): string {
  return ['video/mp4', 'video/quicktime', 'video/webm'].includes(contentType) ? contentType : 'video/mp4';
}
