import type { CommentReceived } from '@postbus/contracts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const id = (v: unknown): string | null =>
  typeof v === 'string' && v ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** Longest comment text carried on; platforms cap comments well below it. */
const TEXT_MAX = 8000;

/**
 * The new comments in a Meta webhook body: Instagram `comments`/`live_comments` (inside `changes[]`
 * or, as in the Business Login example, `field`/`value` straight in the entry), Facebook Page
 * `feed` changes with `item: comment, verb: add`, and Threads `replies`. Everything else
 * (reactions, edits, other fields, malformed items) is not a comment to answer and is left out.
 */
export function parseMetaComments(payload: unknown, receivedAt: Date): CommentReceived[] {
  if (isObj(payload) && 'values' in payload && 'target_id' in payload) return threadsReplies(payload, receivedAt);
  if (!isObj(payload) || !Array.isArray(payload.entry)) return [];
  const platform = payload.object === 'instagram' ? 'instagram' : payload.object === 'page' ? 'facebook' : null;
  if (!platform) return [];
  const out: CommentReceived[] = [];
  for (const entry of payload.entry) {
    if (!isObj(entry)) continue;
    const accountId = id(entry.id);
    if (!accountId) continue;
    const changes = Array.isArray(entry.changes)
      ? entry.changes
      : 'field' in entry
        ? [{ field: entry.field, value: entry.value }]
        : [];
    for (const change of changes) {
      if (!isObj(change) || !isObj(change.value)) continue;
      const comment =
        platform === 'instagram'
          ? instagramComment(change, accountId, receivedAt)
          : facebookComment(change, accountId, receivedAt);
      if (comment) out.push(comment);
    }
  }
  return out;
}

function instagramComment(change: Obj, accountId: string, receivedAt: Date): CommentReceived | null {
  if (change.field !== 'comments' && change.field !== 'live_comments') return null;
  const v = change.value as Obj;
  const commentId = id(v.id);
  const body = text(v.text);
  if (!commentId || body === null) return null;
  const from = isObj(v.from) ? v.from : {};
  const media = isObj(v.media) ? v.media : {};
  return {
    platform: 'instagram',
    platformAccountId: accountId,
    commentId,
    postId: id(media.id),
    parentId: id(v.parent_id),
    text: body.slice(0, TEXT_MAX),
    authorId: id(from.id),
    authorName: text(from.username),
    receivedAt: receivedAt.toISOString(),
  };
}

function facebookComment(change: Obj, pageId: string, receivedAt: Date): CommentReceived | null {
  const v = change.value as Obj;
  if (change.field !== 'feed' || v.item !== 'comment' || v.verb !== 'add') return null;
  const commentId = id(v.comment_id);
  if (!commentId) return null;
  const from = isObj(v.from) ? v.from : {};
  const postId = id(v.post_id);
  const parentId = id(v.parent_id);
  return {
    platform: 'facebook',
    platformAccountId: pageId,
    commentId,
    postId,
    // A top-level comment names its post as parent.
    parentId: parentId && parentId !== postId ? parentId : null,
    text: (text(v.message) ?? '').slice(0, TEXT_MAX),
    authorId: id(from.id),
    authorName: text(from.name),
    receivedAt: receivedAt.toISOString(),
  };
}

/**
 * Threads `replies` (topic `moderate`): `values` holds `{ field, value }` (one, or a list). The
 * account is the one the subscription is for (`target_id`), the owner of the root post.
 */
function threadsReplies(payload: Obj, receivedAt: Date): CommentReceived[] {
  const values = Array.isArray(payload.values) ? payload.values : [payload.values];
  const out: CommentReceived[] = [];
  for (const item of values) {
    if (!isObj(item) || item.field !== 'replies' || !isObj(item.value)) continue;
    const v = item.value;
    const root = isObj(v.root_post) ? v.root_post : {};
    const repliedTo = isObj(v.replied_to) ? v.replied_to : {};
    const accountId = id(payload.target_id) ?? id(root.owner_id);
    const commentId = id(v.id);
    const body = text(v.text);
    if (!accountId || !commentId || body === null) continue;
    const postId = id(root.id);
    const parentId = id(repliedTo.id);
    out.push({
      platform: 'threads',
      platformAccountId: accountId,
      commentId,
      postId,
      parentId: parentId && parentId !== postId ? parentId : null,
      text: body.slice(0, TEXT_MAX),
      authorId: null,
      authorName: text(v.username),
      receivedAt: receivedAt.toISOString(),
    });
  }
  return out;
}
