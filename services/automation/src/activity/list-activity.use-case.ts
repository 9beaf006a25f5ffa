import { AppError, principalMayUseProfile, type AutomationActivityQuery, type Principal } from '@postbus/contracts';
import type { ActivityRepository } from './activity.repository';
import { activityView, STATES_OF } from './activity-view';

const DEFAULT_LIMIT = 20;

/** The account's activity, newest first; a key limited to some profiles sees only theirs. */
export async function listActivity(
  ports: { activity: ActivityRepository },
  principal: Principal,
  q: AutomationActivityQuery,
) {
  if (q.profileId && !principalMayUseProfile(principal, q.profileId))
    throw new AppError('profile_scope_denied', `This key may not use the profile ${q.profileId}.`);
  const profileIds = q.profileId ? [q.profileId] : principal.profileIds === 'all' ? undefined : principal.profileIds;
  const limit = q.limit ?? DEFAULT_LIMIT;
  const rows = await ports.activity.list(principal.accountId, {
    states: q.outcome ? STATES_OF[q.outcome] : undefined,
    profileIds,
    commentId: q.commentId,
    before: q.cursor ? decodeCursor(q.cursor) : undefined,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map(activityView),
    nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const createdAt = new Date(at);
    if (typeof id === 'string' && !Number.isNaN(createdAt.getTime())) return { createdAt, id };
  } catch {
    // falls through to the refusal below
  }
  throw new AppError('validation_error', 'cursor is not a nextCursor this endpoint answered.');
}
