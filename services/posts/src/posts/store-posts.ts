import {
  firstCommentFor,
  newId,
  type FollowUpOutcome,
  type Platform,
  type PostPayload,
  type Principal,
} from '@postbus/contracts';
import { answerRows, findReplay, lockAccount, recordAnswer } from './create-request.repository';
import { payloadHash, replayKeys, type ReplayKey, type StoredAnswer } from './create-requests';
import type { NewPost } from './post.repository';
import type { PostsPorts } from './posts.ports';
import { postMediaOf } from './resolve-media';
import { resolveProfiles } from './resolve-profiles';
import { assertTikTokPhotos } from './tiktok-photos.rules';
import { assertMediaCompatible } from './media-compat.rules';
import { renditionsNeeded } from '../renditions/normalize.rules';
import { requestRenditions, type PlatformRendition } from '../renditions/request-renditions';
import { coverFramesNeeded } from '../renditions/cover-frames.rules';
import { quotasOf, storeWithinQuota } from './scheduling-quota';
import { takeNextSlots, type SlotQueue } from '../schedules/queue-posts';

export interface StoreRequest {
  /** A payload that passed the posting rules. */
  payload: PostPayload;
  status: 'scheduled' | 'draft';
  scheduledTime: Date | null;
  idempotencyKey?: string;
  /** The RPC call that asked: a redelivered request answers what the first delivery stored. */
  callId?: string;
  /** Each row takes its profile's next free slot, in the named schedule or in its profile's default one, instead of scheduledTime. */
  queue?: SlotQueue;
}

/**
 * Stores one row per matching profile after the checks that need other services (profiles,
 * media, quota), or answers an earlier identical request again. Nothing is stored on refusal.
 */
export async function storePosts(
  ports: PostsPorts,
  principal: Principal,
  req: StoreRequest,
): Promise<StoredAnswer & { replayed: boolean }> {
  const { payload } = req;
  const clientKeys = replayKeys(payload.externalId, req.idempotencyKey);
  const keys: ReplayKey[] = req.callId ? [...clientKeys, ['call', req.callId]] : clientKeys;
  // A draft and a post with the same body are different requests.
  const hash = payloadHash(req.status === 'draft' ? { draft: payload } : payload);
  const replay = await findReplay(ports.ds, principal.accountId, keys, hash);
  // A redelivered call is answered as new: its caller never saw the first answer.
  if (replay) return { ...replay.answer, replayed: replay.kind !== 'call' };

  const platforms = [...new Set(payload.platforms)] as Platform[];
  // Asked of connections, media and auth at once; refusals are reported in this order, as if asked one by one.
  const [profiles, media, quotas] = await inOrder([
    resolveProfiles(ports, principal, platforms, payload.profileIds),
    postMediaOf(ports, principal, payload),
    quotasOf(ports, principal),
  ] as const);
  assertTikTokPhotos(platforms, media, ports.tiktokPullPrefixes);
  // normalize: a platform whose rules a rendition mends gets one instead of a refusal.
  const needs = renditionsNeeded(platforms, media, payload);
  assertMediaCompatible(
    platforms.filter((p) => !needs.has(p)),
    media,
    { settings: payload.platformMeta },
  );
  const renditions = needs.size
    ? await requestRenditions(ports.requestRendition!, principal, payload.mediaId!, needs)
    : new Map<Platform, PlatformRendition>();
  // normalize: a video without a cover gets a cover frame where the platform takes a cover image.
  const coverNeeds = coverFramesNeeded(platforms, media, payload);
  const covers = coverNeeds.size
    ? await requestRenditions(ports.requestRendition!, principal, payload.mediaId!, coverNeeds)
    : new Map<Platform, PlatformRendition>();
  const mediaUrls = media.map((m) => m.url);

  const rows = postRows(principal, req, profiles, mediaUrls, { renditions, covers });
  const answer: StoredAnswer = {
    postIds: rows.map((r) => r.id),
    status: req.status,
    scheduledTime: req.scheduledTime?.toISOString() ?? null,
  };
  const quota = { accountId: principal.accountId, perMonth: quotas.scheduledPostsPerMonth, now: ports.clock() };
  // Without a client's key or a queue, nothing has to be read under a lock first: the rows, the
  // count and the answer a redelivered call gets are one statement, committed on its own.
  if (!clientKeys.length && !req.queue) {
    await storeWithinQuota(ports.ds, ports.posts, rows, quota, answerRows(keys, hash, answer));
    return { ...answer, replayed: false };
  }
  return storeAnswered(ports, principal, req, { rows, answer, quota, keys, clientKeys, hash });
}

/** One row per profile, with the post's follow-ups and, where one is made, its platform's rendition and cover frame. */
function postRows(
  principal: Principal,
  req: StoreRequest,
  profiles: { id: string; platform: string }[],
  mediaUrls: string[],
  made: { renditions: Map<Platform, PlatformRendition>; covers: Map<Platform, PlatformRendition> },
): NewPost[] {
  const { payload } = req;
  const requestId = newId('crq');
  return profiles.map((p) => ({
    id: newId('pst'),
    account_id: principal.accountId,
    request_id: requestId,
    profile_id: p.id,
    platform: p.platform,
    status: req.status,
    caption: payload.caption ?? '',
    title: payload.title ?? null,
    media_urls: mediaUrls,
    media_id: payload.mediaId ?? null,
    platform_meta: (payload.platformMeta as Record<string, unknown> | undefined) ?? null,
    external_id: payload.externalId ?? null,
    category: payload.category ?? null,
    scheduled_time: req.scheduledTime,
    first_comment: pendingOutcome(firstCommentFor(payload.firstComment, p.platform as Platform)) ?? null,
    // A reply chain is published on Threads, X and Bluesky; the other platforms' posts carry none.
    thread:
      p.platform === 'threads' || p.platform === 'x' || p.platform === 'bluesky'
        ? (payload.thread ?? []).map((text) => pendingOutcome(text)!)
        : [],
    ...renditionColumns(made.renditions.get(p.platform as Platform), mediaUrls),
    ...coverColumns(made.covers.get(p.platform as Platform)),
  }));
}

/**
 * Stores the rows together with the answer a repeated request gets, taking queue slots first,
 * in one transaction.
 */
async function storeAnswered(
  ports: PostsPorts,
  principal: Principal,
  req: StoreRequest,
  s: {
    rows: NewPost[];
    answer: StoredAnswer;
    quota: Parameters<typeof storeWithinQuota>[3];
    keys: ReplayKey[];
    clientKeys: ReplayKey[];
    hash: string;
  },
): Promise<StoredAnswer & { replayed: boolean }> {
  const { rows, quota, keys, clientKeys, hash } = s;
  let { answer } = s;
  return ports.ds.transaction(async (m) => {
    // Clients may send one key twice at once; a call id comes again only after its replica died.
    if (clientKeys.length) {
      await lockAccount(m, principal.accountId);
      // A concurrent identical request may have committed while this one waited for the lock.
      const raced = await findReplay(m, principal.accountId, clientKeys, hash);
      if (raced) return { ...raced.answer, replayed: true };
    }
    if (req.queue) {
      await takeNextSlots(m, principal, req.queue, rows, quota.now);
      answer = queuedAnswer(answer, rows);
    }
    await recordAnswer(m, principal.accountId, keys, hash, answer);
    await storeWithinQuota(m, ports.posts, rows, quota);
    return { ...answer, replayed: false };
  });
}

/** A post carrying a rendition names it (its URL first) and, while it is being made, waits for it. */
function renditionColumns(rendition: PlatformRendition | undefined, mediaUrls: string[]): Partial<NewPost> {
  if (!rendition) return {};
  return {
    media_id: rendition.mediaId,
    media_urls: [rendition.url, ...mediaUrls.slice(1)],
    awaiting_media_id: rendition.pending ? rendition.mediaId : null,
  };
}

/** A post carrying a cover frame names it and, while it is being made, waits for it. */
function coverColumns(cover: PlatformRendition | undefined): Partial<NewPost> {
  if (!cover) return {};
  return { cover_media_id: cover.mediaId, awaiting_cover_id: cover.pending ? cover.mediaId : null };
}

/** What is to be published after the post, not yet sent. */
function pendingOutcome(text: string | undefined): FollowUpOutcome | undefined {
  return text === undefined ? undefined : { text, status: 'pending', permalink: null, failedReason: null };
}

/** A queued create answers the earliest slot taken, and each post's own slot. */
function queuedAnswer(answer: StoredAnswer, rows: NewPost[]): StoredAnswer {
  const slots = rows.map((r) => ({
    postId: r.id,
    profileId: r.profile_id,
    scheduledTime: r.scheduled_time!.toISOString(),
  }));
  return { ...answer, scheduledTime: slots.map((s) => s.scheduledTime).sort()[0], slots };
}

/** Awaits every promise, then answers their values or throws the first failure in list order (not in time order). */
async function inOrder<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(promises);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
