import type { DataSource } from 'typeorm';
import { POST_STATUSES, profileLimitOf, type PostCounts, type Principal, type QuotaUsage } from '@postbus/contracts';
import type { PostRepository } from '../posts/post.repository';

/** The posts the caller may see (its account's, on the profiles it may use) by status, every status present (0 when none). */
export async function getPostCounts(
  posts: Pick<PostRepository, 'countByStatus'>,
  principal: Principal,
): Promise<PostCounts> {
  const rows = await posts.countByStatus(principal.accountId, profileLimitOf(principal));
  const byStatus = Object.fromEntries(POST_STATUSES.map((s) => [s, 0])) as PostCounts['byStatus'];
  for (const { status, n } of rows) if (status in byStatus) byStatus[status] = n;
  return { total: rows.reduce((sum, r) => sum + r.n, 0), byStatus };
}

/** The calendar month (UTC) that `now` falls in: the period of the scheduling quota. */
export function quotaPeriod(now: Date): { start: Date; end: Date } {
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/** Posts counted against the account's quota this period, exactly as a create counts them (every profile's: the quota is the account's). */
export async function getQuotaUsage(
  ds: DataSource,
  posts: PostRepository,
  accountId: string,
  now: Date,
): Promise<QuotaUsage> {
  const used = await posts.countCreatedThisMonth(ds.manager, accountId, now);
  const { start, end } = quotaPeriod(now);
  return { used, periodStart: start.toISOString(), periodEnd: end.toISOString() };
}
