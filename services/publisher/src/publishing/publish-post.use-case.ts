import type { EventOf, Events } from '@postbus/contracts';
import { FOLLOW_UP_HEADERS, type FollowUpKind } from '../scheduling/follow-up.scheduler';
import { advanceAttempt } from './advance-attempt';
import type { PublishPorts } from './publish-ports';

/** An early arrival within this margin is handled now rather than parked again. */
const EARLY_TOLERANCE_MS = 25;

/**
 * Handles one delivery of a due post (post.due itself or one of its follow-ups) and publishes
 * it at most once. Under the attempt's row lock it decides: start, continue the scheduled step,
 * take over from a dead worker (resolving an unknown outcome with the platform), re-announce a
 * final outcome, wait for a live owner, or ignore a stale follow-up. The event's data was checked
 * against the post.due contract on receipt.
 */
export async function publishPost(
  ports: PublishPorts,
  event: EventOf<typeof Events.postDue>,
  headers: Record<string, unknown>,
): Promise<void> {
  const job = event.data;
  const seqHeader = headers[FOLLOW_UP_HEADERS.seq];
  const messageSeq = seqHeader === undefined || seqHeader === null ? undefined : Number(seqHeader);
  const kind = (headers[FOLLOW_UP_HEADERS.kind] as FollowUpKind | undefined) ?? 'park';

  const early = Number(headers[FOLLOW_UP_HEADERS.notBefore] ?? 0) - Date.now();
  if (early > EARLY_TOLERANCE_MS)
    return ports.followUps.schedule(event, { kind, seq: messageSeq ?? null, delayMs: early, headers });

  const { worker } = ports;
  // Another delivery of this post is being handled by this very process: look again later.
  if (worker.active.has(job.postId))
    return ports.followUps.schedule(event, { kind: 'park', seq: messageSeq ?? null, delayMs: worker.staleMs, headers });
  worker.active.add(job.postId);
  try {
    const buckets = [job.platform, ...(ports.adapters[job.platform]?.rateBuckets?.(job) ?? [])];
    const claim = await ports.attempts.claim(job, {
      workerId: worker.id,
      messageSeq,
      staleMs: worker.staleMs,
      followUpGraceMs: ports.policy.followUpGraceMs,
      rateSlots: ports.rateLimiter.slotArgs(job.profileId, buckets),
    });
    switch (claim.action) {
      case 'reannounce':
        await ports.attempts.reannounce(job, claim.row);
        ports.announced();
        return;
      case 'park':
        // awaited, as everything in this try: the finally must not run before the work is done
        await ports.followUps.schedule(event, {
          kind: 'park',
          seq: messageSeq ?? null,
          delayMs: worker.staleMs,
          headers,
        });
        return;
      case 'drop':
        ports.logger.debug('stale delivery ignored', { postId: job.postId, seq: messageSeq });
        return;
      case 'run':
        await advanceAttempt(ports, { event, job, headers }, claim);
        return;
    }
  } finally {
    worker.active.delete(job.postId);
  }
}
