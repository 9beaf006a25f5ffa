import type { PostCounts, Principal, ProfileSummary, QuotaUsage, StorageUsage } from '@postbus/contracts';
import type { AccountRepository } from '../accounts/account.repository';
import type { PlanQuotas } from '../accounts/plans';
import type { ApiKeyRepository } from '../keys/api-key.repository';
import type { GrantRepository } from '../oauth/grant.repository';

/** What the account and billing summaries need: auth's own tables, and the figures other services own. */
export interface SummariesPorts {
  accounts: AccountRepository;
  keys: Pick<ApiKeyRepository, 'find'>;
  grants: Pick<GrantRepository, 'describeToken'>;
  quotasFor(plan: string): PlanQuotas;
  /** Asked of connections. */
  profileSummary(principal: Principal): Promise<ProfileSummary>;
  /** Asked of posts. */
  postCounts(principal: Principal): Promise<PostCounts>;
  /** Asked of posts. */
  quotaUsage(principal: Principal): Promise<QuotaUsage>;
  /** Asked of media. */
  storageUsage(principal: Principal): Promise<StorageUsage>;
  clock(): Date;
}
