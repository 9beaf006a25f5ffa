import express, { Router } from 'express';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { mastodonAccountOf } from './store';

/** A mention of a sandbox account by someone on another instance: the notification and the status that mentions. */
export interface MastodonMentionNotification {
  id: string;
  instance: string;
  /** The sandbox user mentioned. */
  userId: string;
  createdAt: string;
  from: { id: string; username: string; instance: string };
  status: { id: string; inReplyToId: string | null; inReplyToAccountId: string | null; text: string };
}

const PAGE_DEFAULT = 40;
const PAGE_MAX = 80;

/**
 * The answer of `GET /api/v1/notifications` (https://docs.joinmastodon.org/methods/notifications/#get)
 * for the account, mentions only (the sandbox records no other kind): `types[]`/`exclude_types[]`,
 * `max_id`, `since_id`, `min_id` (the page immediately newer), `limit` (40, at most 80), newest first.
 */
export function mentionNotifications(state: SandboxState, user: SandboxUser, q: Record<string, unknown>) {
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);
  const types = list(q.types ?? q['types[]']);
  const excluded = list(q.exclude_types ?? q['exclude_types[]']);
  const wanted = (!types.length || types.includes('mention')) && !excluded.includes('mention');
  const idOf = (v: unknown) => (typeof v === 'string' && /^\d{1,30}$/.test(v) ? BigInt(v) : undefined);
  const [maxId, sinceId, minId] = [idOf(q.max_id), idOf(q.since_id), idOf(q.min_id)];
  const limit = Math.min(PAGE_MAX, Math.max(1, Number(q.limit) || PAGE_DEFAULT));
  const mine = [...state.mastodon.notifications.values()]
    .filter((n) => wanted && n.userId === user.userId)
    .filter((n) => (maxId === undefined || BigInt(n.id) < maxId) && (sinceId === undefined || BigInt(n.id) > sinceId))
    .filter((n) => minId === undefined || BigInt(n.id) > minId)
    .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1));
  const page = minId === undefined ? mine.slice(0, limit) : mine.slice(-limit);
  return page.map((n) => notificationBody(state, n));
}

function notificationBody(state: SandboxState, n: MastodonMentionNotification) {
  const account = {
    id: n.from.id,
    username: n.from.username,
    acct: `${n.from.username}@${n.from.instance}`,
    display_name: n.from.username,
    url: `https://${n.from.instance}/@${n.from.username}`,
  };
  const mentioned = state.users.get(n.userId);
  const username = mentioned ? mastodonAccountOf(mentioned.handle).username : n.userId;
  return {
    id: n.id,
    type: 'mention',
    created_at: n.createdAt,
    account,
    status: {
      id: n.status.id,
      created_at: n.createdAt,
      in_reply_to_id: n.status.inReplyToId,
      in_reply_to_account_id: n.status.inReplyToAccountId,
      visibility: 'public',
      content: `<p><span class="h-card"><a href="https://${n.instance}/@${username}" class="u-url mention">@<span>${esc(username)}</span></a></span> ${esc(n.status.text)}</p>`,
      url: `https://${n.from.instance}/@${n.from.username}/${n.status.id}`,
      account,
      mentions: [{ id: n.userId, username, acct: username }],
    },
  };
}

/**
 * The status a new one answers (`in_reply_to_id`): one of the instance's statuses or a status
 * that mentioned one of its accounts. Mastodon answers 404 for a status it does not know.
 */
export function mastodonReplyTarget(
  state: SandboxState,
  raw: unknown,
): { inReplyToId: string; inReplyToAccountId: string } | undefined | 'unknown' {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string' && typeof raw !== 'number') return 'unknown';
  const id = String(raw);
  const local = state.mastodon.statuses.get(id);
  if (local) return { inReplyToId: id, inReplyToAccountId: local.userId };
  for (const n of state.mastodon.notifications.values())
    if (n.status.id === id) return { inReplyToId: id, inReplyToAccountId: n.from.id };
  return 'unknown';
}

/**
 * `/__sandbox/mastodon`: another instance's user mentions a sandbox account.
 *
 * - POST /mentions {userId, text, statusId?, replyTo?, from?: {username?, instance?}} → 201 {notificationId, statusId, inReplyToId}:
 *   a reply to `statusId` (default: the account's newest status; another account's status: a reply in someone
 *   else's thread that mentions it) that mentions it; `replyTo: false` mentions without answering.
 * - GET /replies?statusId= → the sandbox statuses that answer it, oldest first.
 */
export function mastodonControlRouter(state: SandboxState): Router {
  const router = Router();
  router.use(express.json());
  router.post('/mentions', (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const user = typeof b.userId === 'string' ? state.users.get(b.userId) : undefined;
    if (!user || user.platform !== 'mastodon')
      return void res.status(404).json({ error: 'No sandbox Mastodon user with that userId.', code: 'not_found' });
    if (typeof b.text !== 'string' || b.text.length > 5000)
      return void res
        .status(400)
        .json({ error: 'text is required (at most 5000 characters).', code: 'validation_error' });
    const own = [...state.mastodon.statuses.values()].filter((s) => s.userId === user.userId);
    const target = typeof b.statusId === 'string' ? b.statusId : own.at(-1)?.id;
    const answered = target ? state.mastodon.statuses.get(target) : undefined;
    if (b.replyTo !== false && !answered)
      return void res
        .status(400)
        .json({ error: 'statusId must name a sandbox status (the account has none yet).', code: 'validation_error' });
    const from = (typeof b.from === 'object' && b.from ? b.from : {}) as Record<string, unknown>;
    const now = state.now();
    const instance = mastodonAccountOf(user.handle).instance;
    const n: MastodonMentionNotification = {
      id: state.mastodon.nextId(now),
      instance,
      userId: user.userId,
      createdAt: new Date(now).toISOString(),
      from: {
        id: state.mastodon.nextId(now),
        username: typeof from.username === 'string' ? from.username : 'visitor',
        instance: typeof from.instance === 'string' ? from.instance : 'elsewhere.example',
      },
      status: {
        id: state.mastodon.nextId(now),
        inReplyToId: b.replyTo === false ? null : target!,
        inReplyToAccountId: b.replyTo === false ? null : answered!.userId,
        text: b.text,
      },
    };
    state.mastodon.notifications.set(n.id, n);
    res.status(201).json({ notificationId: n.id, statusId: n.status.id, inReplyToId: n.status.inReplyToId });
  });
  router.get('/replies', (req, res) => {
    const statusId = typeof req.query.statusId === 'string' ? req.query.statusId : '';
    const replies = [...state.mastodon.statuses.values()]
      .filter((s) => s.inReplyToId === statusId)
      .map((s) => ({ id: s.id, userId: s.userId, text: s.text, visibility: s.visibility }));
    res.json(replies);
  });
  return router;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
