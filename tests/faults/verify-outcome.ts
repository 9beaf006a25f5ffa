import { Client } from 'pg';
import type { PlannedPost } from './post-plan';

const TERMINAL = new Set(['posted', 'failed']);
const TOKEN = /faults-[0-9a-f]+-\d{4}/;

interface PostRow {
  id: string;
  external_id: string;
  status: string;
  platform: string;
  platform_post_id: string | null;
  permalink: string | null;
  failed_reason: string | null;
  dispatched: boolean;
  redispatched: boolean;
}

interface AttemptRow {
  state: string;
  tries: number;
  last_error: string | null;
}

interface SandboxItem {
  platform: string;
  id: string;
  containerId: string | null;
  permalink: string;
  text: string;
  title?: string | null;
}

export interface Outcome {
  posts: number;
  posted: number;
  failed: number;
  /** Failed because a publish call went unanswered on a platform that cannot be asked afterwards: live once, and said so. */
  unknownOutcome: number;
  /** Items on the sandbox beyond the first for the same post. */
  duplicates: number;
  /** Posts not in a terminal state, posted without their item on the platform, or live while recorded as failed for another reason. */
  lost: number;
  /** Posts whose state in posts disagrees with the publisher's attempt. */
  disagreements: number;
  strandedOutbox: number;
  /** Posts the scheduler's safety net announced again because no outcome came back in time. */
  redispatched: number;
  /** Failure reasons and how many posts each. */
  failedReasons: Map<string, number>;
  /** What went wrong, by kind: how many and a few examples. */
  problems: Map<string, { count: number; examples: string[] }>;
}

/** Posts by status, for progress lines; undefined while the database does not answer. */
export async function statusCounts(databaseUrl: string): Promise<Record<string, number> | undefined> {
  const db = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 1000 });
  try {
    await db.connect();
    const { rows } = await db.query(`SELECT status, count(*)::int AS n FROM posts.posts GROUP BY status`);
    return Object.fromEntries(rows.map((r: { status: string; n: number }) => [r.status, r.n]));
  } catch {
    return undefined;
  } finally {
    await db.end().catch(() => undefined);
  }
}

export function allTerminal(counts: Record<string, number> | undefined, total: number): boolean {
  return (
    !!counts && Object.entries(counts).reduce((sum, [status, n]) => sum + (TERMINAL.has(status) ? n : 0), 0) >= total
  );
}

/** Committed events of every service not yet handed to the broker. */
export async function outboxRows(databaseUrl: string): Promise<Record<string, number>> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(`SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox'`);
    const counts: Record<string, number> = {};
    for (const { table_schema: schema } of rows)
      counts[schema] = Number((await db.query(`SELECT count(*)::int AS n FROM "${schema}".outbox`)).rows[0].n);
    return counts;
  } finally {
    await db.end();
  }
}

/**
 * Reads the end state: each post (`postIds[i]` is the post created for `planned[i]`; a recurring
 * post's first occurrence) against the publisher's attempt and against what the sandbox holds
 * (matched by the token in caption and title), and every outbox.
 */
export async function verifyOutcome(
  databaseUrl: string,
  sandboxUrl: string,
  planned: PlannedPost[],
  postIds: string[],
): Promise<Outcome> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  let posts: PostRow[];
  let storedTwice: { external_id: string; n: number }[];
  let attempts: Map<string, AttemptRow>;
  try {
    posts = (
      await db.query(
        `SELECT id, external_id, status, platform, platform_post_id, permalink, failed_reason, dispatched_at IS NOT NULL AS dispatched, redispatched_at IS NOT NULL AS redispatched FROM posts.posts WHERE id = ANY($1)`,
        [postIds],
      )
    ).rows;
    storedTwice = (
      await db.query(
        `SELECT external_id, count(*)::int AS n FROM posts.posts WHERE external_id = ANY($1) GROUP BY 1 HAVING count(*) > 1`,
        [planned.map((p) => p.token)],
      )
    ).rows;
    attempts = new Map(
      (await db.query(`SELECT post_id, state, tries, last_error FROM publisher.attempts`)).rows.map(
        (r: AttemptRow & { post_id: string }) => [r.post_id, r],
      ),
    );
  } finally {
    await db.end();
  }
  const outbox = await outboxRows(databaseUrl);
  const items = (await (await fetch(`${sandboxUrl}/__sandbox/published`)).json()) as SandboxItem[];

  const problems: Outcome['problems'] = new Map();
  const itemsByToken = new Map<string, SandboxItem[]>();
  for (const item of items) {
    const token = TOKEN.exec(`${item.text ?? ''} ${item.title ?? ''}`)?.[0];
    if (token) itemsByToken.set(token, [...(itemsByToken.get(token) ?? []), item]);
  }
  const postsById = new Map(posts.map((p) => [p.id, p]));
  const outcome: Outcome = {
    posts: planned.length,
    posted: 0,
    failed: 0,
    unknownOutcome: 0,
    duplicates: 0,
    lost: 0,
    disagreements: 0,
    strandedOutbox: 0,
    redispatched: posts.filter((p) => p.redispatched).length,
    failedReasons: new Map(),
    problems,
  };
  const note = (kind: string, example: string) => {
    const entry = problems.get(kind) ?? { count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < 3) entry.examples.push(example);
    problems.set(kind, entry);
  };

  for (const { external_id: token, n } of storedTwice) {
    outcome.duplicates += n - 1;
    note('stored more than once', `${token}: ${n} posts`);
  }
  for (const [i, plan] of planned.entries()) {
    const post = postsById.get(postIds[i]);
    const live = itemsByToken.get(plan.token) ?? [];
    if (live.length > 1) {
      outcome.duplicates += live.length - 1;
      note(`published more than once (${plan.platform})`, `${plan.token} is on the platform ${live.length} times`);
    }
    if (!post) {
      outcome.lost++;
      note('never stored', plan.token);
      continue;
    }
    const attempt = attempts.get(post.id);
    const attemptText = attempt
      ? `attempt ${attempt.state} after ${attempt.tries} tries${attempt.last_error ? `, last error: ${attempt.last_error.slice(0, 160)}` : ''}`
      : 'no attempt';
    if (post.status === 'posted') {
      outcome.posted++;
      if (
        !live.some(
          (i) =>
            i.id === post.platform_post_id || i.containerId === post.platform_post_id || i.permalink === post.permalink,
        )
      ) {
        outcome.lost++;
        note(`posted but not on the platform (${plan.platform})`, `${post.id} as ${post.platform_post_id}`);
      }
      if (attempt?.state !== 'published') {
        outcome.disagreements++;
        note(`posted, but the publisher's attempt is not published (${plan.platform})`, `${post.id}: ${attemptText}`);
      }
    } else if (post.status === 'failed') {
      outcome.failed++;
      const reason = post.failed_reason ?? '';
      const unknown = /outcome of publishing .* is unknown/i.test(reason);
      const key = reason.replace(/\b(pst|prf|acc)_\w+/g, '…').slice(0, 160);
      outcome.failedReasons.set(key, (outcome.failedReasons.get(key) ?? 0) + 1);
      if (unknown) outcome.unknownOutcome++;
      if (live.length && !unknown) {
        outcome.lost++;
        note(`live on the platform but recorded as failed (${plan.platform})`, `${post.id}: ${reason}`);
      }
      if (attempt?.state !== 'failed') {
        outcome.disagreements++;
        note(`failed, but the publisher's attempt is not failed (${plan.platform})`, `${post.id}: ${attemptText}`);
      }
    } else {
      outcome.lost++;
      note(
        `not in a terminal state: ${post.status}, ${post.dispatched ? 'dispatched' : 'never dispatched'} (${plan.platform})`,
        `${post.id}: ${attemptText}${live.length ? '; live on the platform' : ''}`,
      );
    }
  }
  for (const [schema, n] of Object.entries(outbox)) {
    outcome.strandedOutbox += n;
    if (n) note('outbox rows stranded', `${n} in ${schema}`);
  }
  return outcome;
}
