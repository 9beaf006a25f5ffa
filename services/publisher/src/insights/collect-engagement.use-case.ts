import { AppError, type Credentials } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import { isPlatformError, type PlatformEngagement } from '@postbus/platforms';
import type { EngagementReader } from './engagement-readers';
import type { DueCollection, EngagementRepository } from './engagement.repository';

export interface CollectPorts {
  engagement: EngagementRepository;
  /** The profile's platform credentials, asked of connections. */
  credentials(profileId: string, accountId: string): Promise<Credentials>;
  readers: Partial<Record<string, EngagementReader>>;
  logger: Logger;
}

/** A collection that failed for a reason that may pass (throttling, 5xx, network, connections not answering). */
export type Attempted = { figures: PlatformEngagement } | { error: string } | { retry: string };

/** Asks the item's platform for its figures; a definitive failure is kept as the stage's outcome, a passing one is retried. */
export async function readEngagement(ports: CollectPorts, c: DueCollection): Promise<Attempted> {
  const reader = ports.readers[c.platform];
  if (!reader) return { error: `Postbus reads no engagement figures from ${c.platform}.` };
  let creds: Credentials;
  try {
    creds = await ports.credentials(c.profileId, c.accountId);
  } catch (err) {
    if (err instanceof AppError && err.code === 'not_found' && !/unknown command/i.test(err.message))
      return { error: 'The profile was disconnected.' };
    return { retry: (err as Error).message };
  }
  try {
    return { figures: await reader(creds, c.platformPostId) };
  } catch (err) {
    if (isPlatformError(err) && err.transient) return { retry: err.message };
    return { error: (err as Error).message };
  }
}

/**
 * One run: reads the posts due a collection and stores each outcome. `shouldRetry` decides, per
 * post and stage, whether a passing failure is tried again at a later run or kept as the outcome.
 */
export async function collectDueEngagement(
  ports: CollectPorts,
  opts: { offsetsMs: number[]; batch: number; shouldRetry(c: DueCollection): boolean; skip(c: DueCollection): boolean },
): Promise<{ collected: number; failed: number; retrying: number }> {
  const result = { collected: 0, failed: 0, retrying: 0 };
  for (const c of await ports.engagement.due(opts.offsetsMs, opts.batch)) {
    if (opts.skip(c)) continue;
    const outcome = await readEngagement(ports, c);
    if ('retry' in outcome && opts.shouldRetry(c)) {
      result.retrying++;
      ports.logger.debug('engagement collection will be tried again', {
        postId: c.postId,
        stage: c.stage,
        reason: outcome.retry,
      });
      continue;
    }
    await ports.engagement.record(
      c,
      'figures' in outcome ? outcome : { error: 'retry' in outcome ? outcome.retry : outcome.error },
    );
    if ('figures' in outcome) result.collected++;
    else result.failed++;
  }
  return result;
}
