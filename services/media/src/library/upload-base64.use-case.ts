import { Readable } from 'node:stream';
import { AppError, MEDIA_MAX_BYTES, type MediaUploaded, type Principal } from '@postbus/contracts';
import { stageObject } from '../ingest/stage-object';
import type { MediaPorts } from './media-ports';
import { uploadMedia } from './upload-media.use-case';

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The agent's upload: base64 content, with the limits and checks of a multipart upload. */
export async function uploadBase64(
  ports: MediaPorts,
  principal: Principal,
  input: { content: string; filename?: string },
): Promise<MediaUploaded> {
  const content = input.content.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  // Refused before decoding: the decoded size is known from the length.
  if (Math.floor((content.length * 3) / 4) - (content.match(/=+$/)?.[0].length ?? 0) > MEDIA_MAX_BYTES) {
    throw new AppError('file_too_large', `The file is larger than ${MEDIA_MAX_BYTES / 1024 / 1024} MB.`, {
      maxBytes: MEDIA_MAX_BYTES,
    });
  }
  if (!BASE64.test(content)) throw new AppError('validation_error', 'content: not base64.');
  return uploadMedia(ports, principal, async (limits) => {
    const staged = await stageObject(ports.store, Readable.from(decodedSlices(content), { objectMode: false }), limits);
    return { staged, filename: input.filename ?? null };
  });
}

/**
 * The content decoded one 12 kB slice at a time, as the stream asks for it (every 4 characters
 * decode on their own): the type is decided on the first slice, and a refused file is never
 * decoded whole.
 */
function* decodedSlices(content: string, charsPerSlice = 16 * 1024): Generator<Buffer> {
  for (let at = 0; at < content.length; at += charsPerSlice)
    yield Buffer.from(content.slice(at, at + charsPerSlice), 'base64');
}
