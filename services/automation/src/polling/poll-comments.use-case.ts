import { createHash } from 'node:crypto';
import type { CommentReceived, Credentials, Profile } from '@postbus/contracts';
import type { Database, Logger } from '@postbus/kit';
import {
  isPlatformError,
  listMastodonReplyMentions,
  parseMastodonUserId,
  type MastodonApiOptions,
  type MastodonReplyMention,
  type PlatformError,
} from '@postbus/platforms';
import type { TemplateRepository } from '../templates/template.repository';
import type { CommentInboxRepository } from '../webhooks/comment-inbox.repository';
import { readBluesky } from './read-bluesky';
import type { PollCursorRepository } from './poll-cursor.repository';
import { PAGES_PER_PROFILE, storePolledComments, type PolledProfile } from './store-polled-comments';

/** Platforms that announce no comments to a third party: their comments are read by polling. */
export const POLLED_PLATFORMS = ['mastodon', 'bluesky'] as const;
/** Accounts and profiles read in one tick at most; the rest wait for the next (oldest read first). */
export const POLL_ACCOUNTS_PER_TICK = 20;
export const POLL_PROFILES_PER_TICK = 50;
/** How long a profile rests after a throttled read when the platform named no time. */
const DEFAULT_BACKOFF_MS = 5 * 60_000;

export interface PollPorts {
  db: Database;
  cursors: PollCursorRepository;
  inbox: CommentInboxRepository;
  templates: TemplateRepository;
  /** The account's profiles on the polled platforms (connections, over RPC). */
  listProfiles(accountId: string): Promise<Profile[]>;
  credentials(profile: Profile): Promise<Credentials>;
  /** Fresh credentials after the platform refused the token (connections refreshes it). */
  refreshCredentials(profile: Profile): Promise<Credentials>;
  mastodonInstanceUrl: string;
  /** The PDS of app-password Bluesky profiles (OAuth profiles name their own). */
  blueskyServiceUrl: string;
  timeoutMs: number;
  /** Called after a commit that announced comments (kicks the outbox relay). */
  announced(): void;
  clock: () => Date;
  logger: Logger;
}

/**
 * One tick: each active profile on a polled platform of an account whose template is enabled is read
 * from its cursor, and the replies to its own posts are stored in the comments inbox and announced
 * (comment.received) exactly as a webhook delivery would, with the cursor moved in the same
 * transaction. Answers the profiles read.
 */
export async function pollComments(ports: PollPorts): Promise<{ profiles: number; comments: number }> {
  let profiles = 0;
  let comments = 0;
  for (const accountId of await ports.cursors.accountsToPoll(POLL_ACCOUNTS_PER_TICK)) {
    const template = await ports.templates.find(accountId);
    if (!template?.template.enabled) continue;
    for (const profile of await ports.listProfiles(accountId)) {
      if (profile.status !== 'active' || !(POLLED_PLATFORMS as readonly string[]).includes(profile.platform)) continue;
      if (profiles++ >= POLL_PROFILES_PER_TICK) return { profiles: profiles - 1, comments };
      comments += await pollProfile(ports, profile, template.updatedAt).catch((err: unknown) => {
        ports.logger.warn('reading comments failed', { profileId: profile.id, error: (err as Error).message });
        return 0;
      });
    }
  }
  return { profiles, comments };
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

async function pollProfile(ports: PollPorts, profile: Profile, enabledAt: Date): Promise<number> {
  const who = { profileId: profile.id, accountId: profile.accountId, platform: profile.platform };
  const now = ports.clock();
  const row = await ports.cursors.find(profile.id);
  if (row?.backoffUntil && row.backoffUntil > now) return 0;
  let creds = await ports.credentials(profile);
  if (creds.status !== 'active') {
    await ports.cursors.skip(
      who,
      { reason: 'profile_unavailable', detail: `The profile is ${creds.status.replace(/_/g, ' ')}; reconnect it.` },
      now,
    );
    return 0;
  }
  // A token the platform refused is not tried again until the profile is reconnected (a new token).
  if (row?.skippedReason === 'token_revoked' && row.skippedToken === digest(creds.accessToken)) return 0;
  const read = profile.platform === 'bluesky' ? readBluesky : readMastodon;
  for (let refreshed = false; ; refreshed = true) {
    try {
      // Read from the stored cursor: a first try refused after some pages moved it.
      const cursor = refreshed ? (await ports.cursors.find(profile.id))?.cursor : row?.cursor;
      return await read(ports, who, creds, cursor ?? undefined, enabledAt);
    } catch (err) {
      if (!isPlatformError(err)) throw err;
      // An expired token (a Bluesky session's lasts two hours) is refreshed once, as a reply's is.
      const fresh = err.tokenRejected && !refreshed ? await freshCredentials(ports, profile, creds) : undefined;
      if (fresh) {
        creds = fresh;
        continue;
      }
      await recordRefusal(ports, who, err, creds, now);
      ports.logger.warn('reading comments refused', { profileId: profile.id, code: err.code, error: err.message });
      return 0;
    }
  }
}

/** New credentials from connections after the platform refused `creds`; undefined when there are none to try. */
async function freshCredentials(
  ports: PollPorts,
  profile: Profile,
  creds: Credentials,
): Promise<Credentials | undefined> {
  const fresh = await ports.refreshCredentials(profile).catch((err: unknown) => {
    ports.logger.warn('refreshing credentials for reading failed', { profileId: profile.id, error: String(err) });
    return undefined;
  });
  return fresh?.status === 'active' && fresh.accessToken !== creds.accessToken ? fresh : undefined;
}

async function recordRefusal(
  ports: PollPorts,
  who: PolledProfile,
  err: PlatformError,
  creds: Credentials,
  now: Date,
): Promise<void> {
  if (err.tokenRejected)
    await ports.cursors.skip(
      who,
      { reason: 'token_revoked', detail: err.message, token: digest(creds.accessToken) },
      now,
    );
  else if (err.status === 429 || err.throttle) {
    const waitMs = err.retryAfterMs ?? DEFAULT_BACKOFF_MS;
    await ports.cursors.skip(
      who,
      { reason: 'rate_limited', detail: err.message, until: new Date(now.getTime() + waitMs) },
      now,
    );
  } else await ports.cursors.skip(who, { reason: 'platform_error', detail: err.message }, now);
}

/**
 * Mentions of a Mastodon profile past its cursor, a few pages at most. Without a cursor (the first
 * read), the newest page is read and only replies written since the template was last imported are
 * taken: older ones were there before auto-reply was switched on.
 */
async function readMastodon(
  ports: PollPorts,
  who: PolledProfile,
  creds: Credentials,
  cursor: string | undefined,
  enabledAt: Date,
): Promise<number> {
  const { instance, accountId } = parseMastodonUserId(creds.platformUserId);
  const api: MastodonApiOptions = {
    instances: { baseUrlTemplate: ports.mastodonInstanceUrl },
    instance,
    accessToken: creds.accessToken,
    timeoutMs: ports.timeoutMs,
  };
  let stored = 0;
  for (let page = 0; page < PAGES_PER_PROFILE; page++) {
    const read = await listMastodonReplyMentions(api, accountId, cursor);
    const replies = cursor
      ? read.replies
      : read.replies.filter((r) => !r.createdAt || Date.parse(r.createdAt) >= enabledAt.getTime());
    const comments = replies.map((r) => commentOf(r, creds.platformUserId, ports.clock()));
    stored += await storePolledComments(ports, who, comments, read.newestId);
    if (!read.more || !read.newestId) break;
    cursor = read.newestId;
  }
  return stored;
}

/** A Mastodon reply as the inbox holds a comment: the status answered is its post. */
function commentOf(r: MastodonReplyMention, platformUserId: string, now: Date): CommentReceived {
  return {
    platform: 'mastodon',
    platformAccountId: platformUserId,
    commentId: r.statusId,
    postId: r.inReplyToId,
    parentId: null,
    text: r.text,
    authorId: r.authorId,
    authorName: r.authorName,
    receivedAt: r.createdAt ?? now.toISOString(),
  };
}
