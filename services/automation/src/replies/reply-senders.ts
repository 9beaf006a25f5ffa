import { isPlatform } from '@postbus/contracts';
import {
  BLUESKY_PLATFORM,
  blueskyApiFor,
  parseMastodonUserId,
  PlatformError,
  replyOnBluesky,
  replyOnMastodon,
  replyOnThreads,
  replyToFacebookComment,
  replyToInstagramComment,
  sendFacebookPrivateReply,
  sendInstagramPrivateReply,
} from '@postbus/platforms';
import type { ReplyRequest } from './answer.ports';

export interface ReplyApis {
  instagramApiUrl: string;
  facebookApiUrl: string;
  threadsApiUrl: string;
  /** Mastodon instance URL template (`{instance}` stands for the host). */
  mastodonInstanceUrl: string;
  timeoutMs: number;
  /** Pause between status checks of a Threads reply container. */
  pollIntervalMs: number;
  /** The PDS of app-password Bluesky profiles; OAuth profiles name their own. */
  blueskyServiceUrl: string;
  fetchImpl?: typeof fetch;
}

/**
 * The platform call behind each action. Instagram threads replies one level deep, so a public reply
 * to a reply goes under the comment it answers; Facebook, Threads, Mastodon and Bluesky nest a reply under a reply.
 */
export function platformReplySender(apis: ReplyApis) {
  return (r: ReplyRequest): Promise<{ id: string }> => {
    const common = { accessToken: r.accessToken, timeoutMs: apis.timeoutMs, fetchImpl: apis.fetchImpl };
    if (r.platform === 'instagram') {
      const api = { ...common, baseUrl: apis.instagramApiUrl };
      return r.action === 'private_reply'
        ? sendInstagramPrivateReply(api, r.platformUserId, r.comment.commentId, r.text)
        : replyToInstagramComment(api, r.comment.parentId ?? r.comment.commentId, r.text);
    }
    if (r.platform === 'facebook') {
      const api = { ...common, baseUrl: apis.facebookApiUrl };
      return r.action === 'private_reply'
        ? sendFacebookPrivateReply(api, r.platformUserId, r.comment.commentId, r.text)
        : replyToFacebookComment(api, r.comment.commentId, r.text);
    }
    if (r.platform === 'threads' && r.action === 'reply') {
      return replyOnThreads(
        {
          ...common,
          baseUrl: apis.threadsApiUrl,
          userId: r.platformUserId,
          pollIntervalMs: apis.pollIntervalMs,
          maxPolls: 30,
        },
        r.comment.commentId,
        r.text,
      );
    }
    if (r.platform === 'mastodon' && r.action === 'reply') {
      const { instance } = parseMastodonUserId(r.platformUserId);
      // The comment is answered once; the key makes a resend within the instance's hour answer the first status.
      return replyOnMastodon(
        {
          instances: { baseUrlTemplate: apis.mastodonInstanceUrl },
          instance,
          accessToken: r.accessToken,
          timeoutMs: apis.timeoutMs,
        },
        r.comment.commentId,
        r.text,
        `postbus-auto-reply-${r.comment.commentId}`,
      );
    }
    if (r.platform === 'bluesky' && r.action === 'reply') return replyToBlueskyComment(apis, r);
    const platform = isPlatform(r.platform) ? r.platform : 'instagram';
    return Promise.reject(
      new PlatformError(
        `Postbus cannot ${r.action === 'private_reply' ? 'send private replies to' : 'answer'} ${r.platform} comments.`,
        { platform, transient: false, code: 'unsupported_platform' },
      ),
    );
  };
}

/**
 * A Bluesky reply in the comment's thread: its root is the comment's own root, its parent the
 * comment. Its record key comes from the comment, so a resend is refused by the PDS, never doubled.
 */
function replyToBlueskyComment(apis: ReplyApis, r: ReplyRequest): Promise<{ id: string }> {
  const thread = r.comment.thread;
  if (!thread)
    return Promise.reject(
      new PlatformError('The Bluesky comment came without its thread (root and cid); it cannot be answered.', {
        platform: BLUESKY_PLATFORM,
        transient: false,
        code: 'reply_parent_missing',
      }),
    );
  // An OAuth profile is written to its own PDS with DPoP; an app-password profile to the configured service.
  const api = blueskyApiFor(
    { accessToken: r.accessToken, serviceUrl: r.serviceUrl, dpopJwk: r.dpopJwk },
    { serviceUrl: apis.blueskyServiceUrl, timeoutMs: apis.timeoutMs, access: { allowLoopback: false } },
  );
  // https://docs.bsky.app/docs/api/com-atproto-repo-create-record
  return replyOnBluesky(
    apis.fetchImpl ? { ...api, fetchImpl: apis.fetchImpl } : api,
    r.platformUserId,
    { uri: r.comment.commentId, cid: thread.cid, root: { uri: thread.rootUri, cid: thread.rootCid } },
    r.text,
  );
}
