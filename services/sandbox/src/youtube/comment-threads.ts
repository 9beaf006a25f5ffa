import type { Logger } from '@postbus/kit';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { record } from '../comments/post-comment-routes';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import {
  YouTubeError,
  badRequest,
  passYouTubeFault,
  youtubeAuth,
  youtubeErrorHandler,
  youtubeGate,
  youtubeUser,
} from './http';

const FORCE_SSL = 'https://www.googleapis.com/auth/youtube.force-ssl';
/** Google's broader scope that includes force-ssl's rights. */
const FULL = 'https://www.googleapis.com/auth/youtube';
/** The longest comment YouTube takes (longer: badRequest commentTextTooLong). */
const COMMENT_MAX = 10_000;

/**
 * www.googleapis.com (`/youtube`): `POST /v3/commentThreads?part=snippet`, a top-level comment on the
 * channel's own video, and `GET /v3/commentThreads?part=snippet&videoId=…`, newest first
 * (https://developers.google.com/youtube/v3/docs/commentThreads/insert, …/list). Inserting needs
 * youtube.force-ssl: a channel whose grant was narrowed without it gets 403 insufficientPermissions.
 */
export function youtubeCommentThreadsRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  router.post(
    '/v3/commentThreads',
    express.json(),
    ...youtubeGate(state),
    youtubeAuth(state),
    insertCommentThread(state),
  );
  router.get('/v3/commentThreads', ...youtubeGate(state), youtubeAuth(state), listCommentThreads(state));
  router.use(youtubeErrorHandler(state, logger));
  return router;
}

/** `commentThreads.insert`: checks the part, the scopes and the snippet, then records the comment on the video. */
function insertCommentThread(state: SandboxState): RequestHandler {
  return (req: Request, res: Response) => {
    if (!passYouTubeFault(state, 'comment', res)) return;
    const user = youtubeUser(res);
    if (!queryString(req, 'part').split(',').includes('snippet'))
      throw badRequest('missingRequiredParameter', 'No part selected: set part=snippet.');
    if (!grantsComments(state, user))
      throw new YouTubeError(
        403,
        'insufficientPermissions',
        'Request had insufficient authentication scopes.',
        'global',
      );
    const { videoId, text } = readCommentSnippet(state, req.body);
    const id = `Ug${state.ids.token('')}`;
    const comment = record(state, {
      platform: 'youtube',
      id,
      postId: videoId,
      accountId: user.userId,
      text,
      permalink: `https://www.youtube.com/watch?v=${videoId}&lc=${id}`,
    });
    const thread = threadResource(comment.id, user, videoId, text, comment.createdAt);
    if (res.locals.swallowAnswer) return state.held.hold(res);
    res.json(thread);
  };
}

/** The video and text of an insert body, checked in YouTube's order: metadata, length, then the video and its channel. */
function readCommentSnippet(state: SandboxState, body: unknown): { videoId: string; text: string } {
  const snippet = ((body as Record<string, unknown> | undefined)?.snippet ?? {}) as Record<string, unknown>;
  const videoId = typeof snippet.videoId === 'string' ? snippet.videoId : '';
  const text = ((
    (snippet.topLevelComment as Record<string, unknown> | undefined)?.snippet as Record<string, unknown> | undefined
  )?.textOriginal ?? '') as unknown;
  if (typeof snippet.channelId !== 'string' || !snippet.channelId)
    throw badRequest('invalidCommentMetadata', 'The request metadata is invalid: snippet.channelId is required.');
  if (typeof text !== 'string' || !text.trim())
    throw badRequest(
      'invalidCommentMetadata',
      'The request metadata is invalid: snippet.topLevelComment.snippet.textOriginal is required.',
    );
  if ([...text].length > COMMENT_MAX)
    throw badRequest(
      'commentTextTooLong',
      'The comment resource contains too many characters in the snippet.topLevelComment.snippet.textOriginal property.',
    );
  const video = state.youtube.videos.get(videoId);
  if (!video?.published)
    throw new YouTubeError(
      404,
      'videoNotFound',
      'The video identified by the videoId parameter could not be found.',
      'youtube.commentThread',
    );
  if (snippet.channelId !== video.userId)
    throw new YouTubeError(
      404,
      'channelNotFound',
      'The channel identified by snippet.channelId could not be found.',
      'youtube.commentThread',
    );
  return { videoId, text };
}

/** `commentThreads.list` by videoId: the comments recorded on a published video, newest first. */
function listCommentThreads(state: SandboxState): RequestHandler {
  return (req: Request, res: Response) => {
    if (!passYouTubeFault(state, 'read', res)) return;
    const user = youtubeUser(res);
    const videoId = queryString(req, 'videoId');
    if (!videoId)
      throw badRequest(
        'missingRequiredParameter',
        'No filter selected. Expected one of: videoId, allThreadsRelatedToChannelId, id.',
      );
    if (!state.youtube.videos.get(videoId)?.published)
      throw new YouTubeError(
        404,
        'videoNotFound',
        'The video identified by the videoId parameter could not be found.',
        'youtube.commentThread',
      );
    const items = state.comments.postComments
      .filter((c) => c.platform === 'youtube' && c.postId === videoId)
      .reverse()
      .map((c) =>
        threadResource(
          c.id,
          c.accountId === user.userId ? user : { userId: c.accountId },
          videoId,
          c.text,
          c.createdAt,
        ),
      );
    res.json({
      kind: 'youtube#commentThreadListResponse',
      pageInfo: { totalResults: items.length, resultsPerPage: items.length },
      items,
    });
  };
}

const queryString = (req: Request, name: string): string => {
  const value = req.query[name];
  return typeof value === 'string' ? value : '';
};

/** Whether the channel's grants allow comments: a grant narrowed (`POST /__sandbox/oauth/scopes`) without force-ssl does not. */
function grantsComments(state: SandboxState, user: SandboxUser): boolean {
  const narrowed = [...state.oauth.refreshTokens.values()].filter((g) => g.userId === user.userId && g.scopes);
  return narrowed.length === 0 || narrowed.some((g) => g.scopes!.includes(FORCE_SSL) || g.scopes!.includes(FULL));
}

function threadResource(
  id: string,
  author: Pick<SandboxUser, 'userId'>,
  videoId: string,
  text: string,
  at: string,
): Record<string, unknown> {
  return {
    kind: 'youtube#commentThread',
    etag: 'sandbox',
    id,
    snippet: {
      channelId: author.userId,
      videoId,
      topLevelComment: {
        kind: 'youtube#comment',
        etag: 'sandbox',
        id,
        snippet: {
          channelId: author.userId,
          videoId,
          textDisplay: text,
          textOriginal: text,
          authorChannelId: { value: author.userId },
          canRate: true,
          likeCount: 0,
          publishedAt: at,
          updatedAt: at,
        },
      },
      canReply: true,
      totalReplyCount: 0,
      isPublic: true,
    },
  };
}
