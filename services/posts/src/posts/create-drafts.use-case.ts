import { AppError, type CreateDraftsResult, type Principal } from '@postbus/contracts';
import { assertPostPayload, QUEUE_NEXT, scheduledInstantOf } from './post-payload.rules';
import type { PostsPorts } from './posts.ports';
import { storePosts, type StoreRequest } from './store-posts';

/** Stores drafts (one per matching profile) under the same rules; a draft is never dispatched until scheduled. */
export async function createDrafts(
  ports: PostsPorts,
  principal: Principal,
  body: unknown,
  request: Pick<StoreRequest, 'idempotencyKey' | 'callId'> = {},
): Promise<CreateDraftsResult & { replayed: boolean }> {
  const payload = assertPostPayload(body, { now: ports.clock(), requireScheduledTime: false });
  if (payload.schedule !== undefined || payload.scheduledTime === QUEUE_NEXT)
    throw new AppError(
      'validation_error',
      'A draft takes no schedule slot; queue it by creating the post with schedule or scheduledTime "next".',
      { field: 'schedule' },
    );
  if (payload.recurrence !== undefined)
    throw new AppError('validation_error', 'A draft does not repeat; create the recurring post when it is ready.', {
      field: 'recurrence',
    });
  const scheduledTime = payload.scheduledTime ? scheduledInstantOf(payload)! : null;
  const stored = await storePosts(ports, principal, { payload, status: 'draft', scheduledTime, ...request });
  return { ...stored, status: 'draft', ...(payload.timezone && { timezone: payload.timezone }) };
}
