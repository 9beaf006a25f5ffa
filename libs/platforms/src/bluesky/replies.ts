import { PlatformError } from '../errors';
import { BLUESKY_PLATFORM, type BlueskyApiOptions } from './api';
import { getBlueskyPost, type StrongRef } from './publish';

/** An app.bsky.feed.post's at-uri split: `at://{did}/app.bsky.feed.post/{rkey}` (https://atproto.com/specs/at-uri-scheme). */
export function parseBlueskyPostUri(uri: string): { did: string; rkey: string } | undefined {
  const m = /^at:\/\/(did:[a-z]+:[a-zA-Z0-9._:%-]+)\/app\.bsky\.feed\.post\/([a-zA-Z0-9._:~-]{1,512})$/.exec(uri);
  return m ? { did: m[1], rkey: m[2] } : undefined;
}

/**
 * The strong reference (uri and the current cid) a reply names its root and parent by
 * (https://docs.bsky.app/docs/advanced-guides/posts#replies-quote-posts-and-embeds), read from the
 * post's repository with com.atproto.repo.getRecord. A post that is gone cannot be answered.
 */
export async function blueskyStrongRef(api: BlueskyApiOptions, uri: string): Promise<StrongRef> {
  const parts = parseBlueskyPostUri(uri);
  // https://docs.bsky.app/docs/api/com-atproto-repo-get-record
  const found = parts && (await getBlueskyPost(api, parts.did, parts.rkey));
  if (!found)
    throw new PlatformError(`The Bluesky post ${uri} to reply to is not there (deleted, or not a post).`, {
      platform: BLUESKY_PLATFORM,
      transient: false,
      code: 'reply_parent_missing',
    });
  return { uri: found.uri, cid: found.cid };
}
