import { createHash } from 'node:crypto';
import { PlatformError } from '../errors';
import { BLUESKY_PLATFORM, callXrpc, type BlueskyApiOptions } from './api';
import { createBlueskyPost, getBlueskyPost } from './publish';
import { parseBlueskyPostUri } from './replies';
import { TID_PATTERN, tidMicros, tidOf } from './tid';

/** Notifications asked for per call (the lexicon allows 1 to 100; 50 is its default). */
export const BLUESKY_NOTIFICATIONS_PAGE = 50;
/**
 * The reasons read: a reply is notified as `reply`, but as `mention` when its text mentions the
 * account (the AppView notifies each account once per post, mentions first).
 */
export const BLUESKY_REPLY_REASONS = ['reply', 'mention'] as const;

/** Where a notification stands in the listing: the AppView lists by `indexedAt`, newest first. */
export interface BlueskyNotificationPosition {
  at: string;
  uri: string;
}

/** A post that answers one of the account's own posts. */
export interface BlueskyReply {
  /** The reply's at-uri and cid: the comment, and the `parent` a reply to it names. */
  uri: string;
  cid: string;
  /** The account's own post it answers (its `reply.parent`). */
  parentUri: string;
  /** The thread's root, which a reply to it names as its own `reply.root`. */
  root: { uri: string; cid: string };
  text: string;
  authorDid: string;
  authorHandle: string | null;
  createdAt: string;
  indexedAt: string;
}

export interface BlueskyNotificationPage {
  /** Every notification read, newest first: where it stands, and the reply it carries when it is one. */
  items: { position: BlueskyNotificationPosition; reply?: BlueskyReply }[];
  /** The cursor of the next (older) page; none when this was the last. */
  cursor?: string;
}

/**
 * One page of the account's reply and mention notifications, newest first
 * (`app.bsky.notification.listNotifications`, https://docs.bsky.app/docs/api/app-bsky-notification-list-notifications),
 * served by the account's PDS, which proxies it to its AppView with the account's session. Only posts
 * whose `reply.parent` is a post of the account are replies; the account's own posts never are.
 * `priority=false`: the account's "priority only" setting would hide replies from people it does not follow.
 */
export async function listBlueskyReplyNotifications(
  api: BlueskyApiOptions,
  did: string,
  cursor: string | undefined,
): Promise<BlueskyNotificationPage> {
  // https://docs.bsky.app/docs/api/app-bsky-notification-list-notifications
  const body = await callXrpc<{ notifications?: unknown; cursor?: unknown }>(api, {
    method: 'GET',
    nsid: 'app.bsky.notification.listNotifications',
    query: {
      reasons: BLUESKY_REPLY_REASONS,
      limit: String(BLUESKY_NOTIFICATIONS_PAGE),
      priority: 'false',
      cursor,
    },
  });
  if (!Array.isArray(body.notifications))
    throw new PlatformError('Bluesky answered listNotifications without its notifications; trying again.', {
      platform: BLUESKY_PLATFORM,
      transient: true,
      code: 'invalid_answer',
    });
  const items: BlueskyNotificationPage['items'] = [];
  for (const n of (body.notifications as unknown[]).slice(0, 100)) {
    if (!isObject(n) || !isAtUri(n.uri) || !isTime(n.indexedAt)) continue;
    items.push({ position: { at: n.indexedAt, uri: n.uri }, reply: replyOf(n, did) });
  }
  const next = typeof body.cursor === 'string' && body.cursor && body.cursor.length <= 200 ? body.cursor : undefined;
  return { items, ...(next && { cursor: next }) };
}

function replyOf(n: Record<string, unknown>, did: string): BlueskyReply | undefined {
  if (n.reason !== 'reply' && n.reason !== 'mention') return undefined;
  const r = n.record;
  const author = isObject(n.author) ? n.author : {};
  if (!isObject(r) || !isObject(r.reply) || typeof n.cid !== 'string' || typeof author.did !== 'string')
    return undefined;
  const parent = strongRef(r.reply.parent);
  const root = strongRef(r.reply.root);
  const self = parseBlueskyPostUri(n.uri as string);
  // A reply is a post by someone else whose parent is a post of the account.
  if (!parent || !root || !self || self.did === did || author.did !== self.did) return undefined;
  if (parseBlueskyPostUri(parent.uri)?.did !== did) return undefined;
  return {
    uri: n.uri as string,
    cid: n.cid.slice(0, 200),
    parentUri: parent.uri,
    root,
    text: typeof r.text === 'string' ? r.text.slice(0, 10_000) : '',
    authorDid: author.did.slice(0, 200),
    authorHandle: typeof author.handle === 'string' ? author.handle.slice(0, 253) : null,
    createdAt: isTime(r.createdAt) ? new Date(r.createdAt).toISOString() : (n.indexedAt as string),
    indexedAt: n.indexedAt as string,
  };
}

/**
 * Where reading stands: `mark` is the newest notification taken (a high-water mark); `walk` is a
 * reading from the newest notification down to the mark that did not end in one tick, to go on
 * from its cursor, `top` becoming the mark once it reaches it.
 */
export interface BlueskyReplyCursor {
  mark?: BlueskyNotificationPosition;
  walk?: { cursor: string; top: BlueskyNotificationPosition };
}

export interface BlueskyReplyStep {
  /** Replies read on this page that are newer than the mark, oldest first. */
  replies: BlueskyReply[];
  /** Where to go on from; stored with the replies. */
  next: BlueskyReplyCursor;
  /** True when the mark (or `since`) was reached: nothing newer waits, until new notifications come. */
  done: boolean;
}

/**
 * Reads one page on from `state`. listNotifications pages backwards (to older notifications), so a
 * reading starts at the newest and goes down until it meets the mark; each page is one step, so a
 * reader bounds the pages of a tick and goes on next time from `next`. Without a mark (the first
 * reading) it goes down to `since` (an ISO time). Notifications as old as the mark are taken again
 * unless they are the mark itself: a reader stores comments once by their id.
 */
export async function readBlueskyReplies(
  api: BlueskyApiOptions,
  did: string,
  state: BlueskyReplyCursor,
  since?: string,
): Promise<BlueskyReplyStep> {
  const page = await listBlueskyReplyNotifications(api, did, state.walk?.cursor);
  const stop = state.mark ?? (since ? { at: since, uri: '' } : undefined);
  const replies: BlueskyReply[] = [];
  let reached = !stop;
  for (const item of page.items) {
    if (stop && !isNewer(item.position, stop)) {
      reached = true;
      break;
    }
    if (item.reply) replies.push(item.reply);
  }
  const newest = page.items.map((i) => i.position).reduce<BlueskyNotificationPosition | undefined>(newer, undefined);
  const top = state.walk?.top ?? newer(newest, state.mark);
  replies.reverse();
  if (reached || !page.cursor || !page.items.length) return { replies, next: top ? { mark: top } : {}, done: true };
  return {
    replies,
    next: { ...(state.mark && { mark: state.mark }), walk: { cursor: page.cursor, top: top! } },
    done: false,
  };
}

/** The cursor as the text stored between readings. */
export function blueskyReplyCursorText(state: BlueskyReplyCursor): string {
  return JSON.stringify(state);
}

/** A stored cursor read back; anything else is no cursor (the next reading starts anew). */
export function parseBlueskyReplyCursor(text: string | null | undefined): BlueskyReplyCursor {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    const position = (p: unknown) =>
      isObject(p) && isTime(p.at) && typeof p.uri === 'string' ? { at: p.at, uri: p.uri } : undefined;
    const mark = position(v.mark);
    const walk = isObject(v.walk) && typeof v.walk.cursor === 'string' ? v.walk : undefined;
    const top = walk && position(walk.top);
    return { ...(mark && { mark }), ...(walk && top && { walk: { cursor: walk.cursor as string, top } }) };
  } catch {
    return {};
  }
}

function isNewer(p: BlueskyNotificationPosition, than: BlueskyNotificationPosition): boolean {
  const a = Date.parse(p.at);
  const b = Date.parse(than.at);
  return a > b || (a === b && p.uri !== than.uri);
}

function newer(
  a: BlueskyNotificationPosition | undefined,
  b: BlueskyNotificationPosition | undefined,
): BlueskyNotificationPosition | undefined {
  if (!a || !b) return a ?? b;
  return Date.parse(b.at) > Date.parse(a.at) ? b : a;
}

export interface BlueskyCommentRef {
  /** The comment (a reply to the account's post): the new reply's `parent`. */
  uri: string;
  cid: string;
  /** Its thread's root: the new reply's `root`. */
  root: { uri: string; cid: string };
}

/**
 * Answers a comment with a post of the account in its thread (`reply: { root, parent }`,
 * https://docs.bsky.app/docs/advanced-guides/posts#replies-quote-posts-and-embeds), written with
 * com.atproto.repo.createRecord under a record key derived from the comment, so the same answer
 * has the same key: a second write of it is refused by the PDS (a bare 500), and the record found
 * under the key shows it was already sent. Facets (links, tags, mentions) are computed as for posts.
 */
export async function replyOnBluesky(
  api: BlueskyApiOptions,
  did: string,
  comment: BlueskyCommentRef,
  text: string,
  now: Date = new Date(),
): Promise<{ id: string }> {
  const rkey = blueskyReplyKey(comment.uri);
  const reply = {
    root: { uri: comment.root.uri, cid: comment.root.cid },
    parent: { uri: comment.uri, cid: comment.cid },
  };
  try {
    // https://docs.bsky.app/docs/api/com-atproto-repo-create-record
    const created = await createBlueskyPost(api, did, rkey, { text, reply, createdAt: now.toISOString() });
    return { id: created.uri };
  } catch (err) {
    if (!(err instanceof PlatformError) || err.tokenRejected || !(err.outcomeUnknown || (err.status ?? 0) >= 500))
      throw err;
    // https://docs.bsky.app/docs/api/com-atproto-repo-get-record
    const found = await getBlueskyPost(api, did, rkey).catch(() => undefined);
    const parent = found && isObject(found.value.reply) && strongRef(found.value.reply.parent);
    if (found && parent && parent.uri === comment.uri) return { id: found.uri };
    throw err;
  }
}

/**
 * The record key of the answer to a comment: a TID (https://atproto.com/specs/tid, the key type
 * app.bsky.feed.post requires) that is the same for the same comment. Its time is the comment's
 * own key's time (replies are keyed by TID) plus up to a second, its clock id from a digest of the
 * comment's uri; a comment keyed otherwise gets a time from the digest too.
 */
export function blueskyReplyKey(commentUri: string): string {
  const digest = createHash('sha256').update(`postbus-auto-reply ${commentUri}`).digest();
  const fromDigest = digest.readBigUInt64BE(0);
  const commentKey = parseBlueskyPostUri(commentUri)?.rkey ?? '';
  const micros = TID_PATTERN.test(commentKey)
    ? tidMicros(commentKey) + 1n + (fromDigest % 1_000_000n)
    : fromDigest >> 11n;
  return tidOf(micros, digest.readUInt16BE(8));
}

function strongRef(v: unknown): { uri: string; cid: string } | undefined {
  if (!isObject(v) || !isAtUri(v.uri) || typeof v.cid !== 'string' || !v.cid || v.cid.length > 200) return undefined;
  return { uri: v.uri, cid: v.cid };
}

function isAtUri(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 1000 && v.startsWith('at://');
}

function isTime(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 40 && Number.isFinite(Date.parse(v));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
