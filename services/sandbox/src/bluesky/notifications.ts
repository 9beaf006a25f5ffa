import type { Router } from 'express';
import type { BlueskyRecord } from './store';
import type { Pds } from './routes';
import { sendXrpc, XrpcError } from './xrpc-http';

const POST = 'app.bsky.feed.post';
const NSID = 'app.bsky.notification.listNotifications';
/** How far up a thread a reply notifies the authors of the posts above it (the AppView's REPLY_NOTIF_DEPTH). */
const REPLY_NOTIF_DEPTH = 5;

interface Notification {
  record: BlueskyRecord;
  reason: 'mention' | 'reply';
  reasonSubject?: string;
}

/**
 * `app.bsky.notification.listNotifications` (https://docs.bsky.app/docs/api/app-bsky-notification-list-notifications),
 * which a PDS proxies to its AppView with the account's session, answered from the emulator's own
 * records as the reference AppView derives them: a post by another account that mentions the
 * account (its facets) is a `mention`; otherwise a reply under one of the account's posts, up to
 * five posts up the thread, is a `reply` whose reasonSubject is the nearest such post. Newest first
 * by indexedAt; `cursor` is the indexedAt of a full page's last notification, and the next page is
 * what is older (as the AppView pages, by time alone). `reasons` filters, `limit` is 1 to 100 (50),
 * `priority=true` lists only accounts followed (the sandbox keeps no follows: none), `seenAt` is
 * refused. Fault operation `read`.
 */
export function notificationRoutes(router: Router, pds: Pds): void {
  router.get(`/xrpc/${NSID}`, (req, res) => {
    const user = pds.authed(req, res);
    if (!pds.read(res)) return;
    const q = req.query as Record<string, unknown>;
    const limit = integerParam(q.limit, 50, 1, 100);
    const priority = booleanParam(q.priority);
    if (q.seenAt !== undefined) throw new XrpcError(400, 'InvalidRequest', 'The seenAt parameter is unsupported');
    const reasons = q.reasons === undefined ? undefined : [q.reasons].flat().map(String);
    let before = Infinity;
    if (q.cursor !== undefined) {
      before = typeof q.cursor === 'string' ? Date.parse(q.cursor) : NaN;
      // The reference AppView fails on a cursor that is no time; its PDS answers the failure as 502.
      if (!Number.isFinite(before)) throw new XrpcError(502, 'InternalServerError', 'Internal Server Error');
    }
    const did = pds.store.didOf(user);
    const all = priority
      ? []
      : notificationsOf(pds, did)
          .filter((n) => !reasons || reasons.includes(n.reason))
          .filter((n) => n.record.createdAt < before);
    const page = all.slice(0, limit);
    sendXrpc(pds.state, res, {
      notifications: page.map((n) => notificationView(pds, n)),
      ...(page.length === limit && all.length > 0 && { cursor: indexedAt(page[page.length - 1]) }),
      priority: priority ?? false,
    });
  });
}

/** Every notification of the account, newest first (ties by uri, for a stable order). */
function notificationsOf(pds: Pds, did: string): Notification[] {
  const out: Notification[] = [];
  for (const record of pds.store.records.values()) {
    if (record.collection !== POST || didOfUri(record.uri) === did) continue;
    const n = notificationFor(pds, record, did);
    if (n) out.push(n);
  }
  return out.sort((a, b) => b.record.createdAt - a.record.createdAt || (a.record.uri < b.record.uri ? 1 : -1));
}

/** One notification per post at most, mentions first, as the AppView's indexer notifies. */
function notificationFor(pds: Pds, record: BlueskyRecord, did: string): Notification | undefined {
  const value = record.value;
  const facets = Array.isArray(value.facets) ? (value.facets as { features?: unknown }[]) : [];
  const mentions = facets.some(
    (f) =>
      Array.isArray(f?.features) &&
      (f.features as Record<string, unknown>[]).some(
        (x) => x?.$type === 'app.bsky.richtext.facet#mention' && x.did === did,
      ),
  );
  if (mentions) return { record, reason: 'mention' };
  let parentUri = parentOf(value);
  for (let height = 0; parentUri && height < REPLY_NOTIF_DEPTH; height++) {
    const parent = pds.store.records.get(parentUri);
    // The AppView notifies only for posts it holds (reasonSubject must exist).
    if (!parent) return undefined;
    if (didOfUri(parentUri) === did) return { record, reason: 'reply', reasonSubject: parentUri };
    parentUri = parentOf(parent.value);
  }
  return undefined;
}

function notificationView(pds: Pds, n: Notification) {
  const authorDid = didOfUri(n.record.uri);
  const author = pds.userByDid(authorDid);
  return {
    uri: n.record.uri,
    cid: n.record.cid,
    author: {
      did: authorDid,
      handle: author ? pds.store.handleOf(author) : 'handle.invalid',
      viewer: { muted: false, blockedBy: false },
      labels: [],
    },
    reason: n.reason,
    ...(n.reasonSubject && { reasonSubject: n.reasonSubject }),
    record: n.record.value,
    isRead: false,
    indexedAt: indexedAt(n),
    labels: [],
  };
}

const indexedAt = (n: Notification) => new Date(n.record.createdAt).toISOString();
const didOfUri = (uri: string) => uri.split('/')[2] ?? '';

function parentOf(value: Record<string, unknown>): string | undefined {
  const reply = value.reply as { parent?: { uri?: unknown } } | undefined;
  return typeof reply?.parent?.uri === 'string' ? reply.parent.uri : undefined;
}

/** An integer parameter, refused in the reference AppView's words when it is none or out of range. */
function integerParam(raw: unknown, def: number, min: number, max: number): number {
  if (raw === undefined) return def;
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  if (!/^-?\d+$/.test(text))
    throw new XrpcError(400, 'InvalidRequest', `Invalid ${NSID} params: Expected integer value type (got "${text}")`);
  const n = Number(text);
  if (n < min)
    throw new XrpcError(400, 'InvalidRequest', `Invalid ${NSID} params: integer too small (minimum ${min}, got ${n})`);
  if (n > max)
    throw new XrpcError(400, 'InvalidRequest', `Invalid ${NSID} params: integer too big (maximum ${max}, got ${n})`);
  return n;
}

function booleanParam(raw: unknown): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new XrpcError(
    400,
    'InvalidRequest',
    `Invalid ${NSID} params: Expected boolean value type (got "${typeof raw === 'string' ? raw : JSON.stringify(raw)}")`,
  );
}
