import { createHash } from 'node:crypto';
import {
  AppError,
  assertValid,
  isAppError,
  newId,
  principalMayUseProfile,
  SERIES_HORIZON_DAYS_DEFAULT,
  SeriesPatchSchema,
  type CreatePostsResult,
  type PostPayload,
  type Principal,
  type Series,
} from '@postbus/contracts';
import { cancelPost } from '../posts/cancel-post.use-case';
import { isWallTime, zoneOf } from '../posts/local-time';
import { assertPostPayload, QUEUE_NEXT, scheduledInstantOf } from '../posts/post-payload.rules';
import type { PostsPorts } from '../posts/posts.ports';
import { storePosts } from '../posts/store-posts';
import { updatePost } from '../posts/update-post.use-case';
import type { ApprovalRepository } from '../approvals/approval.repository';
import {
  localMillisOf,
  occurrenceAt,
  occurrencesOf,
  parseRecurrence,
  type Occurrence,
  type Recurrence,
} from './recurrence.rules';
import { seriesRepository as repo, toSeries, type OccurrenceRow, type SeriesRow } from './series.repository';

const DAY = 86_400_000;
/** Occurrences one extension of a series creates at most; the next extension goes on from there. */
export const OCCURRENCES_PER_EXTENSION = 100;

export type SeriesPorts = PostsPorts & { approvals: ApprovalRepository };

const horizonOf = (ports: PostsPorts) => (ports.seriesHorizonDays ?? SERIES_HORIZON_DAYS_DEFAULT) * DAY;

/**
 * A post with `recurrence`: its first occurrence is created as any post (a refusal refuses the
 * request and stores nothing), then the series and every further occurrence within the horizon.
 * With an idempotency key the series id is derived from it, so a retried request (even one racing
 * the first) finds the same occurrences instead of making new ones.
 */
export async function createSeries(
  ports: PostsPorts,
  principal: Principal,
  payload: PostPayload,
  request: { idempotencyKey?: string },
): Promise<CreatePostsResult & { replayed: boolean }> {
  assertSeriesPayload(payload);
  const rule = parseRecurrence(payload.recurrence);
  if (request.idempotencyKey) {
    const earlier = await repo.findByIdempotencyKey(ports.ds, principal.accountId, request.idempotencyKey);
    if (earlier) return { ...(await answerOf(ports, earlier)), replayed: true };
  }
  const timezone = payload.timezone ?? 'UTC';
  const zone = zoneOf(timezone)!;
  const requested = scheduledInstantOf(payload)!;
  // The rule runs over the wall time asked for (before a clock change moved it), else the instant's local time.
  const firstLocal =
    isWallTime(payload.scheduledTime) && payload.timezone
      ? Date.parse(`${payload.scheduledTime}Z`)
      : localMillisOf(requested, zone);
  const [first] = occurrencesOf(rule, zone, firstLocal, 0, new Date(8.64e15), 1);
  if (!first)
    throw new AppError('validation_error', 'recurrence gives no occurrence at or after scheduledTime (check UNTIL).', {
      field: 'recurrence',
    });

  const { scheduledTime: _time, recurrence: _rule, timezone: _zone, ...template } = payload;
  const id = request.idempotencyKey
    ? `ser_${createHash('sha256').update(`${principal.accountId}\0${request.idempotencyKey}`).digest('hex').slice(0, 24)}`
    : newId('ser');
  const firstPosts = await createOccurrence(ports, principal, id, template, first);
  const second = occurrenceAt(rule, zone, firstLocal, 1);
  const row = await repo.insert(ports.ds, {
    id,
    account_id: principal.accountId,
    // Without the quotas the key carried: later occurrences count against the plan of their day, asked of auth.
    principal: { ...principal, quotas: undefined },
    rule: payload.recurrence!,
    timezone,
    first_local: new Date(firstLocal).toISOString().slice(0, -1),
    first_time: first.at,
    template,
    status: second ? 'active' : 'ended',
    next_index: 1,
    next_time: second ?? null,
    idempotency_key: request.idempotencyKey ?? null,
  });
  const stored = row ?? (await repo.find(ports.ds, principal.accountId, id))!;
  await repo.recordOccurrence(ports.ds, {
    series_id: id,
    index: 0,
    scheduled_time: first.at,
    post_ids: firstPosts,
    error_code: null,
    error_message: null,
  });
  await extendSeries(ports, stored, ports.clock());
  return {
    ...(await answerOf(ports, stored)),
    ...(payload.timezone && { timezone: payload.timezone }),
    replayed: !row,
  };
}

function assertSeriesPayload(payload: PostPayload): void {
  if (payload.schedule !== undefined || payload.scheduledTime === QUEUE_NEXT) {
    throw new AppError(
      'validation_error',
      "A recurring post starts at its scheduledTime; it cannot also take a schedule's next slot.",
      { field: 'recurrence' },
    );
  }
  if (!payload.scheduledTime)
    throw new AppError('invalid_scheduled_time', 'A recurring post needs scheduledTime: its first occurrence.', {
      field: 'scheduledTime',
    });
  if (payload.externalId !== undefined) {
    throw new AppError(
      'validation_error',
      'externalId names one post; the occurrences of a recurring post are named by its series (seriesId in the answer).',
      { field: 'externalId' },
    );
  }
}

/** Creates the posts of one occurrence; its idempotency key makes a repeat answer the same posts. */
async function createOccurrence(
  ports: PostsPorts,
  principal: Principal,
  seriesId: string,
  template: Record<string, unknown>,
  o: Occurrence,
): Promise<string[]> {
  const payload = assertPostPayload(
    { ...template, scheduledTime: o.at.toISOString() },
    { now: ports.clock(), requireScheduledTime: true },
  );
  const stored = await storePosts(ports, principal, {
    payload,
    status: 'scheduled',
    scheduledTime: o.at,
    idempotencyKey: `${seriesId}:${o.index}`,
  });
  return stored.postIds;
}

/**
 * Creates the occurrences of a series due within the horizon that do not exist yet, in order,
 * recording each (its posts, or the code and message of its refusal: a quota reached, a profile
 * gone). Safe to run again or in two replicas at once: every occurrence is created and recorded once.
 */
export async function extendSeries(ports: PostsPorts, row: SeriesRow, now: Date): Promise<number> {
  const rule = parseRecurrence(row.rule);
  const zone = zoneOf(row.timezone)!;
  const firstLocal = Date.parse(`${row.first_local}Z`);
  const through = new Date(now.getTime() + horizonOf(ports));
  const due = occurrencesOf(rule, zone, firstLocal, row.next_index, through, OCCURRENCES_PER_EXTENSION);
  for (const [i, o] of due.entries()) {
    const current = await repo.find(ports.ds, row.account_id, row.id);
    if (current?.status !== 'active' || current.next_index > o.index) break;
    await repo.recordOccurrence(ports.ds, await occurrenceRecord(ports, current, o));
    await repo.advance(
      ports.ds,
      row.id,
      o.index + 1,
      due[i + 1]?.at ?? nextAfter(rule, zone, firstLocal, o.index) ?? null,
    );
  }
  return due.length;
}

const nextAfter = (rule: Recurrence, zone: ReturnType<typeof zoneOf> & object, firstLocal: number, index: number) =>
  occurrenceAt(rule, zone, firstLocal, index + 1);

async function occurrenceRecord(ports: PostsPorts, row: SeriesRow, o: Occurrence): Promise<OccurrenceRow> {
  const base = { series_id: row.id, index: o.index, scheduled_time: o.at };
  try {
    return {
      ...base,
      post_ids: await createOccurrence(ports, row.principal, row.id, row.template, o),
      error_code: null,
      error_message: null,
    };
  } catch (err) {
    // An outage (a service or the broker unavailable, throttled) is no refusal: the run stops and the
    // next one creates the occurrence (its idempotency key keeps it to one).
    if (!isAppError(err) || err.status >= 500 || err.code === 'rate_limited') throw err;
    return { ...base, post_ids: [], error_code: err.code, error_message: err.message };
  }
}

/** Extends every active series whose next occurrence is within the horizon; answers how many occurrences were looked at. */
export async function extendDueSeries(ports: PostsPorts, limit: number): Promise<number> {
  const now = ports.clock();
  let total = 0;
  for (const row of await repo.due(ports.ds, new Date(now.getTime() + horizonOf(ports)), limit))
    total += await extendSeries(ports, row, now);
  return total;
}

/** The caller's series, or series_not_found (another account's, or one with posts on a profile the key may not use). */
async function findOwnSeries(
  ports: PostsPorts,
  principal: Principal,
  id: string,
): Promise<{ row: SeriesRow; occurrences: OccurrenceRow[] }> {
  const row = await repo.find(ports.ds, principal.accountId, id);
  if (!row) throw new AppError('series_not_found', `No series ${id}.`);
  const occurrences = await repo.occurrences(ports.ds, id);
  const postIds = occurrences.flatMap((o) => o.post_ids);
  const profiles = postIds.length ? await ports.posts.profilesOf(ports.ds.manager, principal.accountId, postIds) : [];
  if (profiles.some((p) => !principalMayUseProfile(principal, p)))
    throw new AppError('series_not_found', `No series ${id}.`);
  return { row, occurrences };
}

async function answerOf(ports: PostsPorts, row: SeriesRow): Promise<CreatePostsResult> {
  const occurrences = await repo.occurrences(ports.ds, row.id);
  return {
    postIds: occurrences.flatMap((o) => o.post_ids),
    status: 'scheduled',
    scheduledTime: new Date(row.first_time).toISOString(),
    seriesId: row.id,
  };
}

export async function getSeries(ports: PostsPorts, principal: Principal, id: string): Promise<Series> {
  const { row, occurrences } = await findOwnSeries(ports, principal, id);
  return toSeries(row, occurrences);
}

/** The occurrences' posts that can still change: scheduled, not yet dispatched (checked again by each change). */
async function futurePostIds(ports: PostsPorts, principal: Principal, occurrences: OccurrenceRow[]): Promise<string[]> {
  const now = ports.clock().getTime();
  const ids = occurrences.filter((o) => new Date(o.scheduled_time).getTime() > now).flatMap((o) => o.post_ids);
  return ids.length ? ports.posts.undispatchedAmong(ports.ds.manager, principal.accountId, ids) : [];
}

/**
 * Changes every occurrence not yet dispatched, and the post later occurrences are made from. The
 * change must pass the rules of a post (checked on the template first, so a refusal changes nothing).
 */
export async function updateSeries(
  ports: PostsPorts,
  principal: Principal,
  id: string,
  input: unknown,
): Promise<Series> {
  const patch = assertValid(SeriesPatchSchema, input, 'series change');
  const { row, occurrences } = await findOwnSeries(ports, principal, id);
  if (row.status === 'cancelled')
    throw new AppError('validation_error', `Series ${id} is cancelled; it no longer changes.`);
  const template = { ...row.template, ...patch };
  assertPostPayload(
    { ...template, scheduledTime: new Date(ports.clock().getTime() + DAY).toISOString() },
    { now: ports.clock(), requireScheduledTime: true },
  );
  for (const postId of await futurePostIds(ports, principal, occurrences))
    await skipIfGone(updatePost(ports, principal, postId, patch));
  await repo.setTemplate(ports.ds, principal.accountId, id, template);
  return getSeries(ports, principal, id);
}

/** Stops the series and cancels every occurrence not yet dispatched; posts already out stay. */
export async function cancelSeries(ports: SeriesPorts, principal: Principal, id: string): Promise<Series> {
  const { occurrences } = await findOwnSeries(ports, principal, id);
  await repo.cancel(ports.ds, principal.accountId, id);
  for (const postId of await futurePostIds(ports, principal, occurrences))
    await skipIfGone(cancelPost(ports, principal, postId));
  return getSeries(ports, principal, id);
}

/** A post dispatched or cancelled since it was listed is left as it is. */
async function skipIfGone(change: Promise<unknown>): Promise<void> {
  try {
    await change;
  } catch (err) {
    if (!isAppError(err) || err.code !== 'post_not_editable') throw err;
  }
}
