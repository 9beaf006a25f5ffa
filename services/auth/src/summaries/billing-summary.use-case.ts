import { AppError, type BillingSummary, type Principal } from '@postbus/contracts';
import { billingSummary } from './billing-terms';
import type { SummariesPorts } from './summaries.ports';

/** Plan, trial and quotas (auth) beside the posts counted this month (posts) and the storage in use (media). */
export async function getBillingSummary(ports: SummariesPorts, principal: Principal): Promise<BillingSummary> {
  const [account, posts, storage] = await Promise.all([
    ports.accounts.find(principal.accountId),
    ports.quotaUsage(principal),
    ports.storageUsage(principal),
  ]);
  if (!account) throw new AppError('api_access_disabled', 'The account no longer exists.');
  return billingSummary(account, ports.quotasFor(account.plan), posts, storage, ports.clock());
}
