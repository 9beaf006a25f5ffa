import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream/promises';

/** How long media may stay silent on a transfer before it is abandoned (the job is retried). */
const IDLE_TIMEOUT_MS = 120_000;

/**
 * Copies the source from media's listener to a private file. node:http with stream.pipeline
 * keeps the copy to a few socket buffers whatever the file's size (fetch's web streams read
 * ahead of the disk and hold tens of megabytes).
 */
export async function downloadSource(url: URL, file: string): Promise<void> {
  const res = await send(url, { method: 'GET' });
  if (res.statusCode !== 200) {
    res.resume();
    throw new Error(`media answered ${res.statusCode} for the source`);
  }
  await pipeline(res, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
}

/** Streams the made file to the signed upload path; throws with media's answer when it is refused. */
export async function uploadRendition(file: string, url: URL): Promise<void> {
  const { size } = await stat(file);
  const res = await send(
    url,
    { method: 'PUT', headers: { 'content-length': String(size), 'content-type': 'application/octet-stream' } },
    file,
  );
  let text = '';
  for await (const chunk of res) if (text.length < 500) text += String(chunk);
  if (res.statusCode !== 201) throw new Error(`media refused the rendition: ${res.statusCode} ${text.slice(0, 200)}`);
}

function send(
  url: URL,
  opts: { method: string; headers?: Record<string, string> },
  bodyFile?: string,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, opts, resolve);
    req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`media was silent for ${IDLE_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    if (!bodyFile) return void req.end();
    pipeline(createReadStream(bodyFile), req).catch(reject);
  });
}
