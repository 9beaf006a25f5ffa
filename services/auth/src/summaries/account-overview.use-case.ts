import { AppError, type AccountOverview, type Principal } from '@postbus/contracts';
import { describeCredential } from './credential.query';
import type { SummariesPorts } from './summaries.ports';

/** The account and user, the calling credential, profiles (connections) and post counts (posts). */
export async function getAccountOverview(ports: SummariesPorts, principal: Principal): Promise<AccountOverview> {
  const [account, user, credential, profiles, posts] = await Promise.all([
    ports.accounts.find(principal.accountId),
    ports.accounts.findUser(principal.userId),
    describeCredential(ports, principal),
    ports.profileSummary(principal),
    ports.postCounts(principal),
  ]);
  if (!account || !user || user.account_id !== account.id)
    throw new AppError('api_access_disabled', 'The account or user no longer exists.');
  return {
    account: {
      id: account.id,
      name: account.name,
      plan: account.plan,
      tester: account.tester,
      createdAt: new Date(account.created_at).toISOString(),
    },
    user: { id: user.id, email: user.email, createdAt: new Date(user.created_at).toISOString() },
    credential,
    profiles,
    posts,
  };
}
