import { invalidParameter } from '../meta/graph-error';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import type { FacebookPhoto, FacebookPost } from './store';

/** `POST /{page-id}/feed`: message and/or link, or attached unpublished photos. */
export function createFeedPost(state: SandboxState, page: SandboxUser, params: Record<string, string>): FacebookPost {
  const message = params.message ?? '';
  const link = params.link ?? null;
  const attached = attachedPhotos(state, page, params);
  if (!message.trim() && !link && attached.length === 0)
    throw invalidParameter('The parameter message, link or attached_media is required.');
  if (link && !/^https?:\/\//.test(link)) throw invalidParameter('Param link must be an http or https URL.');
  const postId = `${page.userId}_${state.ids.numeric()}`;
  const post: FacebookPost = {
    id: postId,
    pageId: page.userId,
    message,
    link,
    attachedPhotoIds: attached.map((p) => p.id),
    publishedAt: state.now(),
    permalink: `https://www.facebook.com/${page.userId}/posts/${postId.split('_')[1]}`,
  };
  for (const photo of attached) photo.attachedTo = postId;
  state.facebook.posts.set(postId, post);
  if (params.published !== 'false') {
    state.published.record({
      platform: 'facebook',
      id: postId,
      userId: page.userId,
      handle: page.handle,
      text: message,
      mediaUrls: attached.map((p) => p.url),
      mediaType: attached.length ? 'ALBUM' : link ? 'LINK' : 'STATUS',
      containerId: null,
      permalink: post.permalink,
      createdAt: new Date(post.publishedAt).toISOString(),
      ...(link && { details: { link } }),
    });
  }
  return post;
}

/** `POST /{page-id}/photos` with `url=`: a published photo post, or (published=false) a photo to attach later. */
export function createPhoto(state: SandboxState, page: SandboxUser, params: Record<string, string>): FacebookPhoto {
  const url = params.url;
  if (!url) throw invalidParameter('The parameter url (or source) is required; the sandbox accepts url only.');
  if (!/^https?:\/\//.test(url)) throw invalidParameter('Param url must be an http or https URL.');
  if (/fail-processing/.test(url))
    throw invalidParameter(
      'Invalid parameter: the image could not be downloaded from url.',
      'The photo could not be fetched from its link.',
    );
  const published = params.published !== 'false';
  const photo: FacebookPhoto = {
    id: state.ids.numeric(),
    pageId: page.userId,
    url,
    caption: params.caption ?? params.message ?? '',
    published,
    postId: published ? `${page.userId}_${state.ids.numeric()}` : null,
    attachedTo: null,
  };
  state.facebook.photos.set(photo.id, photo);
  if (published) {
    const permalink = `https://www.facebook.com/photo/?fbid=${photo.id}`;
    state.facebook.posts.set(photo.postId!, {
      id: photo.postId!,
      pageId: page.userId,
      message: photo.caption,
      link: null,
      attachedPhotoIds: [photo.id],
      publishedAt: state.now(),
      permalink,
    });
    state.published.record({
      platform: 'facebook',
      id: photo.postId!,
      userId: page.userId,
      handle: page.handle,
      text: photo.caption,
      mediaUrls: [url],
      mediaType: 'PHOTO',
      containerId: null,
      permalink,
      createdAt: new Date(state.now()).toISOString(),
    });
  }
  return photo;
}

function attachedPhotos(state: SandboxState, page: SandboxUser, params: Record<string, string>): FacebookPhoto[] {
  const entries = Object.entries(params)
    .filter(([key]) => /^attached_media\[\d+\]$/.test(key))
    .sort(([a], [b]) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]));
  if (entries.length > state.facebook.limits.attachedMediaMax)
    throw invalidParameter(`At most ${state.facebook.limits.attachedMediaMax} photos can be attached.`);
  return entries.map(([key, raw]) => {
    let fbid: unknown;
    try {
      fbid = (JSON.parse(raw) as { media_fbid?: unknown }).media_fbid;
    } catch {
      throw invalidParameter(`Param ${key} must be JSON like {"media_fbid":"<id>"}.`);
    }
    const photo = state.facebook.photos.get(String(fbid));
    if (!photo || photo.pageId !== page.userId)
      throw invalidParameter(`Param ${key} names a photo that does not exist.`);
    if (photo.published || photo.attachedTo) throw invalidParameter(`Photo ${photo.id} is already published.`);
    return photo;
  });
}
