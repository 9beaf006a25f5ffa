import {
  BLUESKY_TEXT_MAX,
  BLUESKY_TEXT_MAX_BYTES,
  FIRST_COMMENT_MAX,
  THREAD_PARTS_MAX,
  THREAD_PART_MAX,
  X_TEXT_MAX,
  firstCommentFor,
  type FirstCommentInput,
  type Platform,
} from '@postbus/contracts';
import { graphemeLength, threadsTextLength, xTextLength } from '@postbus/platforms';
import type { Problem } from './post-payload.rules';

const FIRST_COMMENT_KEYS = ['default', 'instagram', 'facebook', 'threads', 'youtube', 'bluesky'];

/** How a platform counts a comment's length: Threads counts an emoji by its UTF-8 bytes, Bluesky by graphemes, the others by characters. */
const lengthOn = (platform: Platform, text: string): number =>
  platform === 'threads' ? threadsTextLength(text) : platform === 'bluesky' ? graphemeLength(text) : [...text].length;

/**
 * The rules of `firstComment` and `thread`, with messages of their own (the schema's would not say
 * which platform refuses what): TikTok takes no comment through its API; each platform's comment
 * length; a chain only with Threads, X or Bluesky among the platforms, at most THREAD_PARTS_MAX parts of at
 * most THREAD_PART_MAX characters each on Threads, X_TEXT_MAX weighted characters each on X and
 * BLUESKY_TEXT_MAX graphemes each on Bluesky.
 */
export function followUpProblems(b: Record<string, unknown>, platforms: Platform[]): Problem[] {
  return [...firstCommentProblems(b.firstComment, platforms), ...threadProblems(b.thread, platforms)];
}

function firstCommentProblems(value: unknown, platforms: Platform[]): Problem[] {
  if (value === undefined) return [];
  const field = 'firstComment';
  const shapeError = {
    code: 'validation_error' as const,
    message: `firstComment must be a non-empty string, or an object with some of ${FIRST_COMMENT_KEYS.join(', ')} (each a non-empty string).`,
    field,
  };
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'tiktok' in value) {
    return [
      {
        code: 'first_comment_unsupported',
        message: "TikTok's API cannot publish comments; remove firstComment.tiktok.",
        platform: 'tiktok',
        field: 'firstComment.tiktok',
      },
    ];
  }
  if (!isFirstComment(value)) return [shapeError];
  const problems: Problem[] = [];
  for (const platform of new Set(platforms)) {
    const text = firstCommentFor(value, platform);
    if (text === undefined) continue;
    const max = FIRST_COMMENT_MAX[platform];
    if (max === undefined) {
      problems.push({
        code: 'first_comment_unsupported',
        message: `${platform === 'tiktok' ? "TikTok's API" : `The ${platform} API`} cannot publish comments; give firstComment per platform without ${platform} (and without default), or post without it.`,
        platform,
        field,
      });
      continue;
    }
    const length = lengthOn(platform, text);
    if (length > max)
      problems.push({
        code: 'validation_error',
        message: `A first comment on ${platform} is at most ${max} characters (got ${length}).`,
        platform,
        field: typeof value === 'string' || !(platform in value) ? field : `${field}.${platform}`,
      });
  }
  return problems;
}

function isFirstComment(value: unknown): value is FirstCommentInput {
  if (typeof value === 'string') return value.trim() !== '';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length > 0 &&
    entries.every(([k, v]) => FIRST_COMMENT_KEYS.includes(k) && typeof v === 'string' && v.trim() !== '')
  );
}

function threadProblems(value: unknown, platforms: Platform[]): Problem[] {
  if (value === undefined) return [];
  const field = 'thread';
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((part) => typeof part === 'string' && part.trim() !== '')
  ) {
    return [
      {
        code: 'validation_error',
        message:
          'thread must be a non-empty array of non-empty strings: the replies to publish under the Threads, X or Bluesky post, in order.',
        field,
      },
    ];
  }
  const problems: Problem[] = [];
  if (!platforms.includes('threads') && !platforms.includes('x') && !platforms.includes('bluesky'))
    problems.push({
      code: 'validation_error',
      message:
        'thread is a chain of replies on Threads, X or Bluesky: it needs threads, x or bluesky among the platforms.',
      field,
    });
  if (value.length > THREAD_PARTS_MAX)
    problems.push({
      code: 'validation_error',
      message: `A thread holds at most ${THREAD_PARTS_MAX} parts after the post (got ${value.length}).`,
      platform: platforms.includes('threads') ? 'threads' : platforms.includes('x') ? 'x' : 'bluesky',
      field,
    });
  if (platforms.includes('x')) problems.push(...xPartProblems(value as string[]));
  if (platforms.includes('bluesky')) problems.push(...blueskyPartProblems(value as string[]));
  if (platforms.includes('threads') || (!platforms.includes('x') && !platforms.includes('bluesky')))
    problems.push(...threadsPartProblems(value as string[]));
  return problems;
}

/** Each reply of an X chain is one post: at most X_TEXT_MAX characters as X weighs them (https://docs.x.com/fundamentals/counting-characters). */
function xPartProblems(parts: string[]): Problem[] {
  return parts.flatMap((part, i) => {
    const length = xTextLength(part);
    return length > X_TEXT_MAX
      ? [
          {
            code: 'validation_error' as const,
            message: `Part ${i + 1} of the thread is ${length} characters as X counts them (a link 23, an emoji or CJK character 2); X takes at most ${X_TEXT_MAX}.`,
            platform: 'x' as const,
            field: `thread[${i}]`,
          },
        ]
      : [];
  });
}

/** Each reply of a Bluesky chain is one post: at most BLUESKY_TEXT_MAX graphemes and 3,000 UTF-8 bytes (https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json). */
function blueskyPartProblems(parts: string[]): Problem[] {
  return parts.flatMap((part, i) => {
    const graphemes = graphemeLength(part);
    if (graphemes <= BLUESKY_TEXT_MAX && Buffer.byteLength(part) <= BLUESKY_TEXT_MAX_BYTES) return [];
    return [
      {
        code: 'validation_error' as const,
        message: `Part ${i + 1} of the thread is ${graphemes} characters (graphemes) and ${Buffer.byteLength(part)} bytes; Bluesky takes at most ${BLUESKY_TEXT_MAX} and ${BLUESKY_TEXT_MAX_BYTES}.`,
        platform: 'bluesky' as const,
        field: `thread[${i}]`,
      },
    ];
  });
}

function threadsPartProblems(parts: string[]): Problem[] {
  const problems: Problem[] = [];
  parts.forEach((part, i) => {
    const length = threadsTextLength(part);
    if (length > THREAD_PART_MAX)
      problems.push({
        code: 'validation_error',
        message: `Part ${i + 1} of the thread is ${length} characters; Threads takes at most ${THREAD_PART_MAX}.`,
        platform: 'threads',
        field: `thread[${i}]`,
      });
  });
  return problems;
}
