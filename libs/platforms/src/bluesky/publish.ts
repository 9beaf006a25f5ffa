import { randomInt } from 'node:crypto';
import { BLUESKY_IMAGES_MAX } from '@postbus/contracts';
import { PlatformError } from '../errors';
import { BLUESKY_PLATFORM, callXrpc, type BlueskyApiOptions } from './api';
import { tidOf } from './tid';
import { BLUESKY_TEXT_MAX_BYTES, BLUESKY_TEXT_MAX_GRAPHEMES, facetsOf, graphemeLength, type Facet } from './text';

/** app.bsky.embed.images: at most 4 images of at most 1,000,000 bytes each (https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/images.json). */
export { BLUESKY_IMAGES_MAX };
export const BLUESKY_IMAGE_MAX_BYTES = 1_000_000;
/** app.bsky.embed.video: one MP4 of at most 100,000,000 bytes (https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/video.json). */
export const BLUESKY_VIDEO_MAX_BYTES = 100_000_000;
export const BLUESKY_ALT_MAX_GRAPHEMES = 2000;

export interface BlobRef {
  $type: 'blob';
  ref: { $link: string };
  mimeType: string;
  size: number;
}

export interface StrongRef {
  uri: string;
  cid: string;
}

export interface BlueskySession {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
}

type PublicApi = Omit<BlueskyApiOptions, 'accessJwt'>;

/** Signs in with a handle (or DID, or email) and an app password: https://docs.bsky.app/docs/api/com-atproto-server-create-session */
export async function createBlueskySession(
  api: PublicApi,
  identifier: string,
  appPassword: string,
): Promise<BlueskySession> {
  return sessionOf(
    await callXrpc(api, {
      method: 'POST',
      nsid: 'com.atproto.server.createSession',
      body: { identifier, password: appPassword },
    }),
  );
}

/** A new access and refresh token for a session: https://docs.bsky.app/docs/api/com-atproto-server-refresh-session */
export async function refreshBlueskySession(api: PublicApi, refreshJwt: string): Promise<BlueskySession> {
  return sessionOf(
    await callXrpc({ ...api, accessJwt: refreshJwt }, { method: 'POST', nsid: 'com.atproto.server.refreshSession' }),
  );
}

function sessionOf(body: Record<string, unknown>): BlueskySession {
  const { did, handle, accessJwt, refreshJwt } = body;
  if (
    typeof did !== 'string' ||
    typeof handle !== 'string' ||
    typeof accessJwt !== 'string' ||
    typeof refreshJwt !== 'string'
  ) {
    throw new PlatformError('Bluesky answered a session without its tokens.', {
      platform: BLUESKY_PLATFORM,
      transient: true,
      code: 'invalid_answer',
    });
  }
  return { did, handle, accessJwt, refreshJwt };
}

/** The DID of a handle, or undefined when it does not resolve: https://docs.bsky.app/docs/api/com-atproto-identity-resolve-handle */
export async function resolveBlueskyHandle(api: BlueskyApiOptions, handle: string): Promise<string | undefined> {
  try {
    const { did } = await callXrpc<{ did?: string }>(api, {
      method: 'GET',
      nsid: 'com.atproto.identity.resolveHandle',
      query: { handle },
    });
    return typeof did === 'string' ? did : undefined;
  } catch (err) {
    if (err instanceof PlatformError && !err.transient && !err.tokenRejected) return undefined;
    throw err;
  }
}

/** Stores bytes as a blob of the account's repo: https://docs.bsky.app/docs/api/com-atproto-repo-upload-blob */
export async function uploadBlueskyBlob(
  api: BlueskyApiOptions,
  bytes: Uint8Array,
  contentType: string,
): Promise<BlobRef> {
  const { blob } = await callXrpc<{ blob?: BlobRef }>(api, {
    method: 'POST',
    nsid: 'com.atproto.repo.uploadBlob',
    body: { bytes, contentType },
  });
  if (!blob?.ref?.$link)
    throw new PlatformError('Bluesky answered an upload without its blob.', {
      platform: BLUESKY_PLATFORM,
      transient: true,
      code: 'invalid_answer',
    });
  return blob;
}

/**
 * A record key in the TID form (https://atproto.com/specs/tid), chosen before the write and kept by
 * the caller, so that a write whose answer was lost can be looked up by its key instead of being
 * made again.
 */
export function newTid(nowMs = Date.now()): string {
  return tidOf(BigInt(nowMs) * 1000n + BigInt(randomInt(1000)), randomInt(1024));
}

export interface BlueskyImage {
  blob: BlobRef;
  alt: string;
  aspectRatio?: { width: number; height: number };
}

export interface BlueskyPostRecord {
  text: string;
  /** Computed from the text when absent (links, tags, and mentions whose handles resolve). */
  facets?: Facet[];
  images?: BlueskyImage[];
  video?: { blob: BlobRef; alt?: string; aspectRatio?: { width: number; height: number } };
  /** A link card: app.bsky.embed.external. */
  external?: { uri: string; title: string; description: string; thumb?: BlobRef };
  reply?: { root: StrongRef; parent: StrongRef };
  langs?: string[];
  createdAt?: string;
}

export interface CreatedPost extends StrongRef {
  rkey: string;
}

/** Refusals the record would get from the PDS, found before any call. */
export function assertBlueskyPost(record: Pick<BlueskyPostRecord, 'text' | 'images' | 'video' | 'external'>): void {
  const refuse = (message: string, code: string) =>
    new PlatformError(message, { platform: BLUESKY_PLATFORM, transient: false, code });
  const graphemes = graphemeLength(record.text);
  if (graphemes > BLUESKY_TEXT_MAX_GRAPHEMES || Buffer.byteLength(record.text) > BLUESKY_TEXT_MAX_BYTES) {
    throw refuse(
      `The text is ${graphemes} characters (graphemes); Bluesky allows ${BLUESKY_TEXT_MAX_GRAPHEMES}.`,
      'text_too_long',
    );
  }
  const embeds = [
    record.images?.length ? 'images' : '',
    record.video ? 'video' : '',
    record.external ? 'link card' : '',
  ].filter(Boolean);
  if (embeds.length > 1)
    throw refuse(
      `A Bluesky post carries one of images, a video or a link card, not ${embeds.join(' and ')}.`,
      'too_many_embeds',
    );
  if ((record.images?.length ?? 0) > BLUESKY_IMAGES_MAX)
    throw refuse(
      `A Bluesky post carries at most ${BLUESKY_IMAGES_MAX} images; this one has ${record.images!.length}.`,
      'too_many_media',
    );
}

/**
 * Writes an app.bsky.feed.post record under the key `rkey`
 * (https://docs.bsky.app/docs/api/com-atproto-repo-create-record, record schema
 * https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json).
 */
export async function createBlueskyPost(
  api: BlueskyApiOptions,
  did: string,
  rkey: string,
  post: BlueskyPostRecord,
): Promise<CreatedPost> {
  assertBlueskyPost(post);
  const facets = post.facets ?? (await facetsOf(post.text, (handle) => resolveBlueskyHandle(api, handle)));
  const record: Record<string, unknown> = {
    $type: 'app.bsky.feed.post',
    text: post.text,
    createdAt: post.createdAt ?? new Date().toISOString(),
    ...(facets.length && { facets }),
    ...(post.langs?.length && { langs: post.langs }),
    ...(post.reply && { reply: post.reply }),
    ...(embedOf(post) && { embed: embedOf(post) }),
  };
  const answer = await callXrpc<{ uri?: string; cid?: string }>(api, {
    method: 'POST',
    nsid: 'com.atproto.repo.createRecord',
    body: { repo: did, collection: 'app.bsky.feed.post', rkey, record, validate: true },
    write: true,
  });
  if (typeof answer.uri !== 'string' || typeof answer.cid !== 'string') {
    throw new PlatformError('Bluesky answered a post without its uri and cid.', {
      platform: BLUESKY_PLATFORM,
      transient: true,
      code: 'invalid_answer',
      outcomeUnknown: true,
    });
  }
  return { uri: answer.uri, cid: answer.cid, rkey };
}

function embedOf(post: BlueskyPostRecord): Record<string, unknown> | undefined {
  if (post.images?.length) {
    return {
      $type: 'app.bsky.embed.images',
      images: post.images.map((i) => ({
        image: i.blob,
        alt: i.alt,
        ...(i.aspectRatio && { aspectRatio: i.aspectRatio }),
      })),
    };
  }
  if (post.video) {
    return {
      $type: 'app.bsky.embed.video',
      video: post.video.blob,
      ...(post.video.alt && { alt: post.video.alt }),
      ...(post.video.aspectRatio && { aspectRatio: post.video.aspectRatio }),
    };
  }
  if (post.external) {
    const { uri, title, description, thumb } = post.external;
    return { $type: 'app.bsky.embed.external', external: { uri, title, description, ...(thumb && { thumb }) } };
  }
  return undefined;
}

/** The post stored under `rkey`, or undefined: https://docs.bsky.app/docs/api/com-atproto-repo-get-record */
export async function getBlueskyPost(
  api: BlueskyApiOptions,
  did: string,
  rkey: string,
): Promise<(StrongRef & { value: Record<string, unknown> }) | undefined> {
  try {
    const got = await callXrpc<{ uri: string; cid: string; value: Record<string, unknown> }>(api, {
      method: 'GET',
      nsid: 'com.atproto.repo.getRecord',
      query: { repo: did, collection: 'app.bsky.feed.post', rkey },
    });
    return got.cid ? got : undefined;
  } catch (err) {
    if (err instanceof PlatformError && (err.code === 'RecordNotFound' || err.status === 404)) return undefined;
    throw err;
  }
}

/** The post's page on bsky.app. */
export function blueskyPermalink(handle: string, rkey: string): string {
  return `https://bsky.app/profile/${handle}/post/${rkey}`;
}

export interface ThreadPart {
  rkey: string;
  record: Omit<BlueskyPostRecord, 'reply'>;
}

/**
 * Publishes a post and its replies in order, each a reply to the one before (the first is the
 * root). A part already stored under its key (a write whose answer was lost) is read back
 * instead of written again, so running the same thread twice never duplicates a part.
 */
export async function publishBlueskyThread(
  api: BlueskyApiOptions,
  did: string,
  parts: ThreadPart[],
): Promise<CreatedPost[]> {
  const done: CreatedPost[] = [];
  for (const part of parts) {
    const existing = await getBlueskyPost(api, did, part.rkey);
    const reply = done.length ? { root: strong(done[0]), parent: strong(done[done.length - 1]) } : undefined;
    done.push(
      existing
        ? { uri: existing.uri, cid: existing.cid, rkey: part.rkey }
        : await createBlueskyPost(api, did, part.rkey, { ...part.record, reply }),
    );
  }
  return done;
}

const strong = (p: StrongRef): StrongRef => ({ uri: p.uri, cid: p.cid });
