import { PlatformError } from '../errors';
import { answerTooLarge, readBoundedAnswer, type BoundedAnswer } from '../http/bounded-answer';
import { parseJson } from '../meta/graph-request';
import { YOUTUBE_ANSWER_MAX_BYTES, youtubeErrorFromResponse } from './errors';
import type { YouTubeDataApiOptions } from './insights';

const platform = 'youtube' as const;

/** What YouTube's comment errors mean for a first comment (https://developers.google.com/youtube/v3/docs/commentThreads/insert#errors). */
const COMMENT_REFUSALS: Record<string, string> = {
  insufficientPermissions:
    'The channel has not granted https://www.googleapis.com/auth/youtube.force-ssl, which comments need; reconnect it and grant it.',
  ACCESS_TOKEN_SCOPE_INSUFFICIENT:
    'The channel has not granted https://www.googleapis.com/auth/youtube.force-ssl, which comments need; reconnect it and grant it.',
  commentTextTooLong: 'YouTube refused the comment: it is too long.',
  commentsDisabled: 'YouTube refused the comment: comments are turned off on this video.',
  forbidden:
    'YouTube refused the comment: the channel may not comment on this video (comments may be turned off or held for review).',
  ineligibleAccount:
    'YouTube refused the comment: the channel is not eligible to comment (it must be a YouTube channel linked to the account).',
  videoNotFound: 'YouTube refused the comment: the video was not found (it may still be processing, or was deleted).',
  processingFailure: 'YouTube could not process the comment.',
};

async function send(
  api: YouTubeDataApiOptions,
  method: 'GET' | 'POST',
  pathAndQuery: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const url = `${api.apiUrl.replace(/\/+$/, '')}/${pathAndQuery}`;
  let res: Response;
  let answer: BoundedAnswer;
  try {
    const headers: Record<string, string> = {
      authorization: `Bearer ${api.accessToken}`,
      accept: 'application/json',
      ...(body !== undefined && { 'content-type': 'application/json' }),
    };
    res = await (api.fetchImpl ?? fetch)(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(api.timeoutMs ?? 30_000),
    });
    answer = await readBoundedAnswer(res, YOUTUBE_ANSWER_MAX_BYTES);
  } catch (cause) {
    const name = (cause as { name?: string }).name;
    const timedOut = name === 'TimeoutError' || name === 'AbortError';
    // A POST whose answer never came may have been carried out: the caller checks before sending it again.
    throw new PlatformError(
      timedOut
        ? 'YouTube did not answer the comment in time; it may or may not have been posted.'
        : 'The connection to YouTube broke before it answered the comment; it may or may not have been posted.',
      {
        platform,
        transient: true,
        outcomeUnknown: method === 'POST',
        code: timedOut ? 'timeout' : 'network_error',
        cause,
      },
    );
  }
  // A comment YouTube took but answered too long to read may have been posted: the caller looks for it before sending again.
  if (res.ok && answer.cut)
    throw answerTooLarge(platform, `${method} /${pathAndQuery.split('?')[0]}`, YOUTUBE_ANSWER_MAX_BYTES, {
      status: res.status,
      outcomeUnknown: method === 'POST',
    });
  const parsed = parseJson(answer.text) as Record<string, unknown> | undefined;
  if (res.ok && parsed) return parsed;
  const err = youtubeErrorFromResponse(res.status, res.headers, parsed ?? answer.text);
  const refusal = err.code ? COMMENT_REFUSALS[err.code] : undefined;
  if (err.transient || err.tokenRejected || !refusal) return Promise.reject(err);
  throw new PlatformError(refusal, { platform, transient: false, code: err.code, status: res.status });
}

/**
 * A top-level comment on the channel's own video: `POST /commentThreads?part=snippet` with
 * `snippet.channelId`, `snippet.videoId` and `snippet.topLevelComment.snippet.textOriginal`
 * (https://developers.google.com/youtube/v3/docs/commentThreads/insert; needs youtube.force-ssl).
 */
export async function insertYouTubeComment(
  api: YouTubeDataApiOptions,
  c: { channelId: string; videoId: string; text: string },
): Promise<{ id: string }> {
  const body = await send(api, 'POST', 'commentThreads?part=snippet', {
    snippet: { channelId: c.channelId, videoId: c.videoId, topLevelComment: { snippet: { textOriginal: c.text } } },
  });
  if (typeof body.id !== 'string' || !body.id)
    throw new PlatformError('YouTube accepted the comment but answered without its id.', {
      platform,
      transient: false,
      code: 'unreadable_answer',
    });
  return { id: body.id };
}

/**
 * The channel's own top-level comment with this text on the video, if there is one:
 * `GET /commentThreads?part=snippet&videoId=…&order=time` (https://developers.google.com/youtube/v3/docs/commentThreads/list),
 * newest first. How a comment whose answer was lost is found again.
 */
export async function findOwnYouTubeComment(
  api: YouTubeDataApiOptions,
  c: { channelId: string; videoId: string; text: string },
): Promise<{ id: string } | undefined> {
  const body = await send(
    api,
    'GET',
    `commentThreads?part=snippet&videoId=${encodeURIComponent(c.videoId)}&order=time&maxResults=50&textFormat=plainText`,
  );
  const items = Array.isArray(body.items) ? (body.items as Record<string, unknown>[]) : [];
  for (const item of items) {
    const top = (
      (item.snippet as Record<string, unknown> | undefined)?.topLevelComment as Record<string, unknown> | undefined
    )?.snippet as Record<string, unknown> | undefined;
    const author = (top?.authorChannelId as { value?: unknown } | undefined)?.value;
    if (
      author === c.channelId &&
      (top?.textOriginal === c.text || top?.textDisplay === c.text) &&
      typeof item.id === 'string'
    )
      return { id: item.id };
  }
  return undefined;
}
