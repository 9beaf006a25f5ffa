import type { SandboxState } from '../state';
import { TikTokError, invalidParam } from './http';
import { commit } from './posts';

/**
 * `PUT {upload_url}` of one FILE_UPLOAD chunk. Chunks arrive in order: `Content-Range` must start
 * where the previous one ended and span exactly this chunk; 206 while some are missing, 201 at the end.
 */
export async function receiveChunk(
  state: SandboxState,
  query: { uploadId?: string; uploadToken?: string },
  headers: { contentRange?: string; contentType?: string },
  body: AsyncIterable<Buffer>,
): Promise<{ status: 201 | 206; read: number }> {
  const publish = state.tiktok.byUploadId.get(query.uploadId ?? '');
  if (!publish || publish.uploadToken !== query.uploadToken)
    throw new TikTokError(404, 'invalid_param', 'The upload URL is not valid or has expired.');
  if (publish.committedAt !== null) throw invalidParam('The upload is already complete.');
  if (!['video/mp4', 'video/quicktime', 'video/webm'].includes((headers.contentType ?? '').split(';')[0])) {
    throw invalidParam('Content-Type must be video/mp4, video/quicktime or video/webm.');
  }
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(headers.contentRange ?? '');
  if (!range) throw invalidParam('Content-Range must be "bytes <first>-<last>/<total>".');
  const [first, last, total] = range.slice(1).map(Number);
  const index = publish.chunksReceived;
  const expected =
    index < publish.totalChunks - 1
      ? publish.chunkSize
      : publish.videoSize - publish.chunkSize * (publish.totalChunks - 1);
  if (total !== publish.videoSize)
    throw invalidParam(`Content-Range total must be the video_size ${publish.videoSize}.`);
  if (first !== publish.bytesReceived || last - first + 1 !== expected) {
    throw invalidParam(
      `Chunk ${index + 1} must be bytes ${publish.bytesReceived}-${publish.bytesReceived + expected - 1}.`,
    );
  }
  let read = 0;
  for await (const piece of body) read += piece.length;
  if (read !== expected) throw invalidParam(`The chunk body has ${read} bytes; Content-Range announced ${expected}.`);
  publish.bytesReceived += read;
  publish.chunksReceived += 1;
  if (publish.chunksReceived < publish.totalChunks) return { status: 206, read };
  const user = state.users.get(publish.userId);
  if (user) commit(state, user, publish);
  return { status: 201, read };
}
