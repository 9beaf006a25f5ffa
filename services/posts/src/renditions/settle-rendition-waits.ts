import { AppError, Events, systemPrincipal, type MediaAsset, type Principal } from '@postbus/contracts';
import { envelope, writeOutbox } from '@postbus/bus';
import { databaseOf, type DatabaseSource, type Logger } from '@postbus/kit';
import {
  failWaiting,
  releaseCoverWait,
  releaseWaiting,
  waitingRenditions,
  type RenditionWait,
} from './rendition-wait.repository';

export interface SettlePorts {
  ds: DatabaseSource;
  /** A media asset (a rendition: its status and percent), asked of media. */
  getMedia(principal: Principal, mediaId: string): Promise<MediaAsset>;
  clock(): Date;
  /** How long past its due time a post may wait for its rendition. */
  ceilingMs: number;
  batch: number;
  logger: Logger;
  /** Outbox rows were committed (post.failed). */
  announce(): void;
}

/**
 * One round of the rendition watcher: for each rendition scheduled posts wait for, asks media
 * how it is. Made: the posts carry its URL and become due to the scheduler. Failed or gone:
 * they fail with the reason. Still processing POSTS_RENDITION_WAIT_MAX_MS after a post was due:
 * that post fails, its reason saying how far the rendition got and what to do. Polling rather
 * than an event: a rendition finishing before the post that waits for it was committed is
 * still seen. Answers how many renditions it looked at.
 */
export async function settleRenditionWaits(ports: SettlePorts): Promise<number> {
  const waits = await waitingRenditions(databaseOf(ports.ds), ports.batch);
  for (const wait of waits) {
    await settleOne(ports, wait).catch((err: Error) =>
      ports.logger.warn('rendition wait not settled', { mediaId: wait.mediaId, err: err.message }),
    );
  }
  return waits.length;
}

async function settleOne(ports: SettlePorts, wait: RenditionWait): Promise<void> {
  const asset = await ports
    .getMedia(systemPrincipal({ service: 'posts', accountId: wait.accountId, scopes: ['media:write'] }), wait.mediaId)
    .catch((err) => {
      if (err instanceof AppError && (err.code === 'not_found' || err.code === 'media_not_found')) return undefined;
      throw err;
    });
  if (wait.cover) return settleCover(ports, wait, asset);
  if (asset?.status === 'ready') {
    await releaseWaiting(databaseOf(ports.ds), wait.mediaId, asset.url);
    return;
  }
  if (!asset || asset.status !== 'processing') return failPosts(ports, wait.mediaId, notMadeReason(wait, asset));
  const dueBy = new Date(ports.clock().getTime() - ports.ceilingMs);
  if (wait.earliestDue <= dueBy)
    await failPosts(ports, wait.mediaId, tooSlowReason(wait, asset, ports.ceilingMs), dueBy);
}

/**
 * A cover frame is a nicety, not the post: made, the posts carry it; failed, deleted or still
 * being made past the ceiling, they go out without it (the platform picks its own cover).
 */
async function settleCover(ports: SettlePorts, wait: RenditionWait, asset: MediaAsset | undefined): Promise<void> {
  const db = databaseOf(ports.ds);
  if (asset?.status === 'ready') return void (await releaseCoverWait(db, wait.mediaId, true));
  const processing = asset?.status === 'processing';
  const dueBy = processing ? new Date(ports.clock().getTime() - ports.ceilingMs) : undefined;
  if (dueBy && wait.earliestDue > dueBy) return;
  const released = await releaseCoverWait(db, wait.mediaId, false, dueBy);
  if (released)
    ports.logger.warn('posts go out without their cover frame', {
      mediaId: wait.mediaId,
      count: released,
      reason: processing ? 'still processing' : (asset?.failedReason ?? asset?.status ?? 'deleted'),
    });
}

async function failPosts(ports: SettlePorts, mediaId: string, reason: string, dueBy?: Date): Promise<void> {
  const failed = await databaseOf(ports.ds).transaction(async (m) => {
    const rows = await failWaiting(m, mediaId, reason, dueBy);
    if (rows.length) {
      await writeOutbox(
        m,
        rows.map((r) =>
          envelope(Events.postFailed, {
            postId: r.id,
            accountId: r.account_id,
            profileId: r.profile_id,
            platform: r.platform,
            reason,
            failedAt: new Date(r.dispatched_at!).toISOString(),
          }),
        ),
      );
    }
    return rows.length;
  });
  if (failed) {
    ports.logger.warn('posts failed waiting for their rendition', { mediaId, count: failed });
    ports.announce();
  }
}

function notMadeReason(wait: RenditionWait, asset: MediaAsset | undefined): string {
  if (!asset || asset.status === 'deleted')
    return `Its rendition for ${wait.platform} (media ${wait.mediaId}) was deleted before the post went out; create the post again.`;
  const why = asset.failedReason ?? 'the transcoder gave no reason';
  return `Its media could not be converted for ${wait.platform} (rendition ${wait.mediaId}): ${/[.!?]$/.test(why) ? why : `${why}.`} Post a file that meets ${wait.platform}'s rules, or one the conversion can read.`;
}

function tooSlowReason(wait: RenditionWait, asset: MediaAsset, ceilingMs: number): string {
  const waited = ceilingMs < 60_000 ? `${Math.ceil(ceilingMs / 1000)} s` : `${Math.round(ceilingMs / 60_000)} min`;
  return (
    `Its media was still being converted for ${wait.platform} ${waited} after the post was due (rendition ${wait.mediaId}, ${asset.percent ?? 0}% made), so it was not published. ` +
    `The transcoder may be stopped or behind: check it, then schedule the post again once GET /api/v1/media/${wait.mediaId} shows status ready; or post a file that already meets ${wait.platform}'s rules.`
  );
}
