import { callThreads, type ThreadsApiOptions } from './api';
import { createThreadsContainer, waitForThreadsContainer, type WaitOptions } from './container';
import { threadsTextTooLong } from './errors';
import { publishThreadsContainer } from './publish';
import { THREADS_TEXT_MAX, threadsTextLength } from './text';

export interface ThreadsReplyOptions extends ThreadsApiOptions, WaitOptions {
  /** The Threads user answering: the owner of the post the reply is under. */
  userId: string;
}

/**
 * A reply under a Threads reply (or post): a TEXT container with `reply_to_id`, published once it
 * is FINISHED (`threads_manage_replies`). Answers the reply's Threads media id. A PlatformError with
 * `outcomeUnknown` means the publish call may have gone through unanswered.
 */
export async function replyOnThreads(
  opts: ThreadsReplyOptions,
  replyToId: string,
  text: string,
): Promise<{ id: string }> {
  const length = threadsTextLength(text);
  if (length > THREADS_TEXT_MAX) throw threadsTextTooLong(length);
  const containerId = await createThreadsContainer(opts, { media_type: 'TEXT', text, reply_to_id: replyToId });
  await waitForThreadsContainer({ ...opts, containerId });
  const { platformPostId } = await publishThreadsContainer({ ...opts, containerId });
  return { id: platformPostId };
}

/**
 * The user's own reply with this text directly under `parentId`, if there is one:
 * `GET /{threads-media-id}/replies?fields=id,text,username,permalink`
 * (https://developers.facebook.com/docs/threads/reference/reply-management), newest first.
 * How a reply whose publish went unanswered is found again.
 */
export async function findThreadsReply(
  opts: ThreadsApiOptions,
  parentId: string,
  username: string,
  text: string,
): Promise<{ id: string; permalink: string | null } | undefined> {
  const body = await callThreads(opts, 'GET', [parentId, 'replies'], {
    query: { fields: 'id,text,username,permalink', reverse: 'true' },
  });
  const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
  const own = data.find((r) => r.text === text && r.username === username);
  if (!own || typeof own.id !== 'string') return undefined;
  return { id: own.id, permalink: typeof own.permalink === 'string' && own.permalink ? own.permalink : null };
}
