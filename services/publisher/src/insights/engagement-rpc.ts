import { Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import type { EngagementRepository } from './engagement.repository';

/** The latest engagement figures of posts, for the analytics posts computes. */
export function registerEngagementRpc(rpc: RpcServer, engagement: EngagementRepository): void {
  rpc.handle(Rpc.publisherEngagement, async ({ postIds }, { principal }) => ({
    posts: await engagement.latest(principal.accountId, postIds),
  }));
}
