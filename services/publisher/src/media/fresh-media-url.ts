import { AppError, Rpc, type PostDue, type Principal } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';

export type MediaLookup = { kind: 'url'; url: string } | { kind: 'gone' } | { kind: 'unavailable'; message: string };

/**
 * A post stores the signed serve URL of its mediaId from the time it was created; a post
 * scheduled further ahead than the URL lives would hand the platform an expired link. The
 * publisher asks media for a fresh URL just before it publishes.
 */
export class FreshMediaUrls {
  constructor(private readonly rpc: RpcClient) {}

  async lookup(job: PostDue): Promise<MediaLookup | undefined> {
    if (!job.mediaId) return undefined;
    const principal: Principal = { accountId: job.accountId, userId: 'system', credential: { type: 'system', id: 'publisher' }, scopes: ['media:write'], profileIds: 'all' };
    try {
      const asset = await this.rpc.call(Rpc.mediaResolve, { mediaId: job.mediaId }, principal);
      return { kind: 'url', url: asset.url };
    } catch (err) {
      if (err instanceof AppError && (err.code === 'media_not_found' || err.code === 'not_found')) return { kind: 'gone' };
      return { kind: 'unavailable', message: (err as Error).message };
    }
  }
}
