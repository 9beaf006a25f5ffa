import { AppError, type CreatePostsResult, type Principal } from '@postbus/contracts';
import { assertPostPayload, QUEUE_NEXT, scheduledInstantOf } from './post-payload.rules';
import type { PostsPorts } from './posts.ports';
import { storePosts, type StoreRequest } from './store-posts';
import { createSeries } from '../series/series.use-cases';

export type CreateMode = 'posts' | 'schedule' | 'publish';

/** Creates one scheduled row per matching profile, after every rule has passed. Without scheduledTime, due at the next tick. */
export async function createPosts(
  ports: PostsPorts,
  principal: Principal,
  mode: CreateMode,
  body: unknown,
  request: Pick<StoreRequest, 'idempotencyKey' | 'callId'> = {},
): Promise<CreatePostsResult & { replayed: boolean }> {
  const now = ports.clock();
  const payload = assertPostPayload(body, { now, requireScheduledTime: mode === 'schedule' });
  if (payload.recurrence !== undefined) {
    if (mode === 'publish')
      throw new AppError(
        'validation_error',
        'A recurring post is scheduled (POST /api/v1/posts or /posts/schedule); /publish posts once, now.',
        { field: 'recurrence' },
      );
    return createSeries(ports, principal, payload, request);
  }
  const next = payload.scheduledTime === QUEUE_NEXT;
  const scheduledTime = payload.scheduledTime && !next ? scheduledInstantOf(payload)! : ports.nextTick(now);
  const queue = next
    ? { defaults: true as const }
    : payload.schedule !== undefined
      ? { scheduleId: payload.schedule }
      : undefined;
  const stored = await storePosts(ports, principal, { payload, status: 'scheduled', scheduledTime, queue, ...request });
  return { ...stored, scheduledTime: stored.scheduledTime!, ...(payload.timezone && { timezone: payload.timezone }) };
}
