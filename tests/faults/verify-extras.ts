import { Client } from 'pg';
import type { Platform } from '@postbus/contracts';
import type { CreatedPost } from './create-posts';
import { commentToken, RECURRENCE_COUNT, type PostExtras } from './post-extras';
import type { PlannedPost } from './post-plan';

const COMMENT_TOKEN = /\b(comment|part\d)-[0-9a-f]+-\d{4}\b/;

/** A posting schedule of the run: the account's queue on one platform. */
export interface RunSchedule {
  platform: Platform;
  id: string;
  postsPerSlot: number;
  /** Its slots within the run (ms). */
  instants: number[];
}

interface FollowUp {
  text: string;
  status: string;
  permalink: string | null;
  failedReason: string | null;
}

interface PostRow {
  id: string;
  status: string;
  platform_post_id: string | null;
  scheduled_time: Date;
  first_comment: FollowUp | null;
  thread: FollowUp[];
}

interface SandboxPostComment {
  platform: string;
  id: string;
  postId: string;
  text: string;
}

interface Series {
  occurrences: { index: number; scheduledTime: string; postIds: string[]; error: unknown }[];
}

export interface ExtrasOutcome {
  queued: number;
  queuedPosted: number;
  /** Queued posts whose time is not one of their schedule's slots in the run. */
  outOfSlot: number;
  /** Slots of a profile holding more posts than the schedule's postsPerSlot. */
  overfullSlots: number;
  /** The slots used, and the most posts one profile's slot took. */
  slotsUsed: number;
  fullestSlot: number;
  commented: number;
  commentsPosted: number;
  commentsFailed: number;
  threadPosts: number;
  partsPosted: number;
  partsFailed: number;
  /** A comment or part on the platform more than once. */
  commentDuplicates: number;
  /** A comment or part recorded posted but not on the platform (or under another post), still pending, or failed without a reason. */
  commentsLost: number;
  /** Why comments and parts failed, and how many each. */
  commentFailedReasons: Map<string, number>;
  series: number;
  occurrences: number;
  /** Occurrences the extender created while the run went on (beyond those created with the series). */
  extended: number;
  /** Posts of a series beyond one per occurrence, or at an instant already taken by the series. */
  occurrenceDuplicates: number;
  /** Series with fewer occurrences than the rule's COUNT, or an occurrence without its post. */
  occurrencesMissing: number;
  problems: Map<string, { count: number; examples: string[] }>;
}

/** Posts whose first comment or thread part is still pending, for the run to wait on. */
export async function pendingFollowUps(databaseUrl: string, postIds: string[]): Promise<number | undefined> {
  const db = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 1000 });
  try {
    await db.connect();
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM posts.posts WHERE id = ANY($1) AND status = 'posted'
         AND (first_comment->>'status' = 'pending' OR EXISTS (SELECT 1 FROM jsonb_array_elements(thread) p WHERE p->>'status' = 'pending'))`,
      [postIds],
    );
    return rows[0].n as number;
  } catch {
    return undefined;
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** What the three checks share. */
interface Check {
  db: Client;
  planned: PlannedPost[];
  created: CreatedPost[];
  extras: PostExtras;
  rows: Map<string, PostRow>;
  o: ExtrasOutcome;
  note: (kind: string, example: string) => void;
}

/**
 * Queued posts against their schedules' slots, first comments and Threads chains against the
 * comments the sandbox holds, and recurring posts against their series and the posts stored.
 */
export async function verifyExtras(
  databaseUrl: string,
  sandboxUrl: string,
  baseUrl: string,
  planned: PlannedPost[],
  created: CreatedPost[],
  extras: PostExtras,
  schedules: RunSchedule[],
): Promise<ExtrasOutcome> {
  const o: ExtrasOutcome = {
    queued: extras.queued.size,
    queuedPosted: 0,
    outOfSlot: 0,
    overfullSlots: 0,
    slotsUsed: 0,
    fullestSlot: 0,
    commented: extras.firstComments.size,
    commentsPosted: 0,
    commentsFailed: 0,
    threadPosts: extras.threadParts.size,
    partsPosted: 0,
    partsFailed: 0,
    commentDuplicates: 0,
    commentsLost: 0,
    commentFailedReasons: new Map(),
    series: extras.recurring.size,
    occurrences: 0,
    extended: 0,
    occurrenceDuplicates: 0,
    occurrencesMissing: 0,
    problems: new Map(),
  };
  const note = (kind: string, example: string) => {
    const entry = o.problems.get(kind) ?? { count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < 3) entry.examples.push(example);
    o.problems.set(kind, entry);
  };
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows: found } = await db.query(
      `SELECT id, status, platform_post_id, scheduled_time, first_comment, thread FROM posts.posts WHERE id = ANY($1)`,
      [created.map((c) => c.id)],
    );
    const check: Check = { db, planned, created, extras, rows: new Map(found.map((r: PostRow) => [r.id, r])), o, note };
    await checkQueued(check, schedules);
    checkComments(
      check,
      (await (await fetch(`${sandboxUrl}/__sandbox/comments/posted`)).json()) as SandboxPostComment[],
    );
    await checkSeries(check, baseUrl);
  } finally {
    await db.end();
  }
  return o;
}

/** Queued posts: each at one of its schedule's slots, no profile's slot above postsPerSlot. */
async function checkQueued(
  { db, planned, created, extras, rows, o, note }: Check,
  schedules: RunSchedule[],
): Promise<void> {
  const scheduleOf = new Map(schedules.map((s) => [s.platform, s]));
  for (const i of extras.queued) {
    const post = rows.get(created[i].id);
    const schedule = scheduleOf.get(planned[i].platform)!;
    if (post?.status === 'posted') o.queuedPosted++;
    if (!post || !schedule.instants.includes(post.scheduled_time.getTime())) {
      o.outOfSlot++;
      note("queued post outside its schedule's slots", `${planned[i].token} at ${post?.scheduled_time.toISOString()}`);
    }
  }
  for (const s of schedules) {
    const { rows: slots } = await db.query(
      `SELECT profile_id, slot_at, count(*)::int AS n FROM posts.schedule_claims WHERE schedule_id = $1 GROUP BY 1, 2`,
      [s.id],
    );
    o.slotsUsed += slots.length;
    for (const slot of slots as { profile_id: string; slot_at: Date; n: number }[]) {
      o.fullestSlot = Math.max(o.fullestSlot, slot.n);
      if (slot.n > s.postsPerSlot) {
        o.overfullSlots++;
        note(
          'slot above postsPerSlot',
          `${s.id} ${slot.profile_id} ${slot.slot_at.toISOString()}: ${slot.n} > ${s.postsPerSlot}`,
        );
      }
    }
  }
}

/** First comments and Threads chains: once on the platform, under the post (a part under the part before it). */
function checkComments({ planned, created, extras, rows, o, note }: Check, comments: SandboxPostComment[]): void {
  const byToken = new Map<string, SandboxPostComment[]>();
  for (const c of comments) {
    const token = COMMENT_TOKEN.exec(c.text)?.[0];
    if (token) byToken.set(token, [...(byToken.get(token) ?? []), c]);
  }
  /** Checks one comment or part; answers its id on the platform, the parent of the next part. */
  const checkStep = (
    post: PostRow,
    step: FollowUp | null | undefined,
    label: string,
    token: string,
    parentId: string | null,
  ): string | undefined => {
    const live = byToken.get(token) ?? [];
    if (live.length > 1) {
      o.commentDuplicates += live.length - 1;
      note(`${label} on the platform more than once`, `${token}: ${live.length} times`);
    }
    if (!step || step.status === 'pending') {
      o.commentsLost++;
      note(`${label} never ended`, `${post.id} (${post.status}): ${step?.status ?? 'none recorded'}`);
    } else if (step.status === 'posted') {
      if (label === 'first comment') o.commentsPosted++;
      else o.partsPosted++;
      if (!live.some((c) => c.postId === parentId)) {
        o.commentsLost++;
        note(
          `${label} posted but not on the platform under its post`,
          `${post.id}: ${token} ${live.length ? `under ${live.map((c) => c.postId).join(', ')}` : 'not found'}, expected under ${parentId}`,
        );
      }
    } else {
      if (label === 'first comment') o.commentsFailed++;
      else o.partsFailed++;
      const reason = (step.failedReason ?? '').replace(/\b(pst|prf|acc)_\w+/g, '…').slice(0, 160);
      o.commentFailedReasons.set(reason, (o.commentFailedReasons.get(reason) ?? 0) + 1);
      if (!step.failedReason) {
        o.commentsLost++;
        note(`${label} failed without a reason`, post.id);
      } else if (live.length && !/unknown/i.test(step.failedReason)) {
        o.commentsLost++;
        note(`${label} on the platform but recorded as failed`, `${post.id}: ${step.failedReason}`);
      }
    }
    return live[0]?.id;
  };
  for (const [i] of extras.firstComments) {
    const post = rows.get(created[i].id);
    if (post)
      checkStep(post, post.first_comment, 'first comment', commentToken(planned[i].token), post.platform_post_id);
  }
  for (const [i, parts] of extras.threadParts) {
    const post = rows.get(created[i].id);
    if (!post) continue;
    let parent = post.platform_post_id;
    parts.forEach((text, n) => {
      parent = checkStep(post, post.thread[n], `thread part ${n + 2}`, COMMENT_TOKEN.exec(text)![0], parent) ?? null;
    });
  }
}

/** Recurring posts: COUNT occurrences recorded, each with one post of its own, no two posts of a series at one instant. */
async function checkSeries({ db, planned, created, extras, o, note }: Check, baseUrl: string): Promise<void> {
  for (const i of extras.recurring) {
    const { seriesId } = created[i];
    const res = await fetch(`${baseUrl}/api/v1/series/${seriesId}`, {
      headers: { authorization: `Bearer ${planned[i].apiKey}` },
    });
    const occurrences = res.ok ? ((await res.json()) as Series).occurrences : [];
    // Every post of the series carries the token in its caption: those the series recorded and any it did not.
    const posts = (
      await db.query(
        `SELECT id, scheduled_time FROM posts.posts WHERE account_id = (SELECT account_id FROM posts.posts WHERE id = $1) AND caption LIKE $2`,
        [created[i].id, `%${planned[i].token}%`],
      )
    ).rows as { id: string; scheduled_time: Date }[];
    o.occurrences += occurrences.length;
    o.extended += Math.max(0, occurrences.length - (created[i].occurrencesAtCreate ?? 0));
    const indexes = new Set(occurrences.map((x) => x.index));
    const recorded = new Set(occurrences.flatMap((x) => x.postIds));
    if (
      occurrences.length !== RECURRENCE_COUNT ||
      indexes.size !== RECURRENCE_COUNT ||
      occurrences.some((x) => x.postIds.length !== 1 || x.error)
    ) {
      o.occurrencesMissing++;
      note(
        'series without its COUNT occurrences, each with one post',
        `${seriesId} (${planned[i].token}): ${res.ok ? JSON.stringify(occurrences) : `HTTP ${res.status}`}`,
      );
    }
    if (!recorded.has(created[i].id)) {
      o.occurrencesMissing++;
      note('first occurrence not recorded on its series', `${seriesId}: ${created[i].id}`);
    }
    const instants = new Set(posts.map((p) => p.scheduled_time.getTime()));
    const unrecorded = posts.filter((p) => !recorded.has(p.id)).length;
    const beyond = Math.max(posts.length - instants.size, unrecorded);
    if (beyond > 0) {
      o.occurrenceDuplicates += beyond;
      note(
        'posts of a series beyond one per occurrence',
        `${seriesId}: ${posts.length} posts at ${instants.size} instants, ${unrecorded} not recorded on the series`,
      );
    }
    const stored = new Set(posts.map((p) => p.id));
    if ([...recorded].some((id) => !stored.has(id))) {
      o.occurrencesMissing++;
      note(
        'occurrence recorded without its post',
        `${seriesId}: ${[...recorded].filter((id) => !stored.has(id)).join(', ')}`,
      );
    }
  }
}
