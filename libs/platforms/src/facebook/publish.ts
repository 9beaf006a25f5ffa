import { randomUUID } from 'node:crypto';
import { PlatformError, isPlatformError } from '../errors';
import { mayHaveGoneThrough } from '../instagram/publish';
import { graphString } from '../meta/graph-api';
import { callFacebook, type FacebookApiOptions } from './api';

type PageApi = FacebookApiOptions & { pageId: string };

export interface FacebookPublished {
  platformPostId: string;
  permalink: string | null;
}

/** `POST /{page-id}/feed`: a text post, with a link preview when `link` is given, or with attached unpublished photos. */
export async function publishFacebookFeed(
  api: PageApi,
  post: { message: string; link?: string; attachedPhotoIds?: string[] },
): Promise<FacebookPublished> {
  const form: Record<string, string | undefined> = { message: post.message || undefined, link: post.link };
  post.attachedPhotoIds?.forEach((id, i) => (form[`attached_media[${i}]`] = JSON.stringify({ media_fbid: id })));
  const body = await publishing(() => callFacebook(api, 'POST', [api.pageId, 'feed'], { form }));
  const id = requireId(body, 'id');
  return { platformPostId: id, permalink: await getFacebookPermalink(api, id) };
}

/** `POST /{page-id}/photos` with `url=`: one photo post, published. */
export async function publishFacebookPhoto(
  api: PageApi,
  photo: { url: string; caption: string },
): Promise<FacebookPublished> {
  const body = await publishing(() =>
    callFacebook(api, 'POST', [api.pageId, 'photos'], {
      form: { url: photo.url, caption: photo.caption || undefined },
    }),
  );
  const id = graphString(body, 'post_id') ?? requireId(body, 'id');
  return { platformPostId: id, permalink: await getFacebookPermalink(api, id) };
}

/** `POST /{page-id}/photos?published=false`: a photo to attach to a multi-photo feed post; nothing is visible yet. */
export async function uploadFacebookPhoto(api: PageApi, url: string): Promise<string> {
  const body = await callFacebook(api, 'POST', [api.pageId, 'photos'], { form: { url, published: 'false' } });
  return requireId(body, 'id');
}

/** A video's custom thumbnail: the image's bytes, sent as the `thumb` file. */
export interface FacebookThumb {
  bytes: Uint8Array;
  contentType: string;
}

/**
 * `POST /{page-id}/videos` with `file_url=`: a Page video, published once Facebook has processed it.
 * With a `thumb` (https://developers.facebook.com/docs/graph-api/reference/page/videos/#Creating:
 * "video thumbnail raw data to be uploaded and associated with a video") the call is multipart,
 * the image one file part of it.
 */
export async function publishFacebookVideo(
  api: PageApi,
  video: { fileUrl: string; description: string; title?: string; thumb?: FacebookThumb },
): Promise<FacebookPublished> {
  const form = {
    file_url: video.fileUrl,
    description: video.description || undefined,
    title: video.title || undefined,
  };
  const params = video.thumb ? { multipart: multipartOf(form, 'thumb', video.thumb) } : { form };
  // On graph.facebook.com: "graph-video.facebook.com ... has been deprecated" (https://developers.facebook.com/docs/video-api/overview).
  const body = await publishing(() => callFacebook(api, 'POST', [api.pageId, 'videos'], params));
  const id = requireId(body, 'id');
  return {
    platformPostId: id,
    permalink: (await getFacebookPermalink(api, id)) ?? `https://www.facebook.com/${api.pageId}/videos/${id}`,
  };
}

/** `GET /{object-id}?fields=permalink_url`: absolute URL, or null when it cannot be read (the post is live regardless). */
export async function getFacebookPermalink(api: FacebookApiOptions, objectId: string): Promise<string | null> {
  try {
    const body = await callFacebook(api, 'GET', [objectId], { query: { fields: 'permalink_url' } });
    const link = graphString(body, 'permalink_url');
    if (!link) return null;
    return link.startsWith('/') ? `https://www.facebook.com${link}` : link;
  } catch {
    return null;
  }
}

/** Text parameters and one file as a `multipart/form-data` body. */
function multipartOf(
  fields: Record<string, string | undefined>,
  name: string,
  file: FacebookThumb,
): { body: Buffer; contentType: string } {
  const boundary = `postbus-${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined)
      parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`));
  const extension = file.contentType === 'image/png' ? 'png' : 'jpg';
  parts.push(
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${name}.${extension}"\r\ncontent-type: ${file.contentType}\r\n\r\n`,
    ),
    Buffer.from(file.bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A call that makes the post visible: an answer lost on the way leaves the outcome unknown. */
async function publishing<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isPlatformError(err) && mayHaveGoneThrough(err)) throw err.with({ outcomeUnknown: true });
    throw err;
  }
}

function requireId(body: Record<string, unknown>, field: string): string {
  const id = graphString(body, field);
  if (!id) {
    throw new PlatformError(
      'Facebook accepted the call but did not say which object it created; check the Page before publishing again.',
      {
        platform: 'facebook',
        transient: true,
        code: 'invalid_response',
        outcomeUnknown: true,
      },
    );
  }
  return id;
}
