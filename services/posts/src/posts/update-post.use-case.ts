import {
  AppError,
  compile,
  describeErrors,
  PostUpdateSchema,
  type Platform,
  type Post,
  type PostUpdate,
  type Principal,
} from '@postbus/contracts';
import { lockHeldSlot, moveQueueUp, reshuffleFlag, type QueueMove } from '../schedules/reshuffle-queue';
import { findOwnPost, notEditable } from './post-access';
import { assertPostPayload, QUEUE_NEXT, scheduledInstantOf } from './post-payload.rules';
import { EDITABLE_STATUSES, toPost, type PostChanges, type PostRow } from './post.repository';
import type { PostsPorts } from './posts.ports';
import { postMediaOf } from './resolve-media';
import { assertTikTokPhotos } from './tiktok-photos.rules';
import { assertMediaCompatible } from './media-compat.rules';

const EDITABLE = 'Only drafts and scheduled posts not yet dispatched can be changed.';

/**
 * Changes a draft or a scheduled post that the scheduler has not claimed yet. The post as it
 * would become must pass the same rules as a new one; a scheduledTime on a draft schedules it.
 */
export async function updatePost(
  ports: PostsPorts,
  principal: Principal,
  id: string,
  input: unknown,
  reshuffleInput?: unknown,
): Promise<Post & { reshuffled?: QueueMove[] }> {
  const reshuffle = reshuffleFlag(reshuffleInput);
  const row = await findOwnPost(ports.posts, principal, id);
  if (!EDITABLE_STATUSES.includes(row.status) || row.dispatched_at) throw notEditable(row, EDITABLE);
  const patch = checkPatchShape(input);
  assertPostPayload(asPayload(row, patch), { now: ports.clock(), requireScheduledTime: false });

  const changes: PostChanges = {};
  if (patch.caption !== undefined) changes.caption = patch.caption;
  if (patch.title !== undefined) changes.title = patch.title;
  if (patch.platformMeta !== undefined) changes.platform_meta = patch.platformMeta;
  // New media or settings drop the cover frame made for the old ones: the post goes out as now given.
  if (patch.platformMeta !== undefined || patch.mediaId !== undefined || patch.mediaUrls !== undefined)
    Object.assign(changes, { cover_media_id: null, awaiting_cover_id: null });
  if (patch.category !== undefined) changes.category = patch.category;
  if (patch.mediaId !== undefined || patch.mediaUrls !== undefined) {
    const media = await postMediaOf(ports, principal, patch);
    assertTikTokPhotos([row.platform as Platform], media, ports.tiktokPullPrefixes);
    assertMediaCompatible([row.platform as Platform], media, { settings: patch.platformMeta ?? row.platform_meta });
    changes.media_urls = media.map((m) => m.url);
    changes.media_id = patch.mediaId ?? null;
    // New media replaces the rendition the post waited for: it is published as given.
    changes.awaiting_media_id = null;
  }
  if (patch.scheduledTime === QUEUE_NEXT)
    throw new AppError(
      'invalid_scheduled_time',
      'A change takes a scheduledTime, not "next"; "next" queues a new post.',
      { field: 'scheduledTime' },
    );
  if (patch.scheduledTime !== undefined) {
    changes.scheduled_time = scheduledInstantOf(patch)!;
    if (row.status === 'draft') changes.status = 'scheduled';
  }
  if (!Object.keys(changes).length) return reshuffle ? { ...toPost(row), reshuffled: [] } : toPost(row);
  if (!reshuffle) {
    const updated = await ports.posts.updateIfUndispatched(
      ports.ds.manager,
      principal.accountId,
      id,
      [row.status],
      changes,
    );
    if (!updated) throw notEditable(await findOwnPost(ports.posts, principal, id), EDITABLE);
    return toPost(updated);
  }
  const result = await ports.ds.transaction(async (m) => {
    // Only a change of time frees the slot; the schedule is locked before the post, as queueing takes them.
    const moving =
      changes.scheduled_time != null &&
      row.scheduled_time !== null &&
      changes.scheduled_time.getTime() !== new Date(row.scheduled_time).getTime();
    const held = moving ? await lockHeldSlot(m, principal.accountId, id, ports.clock()) : undefined;
    const updated = await ports.posts.updateIfUndispatched(m, principal.accountId, id, [row.status], changes);
    if (!updated) return undefined;
    return { updated, moves: held ? await moveQueueUp(m, principal.accountId, held) : [] };
  });
  if (!result) throw notEditable(await findOwnPost(ports.posts, principal, id), EDITABLE);
  return { ...toPost(result.updated), reshuffled: result.moves };
}

/** Unknown fields and wrong types; scheduledTime and timezone are left to the rules, which name them. */
function checkPatchShape(input: unknown): PostUpdate {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new AppError('validation_error', 'The body must be a JSON object.');
  const check = compile(PostUpdateSchema);
  if (!check(input)) {
    const errors = (check.errors ?? []).filter(
      (e) => !e.instancePath.startsWith('/scheduledTime') && !e.instancePath.startsWith('/timezone'),
    );
    if (errors.length) throw new AppError('validation_error', `Invalid update: ${describeErrors(errors)}`);
  }
  return input;
}

/** The post as it would be after the patch, in the shape of a create payload. */
function asPayload(row: PostRow, patch: PostUpdate): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    platforms: [row.platform],
    caption: patch.caption ?? row.caption,
    title: patch.title ?? row.title,
    mediaUrls: patch.mediaUrls ?? (patch.mediaId === undefined ? row.media_urls : undefined),
    mediaId: patch.mediaId,
    platformMeta: patch.platformMeta ?? row.platform_meta,
    category: patch.category ?? row.category,
    scheduledTime: patch.scheduledTime,
    timezone: patch.timezone,
  };
  return Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined && v !== null));
}
