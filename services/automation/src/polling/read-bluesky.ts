import type { CommentReceived, Credentials } from '@postbus/contracts';
import {
  blueskyApiFor,
  blueskyReplyCursorText,
  parseBlueskyReplyCursor,
  readBlueskyReplies,
  type BlueskyReply,
} from '@postbus/platforms';
import type { PollPorts } from './poll-comments.use-case';
import { PAGES_PER_PROFILE, storePolledComments, type PolledProfile } from './store-polled-comments';

/**
 * Replies to a Bluesky profile's own posts since its high-water mark, a few pages at most: the
 * notifications are listed newest first, so a reading goes down until it meets the mark, and one
 * that did not get there in this tick goes on from where it stopped next time (the cursor stored
 * with each page). Without a mark (the first reading), it goes down to when the template was last
 * imported: older replies were there before auto-reply was switched on.
 */
export async function readBluesky(
  ports: PollPorts,
  who: PolledProfile,
  creds: Credentials,
  cursor: string | undefined,
  enabledAt: Date,
): Promise<number> {
  // An OAuth profile is read from its own PDS with DPoP; an app-password profile from the configured service.
  const api = blueskyApiFor(creds, {
    serviceUrl: ports.blueskyServiceUrl,
    timeoutMs: ports.timeoutMs,
    access: { allowLoopback: false },
  });
  let state = parseBlueskyReplyCursor(cursor);
  let stored = 0;
  for (let page = 0; page < PAGES_PER_PROFILE; page++) {
    // https://docs.bsky.app/docs/api/app-bsky-notification-list-notifications
    const step = await readBlueskyReplies(api, creds.platformUserId, state, enabledAt.toISOString());
    const comments = step.replies.map((r) => commentOf(r, creds.platformUserId));
    stored += await storePolledComments(ports, who, comments, blueskyReplyCursorText(step.next));
    if (step.done) break;
    state = step.next;
  }
  return stored;
}

/** A Bluesky reply as the inbox holds a comment: the account's post it answers is its post. */
function commentOf(r: BlueskyReply, did: string): CommentReceived {
  return {
    platform: 'bluesky',
    platformAccountId: did,
    commentId: r.uri,
    postId: r.parentUri,
    parentId: null,
    text: r.text,
    authorId: r.authorDid,
    authorName: r.authorHandle,
    receivedAt: r.createdAt,
    thread: { cid: r.cid, rootUri: r.root.uri, rootCid: r.root.cid },
  };
}
