import { AppError, Rpc, systemPrincipal, type PostDue } from '@postbus/contracts';
import type { MediaFacts } from '@postbus/platforms';
import type { RpcClient } from '@postbus/bus';

/** `facts`: the stored file's type, size and what ffprobe read from it (its probe is null for media stored before files were probed). */
export type MediaLookup =
  { kind: 'url'; url: string; facts: MediaFacts } | { kind: 'gone' } | { kind: 'unavailable'; message: string };

/**
 * A post stores the signed serve URL of its mediaId from the time it was created; a post
 * scheduled further ahead than the URL lives would hand the platform an expired link. The
 * publisher asks media for a fresh URL just before it publishes.
 */
export class FreshMediaUrls {
  constructor(private readonly rpc: RpcClient) {}

  async lookup(job: PostDue): Promise<MediaLookup | undefined> {
    if (!job.mediaId) return undefined;
    const principal = systemPrincipal({ service: 'publisher', accountId: job.accountId, scopes: ['media:write'] });
    try {
      const asset = await this.rpc.call(Rpc.mediaResolve, { mediaId: job.mediaId }, principal);
      return {
        kind: 'url',
        url: asset.url,
        facts: { contentType: asset.contentType, sizeBytes: asset.sizeBytes, probe: asset.probe },
      };
    } catch (err) {
      if (err instanceof AppError && (err.code === 'media_not_found' || err.code === 'not_found'))
        return { kind: 'gone' };
      return { kind: 'unavailable', message: (err as Error).message };
    }
  }

  /** The cover frame's fresh URL; a cover that cannot be had leaves the choice to the platform, it does not fail the post. */
  async coverUrl(job: PostDue): Promise<string | undefined> {
    if (!job.coverMediaId) return undefined;
    const principal = systemPrincipal({ service: 'publisher', accountId: job.accountId, scopes: ['media:write'] });
    const asset = await this.rpc
      .call(Rpc.mediaResolve, { mediaId: job.coverMediaId }, principal)
      .catch(() => undefined);
    return asset?.url;
  }
}
