import type { Router } from 'express';
import { findPublished, reportedFigures } from '../insights/figures';
import type { SandboxState } from '../state';
import { passXrpcFault, sendXrpc, XrpcError } from './xrpc-http';

/** The AppView answers at most 25 URIs a call. */
const MAX_URIS = 25;

/**
 * `app.bsky.feed.getPosts` (https://docs.bsky.app/docs/api/app-bsky-feed-get-posts), which a PDS
 * proxies to its AppView: hydrated views of the posts named by `uris` (1 to 25 AT-URIs), no
 * session needed. A post that does not exist is left out of `posts`. The counts are the figures
 * the control API keeps (`/__sandbox/insights`): likes, replies from comments, reposts from shares,
 * no quotes. Fault operation `read`.
 */
export function feedPostsRoutes(router: Router, state: SandboxState): void {
  router.get('/xrpc/app.bsky.feed.getPosts', (req, res) => {
    if (!passXrpcFault(state, 'read', res)) return;
    const raw = req.query.uris;
    const uris = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
    if (!uris.length) throw new XrpcError(400, 'InvalidRequest', 'Error: Params must have the property "uris"');
    if (uris.length > MAX_URIS)
      throw new XrpcError(400, 'InvalidRequest', `Error: uris must not have more than ${MAX_URIS} elements`);
    const bad = uris.find((u) => !/^at:\/\/[^/\s]+(\/[^\s]*)?$/.test(u));
    if (bad) throw new XrpcError(400, 'InvalidRequest', 'Error: uris/0 must be a valid at-uri');
    const posts = uris.flatMap((uri) => {
      const record = state.bluesky.records.get(uri);
      const item = findPublished(state, 'bluesky', uri);
      return record && item ? [postView(record, item)] : [];
    });
    sendXrpc(state, res, { posts });
  });
}

function postView(
  record: { uri: string; cid: string; value: unknown; createdAt: number },
  item: NonNullable<ReturnType<typeof findPublished>>,
) {
  const f = reportedFigures(item);
  // at://{did}/app.bsky.feed.post/{rkey}
  const did = record.uri.split('/')[2];
  return {
    uri: record.uri,
    cid: record.cid,
    author: { did, handle: item.handle },
    record: record.value,
    replyCount: f.comments ?? 0,
    repostCount: f.shares ?? 0,
    likeCount: f.likes ?? 0,
    quoteCount: 0,
    bookmarkCount: 0,
    indexedAt: new Date(record.createdAt).toISOString(),
    labels: [],
  };
}
