import { EntityManager, type DataSource } from 'typeorm';
import { AppError, type Principal } from '@postbus/contracts';
import type { NewPost, PostRepository } from './post.repository';
import type { PostsPorts } from './posts.ports';

/**
 * Stores the rows and counts them against the plan's monthly quota in one statement, or refuses
 * them all beyond it (nothing written).
 */
export async function storeWithinQuota(
  m: DataSource | EntityManager,
  posts: PostRepository,
  rows: NewPost[],
  q: { accountId: string; perMonth: number; now: Date },
  answers: Parameters<PostRepository['insertCounted']>[3] = [],
): Promise<void> {
  if ((await posts.insertCounted(m, rows, q, answers)) !== null) return;
  const used = await posts.countCreatedThisMonth(m instanceof EntityManager ? m : m.manager, q.accountId, q.now);
  throw new AppError(
    'quota_exceeded',
    `This request would create ${rows.length} post(s); ${used} of the plan's ${q.perMonth} posts this month are used. The quota renews on the 1st (UTC).`,
    { used, limit: q.perMonth, requested: rows.length },
  );
}

/** The plan's quotas: carried by the principal when the edge verified an API key, else asked of auth. */
export async function quotasOf(
  ports: Pick<PostsPorts, 'getAccount'>,
  principal: Principal,
): Promise<{ scheduledPostsPerMonth: number }> {
  return principal.quotas ?? (await ports.getAccount(principal)).quotas;
}
