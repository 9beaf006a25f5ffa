import { PlatformError } from '../errors';
import { callMastodon, MASTODON_PLATFORM, type MastodonApiOptions } from './api';

/** Notifications read per call at most (the instance's own ceiling is 80). */
export const MASTODON_MENTIONS_PAGE = 40;

/** A status that mentions the account and answers one of its own statuses. */
export interface MastodonReplyMention {
  /** The notification's id: the cursor moves past it. */
  notificationId: string;
  statusId: string;
  /** The account's own status this one answers. */
  inReplyToId: string;
  text: string;
  authorId: string | null;
  /** The author's `acct` (`user` on the same instance, `user@host` elsewhere). */
  authorName: string | null;
  createdAt: string | null;
}

export interface MastodonMentionPage {
  /** Replies to the account's own statuses, oldest first. */
  replies: MastodonReplyMention[];
  /** The newest notification id read (the next cursor); undefined when none came. */
  newestId?: string;
  /** Mentions read that answer no status of the account (left alone). */
  ignored: number;
  /** True when a page after a cursor was full: more may wait past `newestId`. */
  more: boolean;
}

/**
 * Mentions of the account newer than `afterId` (`GET /api/v1/notifications?types[]=mention&min_id=…`,
 * https://docs.joinmastodon.org/methods/notifications/#get; entities
 * https://docs.joinmastodon.org/entities/Notification/ and https://docs.joinmastodon.org/entities/Status/).
 * `min_id` asks for the page immediately after the cursor, so a burst larger than one page is read
 * over several calls without a gap (`since_id` would skip to the newest page). Only mentions whose
 * status answers one of the account's statuses (`in_reply_to_account_id` = the account) are replies;
 * the account's own statuses are never taken. Without `afterId`, the newest page is read.
 */
export async function listMastodonReplyMentions(
  api: MastodonApiOptions,
  accountId: string,
  afterId: string | undefined,
): Promise<MastodonMentionPage> {
  // https://docs.joinmastodon.org/methods/notifications/#get
  const { body } = await callMastodon<unknown>(api, {
    method: 'GET',
    path: '/api/v1/notifications',
    query: {
      'types[]': 'mention',
      ...(afterId ? { min_id: afterId } : {}),
      limit: String(MASTODON_MENTIONS_PAGE),
    },
  });
  if (!Array.isArray(body))
    throw new PlatformError(`Mastodon (${api.instance}) answered GET /api/v1/notifications with no list.`, {
      platform: MASTODON_PLATFORM,
      transient: true,
      code: 'invalid_response',
    });
  const notes = body.filter(isObject).filter((n) => isId(n.id));
  const newestId = notes
    .map((n) => n.id as string)
    .sort(compareIds)
    .at(-1);
  const replies: MastodonReplyMention[] = [];
  for (const n of notes) {
    const reply = replyOf(n, accountId);
    if (reply) replies.push(reply);
  }
  replies.sort((a, b) => compareIds(a.notificationId, b.notificationId));
  return {
    replies,
    newestId,
    ignored: notes.length - replies.length,
    more: !!afterId && notes.length >= MASTODON_MENTIONS_PAGE,
  };
}

function replyOf(n: Record<string, unknown>, accountId: string): MastodonReplyMention | undefined {
  if (n.type !== 'mention' || !isObject(n.status)) return undefined;
  const s = n.status;
  const author = isObject(s.account) ? s.account : isObject(n.account) ? n.account : undefined;
  if (!isId(s.id) || !isId(s.in_reply_to_id) || !isId(n.id)) return undefined;
  if (idText(s.in_reply_to_account_id) !== accountId) return undefined;
  if (author && idText(author.id) === accountId) return undefined;
  return {
    notificationId: n.id,
    statusId: s.id,
    inReplyToId: s.in_reply_to_id,
    text: mastodonPlainText(typeof s.content === 'string' ? s.content : '').slice(0, 10_000),
    authorId: author && typeof author.id === 'string' ? author.id : null,
    authorName: author && typeof author.acct === 'string' ? author.acct.slice(0, 200) : null,
    createdAt: isoTime(s.created_at),
  };
}

/**
 * Answers a status (`POST /api/v1/statuses` with `in_reply_to_id`,
 * https://docs.joinmastodon.org/methods/statuses/#create). The Idempotency-Key makes a resend within
 * the instance's hour answer the first status instead of posting twice; the reply is public
 * (`visibility` omitted: the account's default).
 */
export async function replyOnMastodon(
  api: MastodonApiOptions,
  inReplyToId: string,
  text: string,
  idempotencyKey: string,
): Promise<{ id: string }> {
  // https://docs.joinmastodon.org/methods/statuses/#create
  const { body } = await callMastodon<Record<string, unknown>>(api, {
    method: 'POST',
    path: '/api/v1/statuses',
    form: { status: text, in_reply_to_id: inReplyToId },
    headers: { 'idempotency-key': idempotencyKey },
    write: true,
  });
  if (typeof body.id !== 'string')
    throw new PlatformError(`Mastodon (${api.instance}) answered the reply with no status id.`, {
      platform: MASTODON_PLATFORM,
      transient: false,
      code: 'invalid_response',
      outcomeUnknown: true,
    });
  return { id: body.id };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** A status's HTML `content` as plain text: paragraphs and line breaks become new lines, tags go, entities are read. */
export function mastodonPlainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, e: string) => ENTITIES[e])
    .replace(/&#(\d{1,7});/g, (_, d: string) => safeChar(Number(d)))
    .replace(/&#x([0-9a-f]{1,6});/gi, (_, h: string) => safeChar(parseInt(h, 16)))
    .trim();
}

function safeChar(code: number): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

/** Mastodon ids are numeric strings of growing length; compared as numbers, not as text. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Ids are short strings (digits on Mastodon itself); anything else is not taken. */
function isId(v: unknown): v is string {
  return typeof v === 'string' && /^[0-9A-Za-z_-]{1,64}$/.test(v);
}

/** A time the instance sent, as ISO 8601, or null when it is not one. */
function isoTime(v: unknown): string | null {
  const t = typeof v === 'string' && v.length <= 40 ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

/** An id as text: Mastodon sends strings; a number is read as its digits, anything else as none. */
function idText(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
