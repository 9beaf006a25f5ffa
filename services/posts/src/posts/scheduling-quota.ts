import type { EntityManager } from 'typeorm';
import { AppError, type Principal } from '@postbus/contracts';
import type { PostRepository } from './post.repository';
import type { PostsPorts } from './posts.ports';

/**
 * Counts the posts against the plan's monthly quota, or refuses them beyond it. The count row
 * stays locked until the caller's transaction ends, so two requests at once cannot both squeeze
 * under the quota.
 */
export async function assertWithinQuota(m: EntityManager, posts: PostRepository, accountId: string, q: { perMonth: number; adding: number; now: Date }): Promise<void> {
  // Counted up front in the caller's transaction: a refusal rolls the count back with the rest.
  const used = (await posts.addCreatedThisMonth(m, accountId, q.now, q.adding)) - q.adding;
  if (used + q.adding > q.perMonth) {
    throw new AppError('quota_exceeded', `This request would create ${q.adding} post(s); ${used} of the plan's ${q.perMonth} posts this month are used. The quota renews on the 1st (UTC).`, { used, limit: q.perMonth, requested: q.adding });
  }
}

/** Serializes the account's creates for the rest of the transaction (replays by externalId or Idempotency-Key). */
export async function lockAccount(m: EntityManager, accountId: string): Promise<void> {
  await m.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [`posts:${accountId}`]);
}

/** The plan's quotas: carried by the principal when the edge verified an API key, else asked of auth. */
export async function quotasOf(ports: Pick<PostsPorts, 'getAccount'>, principal: Principal): Promise<{ scheduledPostsPerMonth: number }> {
  return principal.quotas ?? (await ports.getAccount(principal)).quotas;
}
