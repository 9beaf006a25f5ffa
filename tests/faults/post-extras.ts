import type { Platform } from '@postbus/contracts';
import type { PlannedPost } from './post-plan';

/** Platforms whose posts may be queued on a posting schedule, carry a first comment, or recur. */
const QUEUED_ON: Platform[] = ['threads', 'facebook', 'instagram'];
const COMMENTED_ON: Platform[] = ['threads', 'facebook', 'instagram'];
const RECURRING_ON: Platform[] = ['threads', 'facebook'];
/** The rule of every recurring post: its first occurrence falls in the run, the others on the days after. */
export const RECURRENCE = 'FREQ=DAILY;COUNT=3';
export const RECURRENCE_COUNT = 3;
/** The most posts a schedule takes per profile and slot. */
const POSTS_PER_SLOT_MAX = 10;

/**
 * What some posts carry beyond a caption, by their index in the plan. A post carries at most one
 * of these. Chosen by round (each round gives every profile of the platform one post), so that
 * queued posts spread evenly over the profiles:
 * - queued: one round in 20 of Threads, Facebook and Instagram, `schedule` instead of `scheduledTime`;
 * - first comment: one round in 5 of the same platforms;
 * - Threads chain: one round in 25 of Threads, two replies;
 * - recurring: one post in 60 of Threads and Facebook, `recurrence` and no externalId;
 * - normalized: of the posts left, one in 50 on Facebook (at least 3) and one in 60 on Instagram
 *   (at least 3), a reel from an uploaded video the platform refuses as it is, with
 *   `normalize: true`. Instagram's are held back: created when the transcoder fault strikes, so
 *   that their rendition is being made when the transcoder is killed.
 */
export interface PostExtras {
  queued: Set<number>;
  /** The first comment's text: it carries the post's comment token. */
  firstComments: Map<number, string>;
  threadParts: Map<number, string[]>;
  recurring: Set<number>;
  normalized: Set<number>;
  /** Posts created only when the transcoder fault strikes. */
  held: Set<number>;
}

/** Platforms whose normalized posts are made from a video they refuse, one post in so many, and whether they are held back. */
const NORMALIZED_ON: { platform: Platform; every: number; held: boolean }[] = [
  { platform: 'facebook', every: 50, held: false },
  { platform: 'instagram', every: 60, held: true },
];
const NORMALIZED_MIN = 3;

/** A text that names the post without matching the token the sandbox's items are matched by. */
export const commentToken = (token: string) => token.replace(/^faults-/, 'comment-');
const partToken = (token: string, part: number) => token.replace(/^faults-/, `part${part}-`);

export function chooseExtras(planned: PlannedPost[], profilesOf: (platform: Platform) => number): PostExtras {
  const extras: PostExtras = {
    queued: new Set(),
    firstComments: new Map(),
    threadParts: new Map(),
    recurring: new Set(),
    normalized: new Set(),
    held: new Set(),
  };
  const seen = new Map<Platform, number>();
  planned.forEach((post, i) => {
    const k = seen.get(post.platform) ?? 0;
    seen.set(post.platform, k + 1);
    const round = Math.floor(k / profilesOf(post.platform));
    if (RECURRING_ON.includes(post.platform) && k % 60 === 5) extras.recurring.add(i);
    else if (QUEUED_ON.includes(post.platform) && round % 20 === 3) extras.queued.add(i);
    else if (COMMENTED_ON.includes(post.platform) && round % 5 === 1)
      extras.firstComments.set(i, `First comment ${commentToken(post.token)}`);
    else if (post.platform === 'threads' && round % 25 === 7)
      extras.threadParts.set(
        i,
        [1, 2].map((n) => `Part ${n + 1} ${partToken(post.token, n)}`),
      );
  });
  for (const { platform, every, held } of NORMALIZED_ON) {
    const plain = planned.flatMap((post, i) =>
      post.platform === platform && !extras.queued.has(i) && !extras.firstComments.has(i) && !extras.recurring.has(i)
        ? [i]
        : [],
    );
    const count = Math.min(
      plain.length,
      Math.max(NORMALIZED_MIN, Math.round(planned.filter((p) => p.platform === platform).length / every)),
    );
    // Spread over the platform's posts, so over its profiles and the window.
    for (let n = 0; n < count; n++) {
      const i = plain[Math.floor(((n + 0.5) * plain.length) / count)];
      extras.normalized.add(i);
      if (held) extras.held.add(i);
    }
  }
  return extras;
}

/**
 * Weekly UTC slots at each whole minute in [from, to]: today's weekday (or tomorrow's, past
 * midnight), so the queued posts fall due within the run.
 */
export function slotsWithin(from: number, to: number): { instants: number[]; slots: { day: string; time: string }[] } {
  const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
  const instants: number[] = [];
  for (let t = Math.ceil(from / 60_000) * 60_000; t <= to; t += 60_000) instants.push(t);
  const slots = instants.map((t) => {
    const d = new Date(t);
    return {
      day: days[d.getUTCDay()],
      time: `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`,
    };
  });
  return { instants, slots };
}

/**
 * The posts per slot a platform's schedule needs for its queued posts, at most 10: queued posts
 * of a profile beyond 10 a slot are taken out of the queue (they keep a time of their own).
 */
export function postsPerSlotFor(
  planned: PlannedPost[],
  extras: PostExtras,
  platform: Platform,
  slotCount: number,
): number {
  const perProfile = new Map<string, number[]>();
  for (const i of extras.queued)
    if (planned[i].platform === platform)
      perProfile.set(planned[i].profileId, [...(perProfile.get(planned[i].profileId) ?? []), i]);
  let most = 0;
  for (const indexes of perProfile.values()) {
    for (const i of indexes.slice(POSTS_PER_SLOT_MAX * slotCount)) extras.queued.delete(i);
    most = Math.max(most, Math.min(indexes.length, POSTS_PER_SLOT_MAX * slotCount));
  }
  return Math.max(1, Math.ceil(most / Math.max(1, slotCount)));
}

/**
 * The body a post is created with, its extras applied; `scheduleId` for a queued post,
 * `sourceMediaId` (the platform's uploaded video) for a normalized one.
 */
export function bodyWithExtras(
  post: PlannedPost,
  i: number,
  extras: PostExtras,
  scheduleId?: string,
  sourceMediaId?: string,
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...post.body };
  if (extras.normalized.has(i) && sourceMediaId) {
    delete body.mediaUrls;
    body.mediaId = sourceMediaId;
    body.normalize = true;
    if (post.platform === 'facebook') body.platformMeta = { facebook: { reel: true } };
  }
  if (extras.recurring.has(i)) {
    // One externalId cannot name many posts: a recurring post is matched by the token in its caption.
    delete body.externalId;
    body.recurrence = RECURRENCE;
  }
  if (extras.queued.has(i) && scheduleId) body.schedule = scheduleId;
  const comment = extras.firstComments.get(i);
  if (comment) body.firstComment = comment;
  const parts = extras.threadParts.get(i);
  if (parts) body.thread = parts;
  return body;
}
