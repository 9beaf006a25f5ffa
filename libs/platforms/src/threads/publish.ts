import { PlatformError, isPlatformError } from '../errors';
import { graphIdOf } from '../meta/graph-api';
import { callThreads, type ThreadsApiOptions } from './api';
import { createThreadsContainer, waitForThreadsContainer, type WaitOptions } from './container';
import { threadsInvalidInput, threadsTextTooLong, threadsTooManyMedia } from './errors';
import { threadsMediaKindOf, threadsMediaParams, type ThreadsMediaKind } from './media';
import { THREADS_CAROUSEL_MAX, THREADS_TEXT_MAX, threadsTextLength } from './text';

export interface PublishToThreadsOptions extends WaitOptions {
  /** e.g. `https://graph.threads.net/v1.0`, or `${sandboxUrl}/threads/v1.0`. */
  baseUrl: string;
  userId: string;
  accessToken: string;
  text: string;
  /** Public URLs Threads fetches itself. One → IMAGE/VIDEO post; several → CAROUSEL. */
  mediaUrls: string[];
  /** Kind of each media URL, in the same order; by default inferred from the URL's file extension. */
  mediaKinds?: ReadonlyArray<ThreadsMediaKind | undefined>;
  fetchImpl?: typeof fetch;
  /** Deadline of each HTTP call; default 30 s. */
  timeoutMs?: number;
  /**
   * Called with the container id once it is FINISHED, just before `threads_publish`.
   * Record it: if the outcome of the publish call is lost, getThreadsContainerStatus tells what happened.
   */
  onContainerReady?: (containerId: string) => void | Promise<void>;
}

export interface ThreadsPublishResult {
  /** The Threads media id of the published post. */
  platformPostId: string;
  /** Public URL of the post, or null when Threads did not give one (the post is live regardless). */
  permalink: string | null;
  /** The container that was published. */
  containerId: string;
}

/**
 * Publishes a post to Threads: container(s) → wait until FINISHED → threads_publish → permalink.
 * Throws PlatformError: `transient` says whether trying again may help. Once the container
 * exists the error carries `containerId`; when the publish call itself may have gone through
 * unanswered, `outcomeUnknown` is set and the caller must check the container before retrying.
 */
export async function publishToThreads(opts: PublishToThreadsOptions): Promise<ThreadsPublishResult> {
  assertPublishable(opts);
  const api = { ...opts };
  const containerId = await createPostContainer(opts);
  try {
    await waitForThreadsContainer({ ...api, containerId });
    await opts.onContainerReady?.(containerId);
    const { platformPostId, permalink } = await publishThreadsContainer({ ...api, containerId });
    return { platformPostId, permalink, containerId };
  } catch (err) {
    throw isPlatformError(err) && !err.containerId ? err.with({ containerId }) : err;
  }
}

/**
 * Publishes a FINISHED container (`POST /{userId}/threads_publish?creation_id=`) and reads its permalink.
 * Safe to call again with the same container: a container can go live only once.
 */
export async function publishThreadsContainer(
  opts: ThreadsApiOptions & { userId: string; containerId: string },
): Promise<{ platformPostId: string; permalink: string | null }> {
  let body: Record<string, unknown>;
  try {
    body = await callThreads(opts, 'POST', [opts.userId, 'threads_publish'], {
      query: { creation_id: opts.containerId },
    });
  } catch (err) {
    if (isPlatformError(err))
      throw err.with({ containerId: opts.containerId, outcomeUnknown: mayHaveGoneThrough(err) });
    throw err;
  }
  const platformPostId = graphIdOf(body);
  if (!platformPostId) {
    throw new PlatformError(
      'Threads accepted the publish call but did not say which post it created; check the profile before publishing again.',
      {
        platform: 'threads',
        transient: true,
        code: 'invalid_response',
        containerId: opts.containerId,
        outcomeUnknown: true,
      },
    );
  }
  return { platformPostId, permalink: await getThreadsPermalink({ ...opts, mediaId: platformPostId }) };
}

/** `GET /{mediaId}?fields=id,permalink`. The post is already live, so any failure here answers null. */
export async function getThreadsPermalink(opts: ThreadsApiOptions & { mediaId: string }): Promise<string | null> {
  try {
    const body = await callThreads(opts, 'GET', [opts.mediaId], { query: { fields: 'id,permalink' } });
    return typeof body.permalink === 'string' && body.permalink ? body.permalink : null;
  } catch {
    return null;
  }
}

/** Refuses, before any call, what Threads would refuse anyway. */
function assertPublishable({ text, mediaUrls, mediaKinds }: PublishToThreadsOptions): void {
  const length = threadsTextLength(text);
  if (length > THREADS_TEXT_MAX) throw threadsTextTooLong(length);
  if (mediaUrls.length > THREADS_CAROUSEL_MAX) throw threadsTooManyMedia(mediaUrls.length);
  if (!text.trim() && mediaUrls.length === 0) {
    throw threadsInvalidInput('missing_content', 'A Threads post needs text or at least one image or video; add some.');
  }
  if (mediaKinds && mediaKinds.length !== mediaUrls.length) {
    throw threadsInvalidInput(
      'invalid_media',
      'Each media URL needs exactly one media kind; the two lists differ in length.',
    );
  }
}

/** TEXT, IMAGE or VIDEO container; for several media, FINISHED children first, then the CAROUSEL parent. */
async function createPostContainer(opts: PublishToThreadsOptions): Promise<string> {
  const api = { ...opts };
  const text = opts.text.trim() ? opts.text : undefined;
  const kinds = opts.mediaUrls.map((url, i) => threadsMediaKindOf(url, opts.mediaKinds?.[i]));
  if (opts.mediaUrls.length === 0) return createThreadsContainer(api, { media_type: 'TEXT', text });
  if (opts.mediaUrls.length === 1)
    return createThreadsContainer(api, { ...threadsMediaParams(opts.mediaUrls[0], kinds[0]), text });

  const children: string[] = [];
  for (const [i, url] of opts.mediaUrls.entries()) {
    children.push(
      await createThreadsContainer(api, { ...threadsMediaParams(url, kinds[i]), is_carousel_item: 'true' }),
    );
  }
  for (const containerId of children) await waitForThreadsContainer({ ...api, containerId });
  return createThreadsContainer(api, { media_type: 'CAROUSEL', children: children.join(','), text });
}

/** A refusal with a Meta error body is a definite "no"; silence, a dropped connection or a 5xx is not. */
function mayHaveGoneThrough(err: PlatformError): boolean {
  if (err.code === 'timeout' || err.code === 'network_error') return true;
  return err.status !== undefined && (err.status >= 500 || (err.status >= 200 && err.status < 300));
}
