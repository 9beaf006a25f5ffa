import { LINKEDIN_IMAGES_MAX, LINKEDIN_TEXT_MAX } from '@postbus/contracts';
import { PlatformError, isPlatformError } from '../errors';
import { LINKEDIN_PLATFORM, callLinkedIn, type LinkedInApiOptions } from './api';
import { linkedInCommentary, linkedInTextLength } from './text';

export type LinkedInVisibility = 'PUBLIC' | 'CONNECTIONS' | 'LOGGED_IN';

export type LinkedInContent =
  | { kind: 'none' }
  | { kind: 'image'; images: { urn: string; altText?: string }[] }
  | { kind: 'video' | 'document'; urn: string; title?: string };

export interface LinkedInPostInput {
  /** `urn:li:person:{id}` or `urn:li:organization:{id}`. */
  author: string;
  /** The caption as written; escaped as little text when sent. */
  text: string;
  visibility?: LinkedInVisibility;
  content: LinkedInContent;
  disableReshare?: boolean;
}

const refuse = (message: string, code: string) =>
  new PlatformError(message, { platform: LINKEDIN_PLATFORM, transient: false, code });

/** Refusals the Posts API would answer, found before any upload. */
export function assertLinkedInPost(input: Omit<LinkedInPostInput, 'content'> & { images?: number }): void {
  const length = linkedInTextLength(input.text);
  if (length > LINKEDIN_TEXT_MAX)
    throw refuse(
      `LinkedIn commentary is at most ${LINKEDIN_TEXT_MAX} characters; this text is ${length}.`,
      'text_too_long',
    );
  if ((input.images ?? 0) > LINKEDIN_IMAGES_MAX)
    throw refuse(
      `A LinkedIn post carries at most ${LINKEDIN_IMAGES_MAX} images; this one has ${input.images}.`,
      'too_many_media',
    );
  if (input.visibility === 'CONNECTIONS' && input.author.startsWith('urn:li:organization:'))
    throw refuse('An organization has no connections: post it PUBLIC or LOGGED_IN.', 'invalid_visibility');
}

/** The Posts API body (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#post-schema). */
export function linkedInPostBody(input: LinkedInPostInput): Record<string, unknown> {
  const body: Record<string, unknown> = {
    author: input.author,
    commentary: linkedInCommentary(input.text),
    visibility: input.visibility ?? 'PUBLIC',
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    lifecycleState: 'PUBLISHED',
    isReshareDisabledByAuthor: input.disableReshare ?? false,
  };
  const c = input.content;
  if (c.kind === 'image' && c.images.length === 1)
    body.content = { media: { id: c.images[0].urn, ...(c.images[0].altText && { altText: c.images[0].altText }) } };
  // https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/multiimage-post-api
  else if (c.kind === 'image')
    body.content = {
      multiImage: { images: c.images.map((i) => ({ id: i.urn, ...(i.altText && { altText: i.altText }) })) },
    };
  else if (c.kind === 'video' || c.kind === 'document')
    body.content = { media: { id: c.urn, ...(c.title && { title: c.title }) } };
  return body;
}

/** A created post: its URN (`urn:li:share:…` or `urn:li:ugcPost:…`) and its page. */
export interface LinkedInPost {
  urn: string;
  permalink: string;
}

/** LinkedIn's refusal of a repeated post names the first one: "Content is a duplicate of urn:li:share:…". */
const DUPLICATE = /duplicate of (urn:li:(?:share|ugcPost):\d+)/i;
/** How much earlier than our first send a post LinkedIn names may say it was created (clocks apart). */
const CLOCK_SKEW_MS = 60_000;

/**
 * Creates the post (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#create-a-post):
 * 201 with the post's URN in `x-restli-id`. LinkedIn refuses the same content from the same author
 * again with 422 naming the first post. Resent after a lost answer (`firstSentAt`: when this post
 * was first sent), that refusal names our own post when LinkedIn created it since then: it is taken
 * as the post. A refusal on a first send, or naming an older or deleted post, is the author's
 * content repeated: the post fails, saying which one it repeats.
 */
export async function createLinkedInPost(
  api: LinkedInApiOptions,
  input: LinkedInPostInput,
  opts: { firstSentAt?: Date } = {},
): Promise<LinkedInPost> {
  let urn: string | null;
  try {
    const { headers } = await callLinkedIn(api, {
      method: 'POST',
      path: '/rest/posts',
      json: linkedInPostBody(input),
      write: true,
    });
    urn = headers.get('x-restli-id');
  } catch (err) {
    const first = isPlatformError(err) && err.status === 422 ? DUPLICATE.exec(err.message)?.[1] : undefined;
    if (!first) throw err;
    urn = await ourOwnPost(api, first, opts.firstSentAt);
  }
  if (!urn || !/^urn:li:(share|ugcPost):\d+$/.test(urn))
    throw new PlatformError('LinkedIn created the post but did not name it (no x-restli-id).', {
      platform: LINKEDIN_PLATFORM,
      transient: true,
      code: 'invalid_answer',
      outcomeUnknown: true,
    });
  return { urn, permalink: linkedInPermalink(urn) };
}

/** The post a duplicate refusal names when it is the one an earlier send of ours created; else the refusal, explained. */
async function ourOwnPost(api: LinkedInApiOptions, urn: string, firstSentAt: Date | undefined): Promise<string> {
  const repeated = (why: string) =>
    refuse(
      `LinkedIn refuses this post as a duplicate: the author ${why} with the same text and media (${urn}). Change the text to post it again.`,
      'duplicate_content',
    );
  if (!firstSentAt) throw repeated('already posted it');
  const named = await getLinkedInPost(api, urn);
  // LinkedIn keeps refusing content of a post deleted lately, naming a post that no longer exists.
  if (!named) throw repeated('posted it before and deleted it');
  if (named.createdAt !== null && named.createdAt < firstSentAt.getTime() - CLOCK_SKEW_MS)
    throw repeated(`already posted it on ${new Date(named.createdAt).toISOString()}`);
  return urn;
}

/** A post as the Posts API reads it back: its URN and when it was created (epoch ms; null when not said). */
export interface LinkedInPostRead {
  urn: string;
  createdAt: number | null;
}

/** Reads a post (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#retrieve-posts); null when LinkedIn has none (404). */
export async function getLinkedInPost(api: LinkedInApiOptions, urn: string): Promise<LinkedInPostRead | null> {
  try {
    const { body } = await callLinkedIn<{ id?: unknown; createdAt?: unknown }>(api, {
      method: 'GET',
      path: `/rest/posts/${encodeURIComponent(urn)}`,
    });
    return { urn, createdAt: typeof body.createdAt === 'number' ? body.createdAt : null };
  } catch (err) {
    if (isPlatformError(err) && err.status === 404) return null;
    throw err;
  }
}

/** The post's page: `https://www.linkedin.com/feed/update/{urn}/`. */
export function linkedInPermalink(urn: string): string {
  return `https://www.linkedin.com/feed/update/${urn}/`;
}
