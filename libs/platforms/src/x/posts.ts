import { X_IMAGES_MAX, X_TEXT_MAX } from '@postbus/contracts';
import { PlatformError } from '../errors';
import { callX, X_PLATFORM, type XApiOptions } from './api';
import { xTextLength } from './text';

export interface XPostInput {
  text: string;
  mediaIds?: string[];
  /** The post this one answers (the previous part of a reply chain). */
  inReplyTo?: string;
}

export interface XPost {
  id: string;
  text: string;
}

/** Refusals X would answer, found before any call: the weighted length, media counts, an empty post. */
export function assertXPost(input: XPostInput, media: { videos?: number } = {}): void {
  const refuse = (message: string, code: string) =>
    new PlatformError(message, { platform: X_PLATFORM, transient: false, code });
  const length = xTextLength(input.text);
  if (length > X_TEXT_MAX)
    throw refuse(
      `The post is ${length} characters as X counts them (a URL counts 23, an emoji or CJK character 2); X allows ${X_TEXT_MAX}.`,
      'text_too_long',
    );
  const count = input.mediaIds?.length ?? 0;
  if (count > X_IMAGES_MAX)
    throw refuse(`An X post carries at most ${X_IMAGES_MAX} images; this one has ${count}.`, 'too_many_media');
  if ((media.videos ?? 0) > 0 && count > 1)
    throw refuse('An X post carries one video or GIF alone, or up to 4 images.', 'mixed_media');
  if (!input.text.trim() && !count) throw refuse('An X post needs text or media.', 'empty_post');
}

/**
 * Publishes a post: https://docs.x.com/x-api/posts/create-post. X takes no idempotency key: a
 * lost answer is settled with findXPost before anything is sent again.
 */
export async function createXPost(api: XApiOptions, input: XPostInput): Promise<XPost> {
  const { body } = await callX<{ data?: { id?: unknown; text?: unknown } }>(api, {
    method: 'POST',
    path: '/2/tweets',
    json: {
      text: input.text,
      ...(input.mediaIds?.length && { media: { media_ids: input.mediaIds } }),
      ...(input.inReplyTo && { reply: { in_reply_to_tweet_id: input.inReplyTo } }),
    },
    write: true,
  });
  if (typeof body.data?.id !== 'string')
    throw new PlatformError('X answered a post without its id.', {
      platform: X_PLATFORM,
      transient: true,
      code: 'invalid_answer',
      outcomeUnknown: true,
    });
  return { id: body.data.id, text: typeof body.data.text === 'string' ? body.data.text : input.text };
}

/** X shortens every link to a t.co one in the stored text: compare texts with links set aside. */
const LINK = /https?:\/\/\S+/g;
const comparable = (text: string) => text.normalize('NFC').replace(LINK, '<link>').trim();

/**
 * Finds a post this account made since `since` with this text, these media and this parent: how a
 * create whose answer was lost is settled before it is sent again. Reads the user's newest posts
 * (https://docs.x.com/x-api/users/get-posts).
 */
export async function findXPost(
  api: XApiOptions,
  userId: string,
  since: Date,
  want: XPostInput,
): Promise<XPost | undefined> {
  // A minute of slack for clocks; X wants second precision without milliseconds.
  const start = new Date(since.getTime() - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const { body } = await callX<{ data?: Record<string, unknown>[] }>(api, {
    method: 'GET',
    path: `/2/users/${encodeURIComponent(userId)}/tweets`,
    query: {
      max_results: '20',
      start_time: start,
      'tweet.fields': 'created_at,attachments,referenced_tweets',
      exclude: 'retweets',
    },
  });
  const wantMedia = [...(want.mediaIds ?? [])].sort();
  for (const t of Array.isArray(body.data) ? body.data : []) {
    const keys = ((t.attachments as { media_keys?: unknown } | undefined)?.media_keys ?? []) as unknown[];
    // A media key is `{type}_{media id}`: https://docs.x.com/x-api/fundamentals/media
    const ids = keys.map((k) => String(k).replace(/^\d+_/, '')).sort();
    const refs = (Array.isArray(t.referenced_tweets) ? t.referenced_tweets : []) as { type?: unknown; id?: unknown }[];
    const parent = refs.find((r) => r.type === 'replied_to')?.id;
    if ((typeof parent === 'string' ? parent : '') !== (want.inReplyTo ?? '')) continue;
    if (ids.join() !== wantMedia.join()) continue;
    const text = typeof t.text === 'string' ? t.text : '';
    if (comparable(text) === comparable(want.text)) return { id: String(t.id), text };
  }
  return undefined;
}

export interface XUser {
  id: string;
  username: string;
  name: string;
  profileImageUrl: string | null;
}

/** The user the token belongs to: https://docs.x.com/x-api/users/get-my-user */
export async function getXMe(api: XApiOptions): Promise<XUser> {
  const { body } = await callX<{ data?: Record<string, unknown> }>(api, {
    method: 'GET',
    path: '/2/users/me',
    query: { 'user.fields': 'profile_image_url' },
  });
  const d = body.data;
  if (typeof d?.id !== 'string' || typeof d.username !== 'string')
    throw new PlatformError('X answered without the user.', {
      platform: X_PLATFORM,
      transient: true,
      code: 'invalid_answer',
    });
  return {
    id: d.id,
    username: d.username,
    name: typeof d.name === 'string' && d.name ? d.name : d.username,
    profileImageUrl: typeof d.profile_image_url === 'string' ? d.profile_image_url : null,
  };
}

/** The post's page: `https://x.com/{username}/status/{id}`. */
export function xPermalink(username: string, postId: string): string {
  return `https://x.com/${username}/status/${postId}`;
}
