import { PlatformError } from '../errors';
import { graphIdOf } from '../meta/graph-api';
import { callThreads, type ThreadsApiOptions } from './api';
import { threadsContainerErrorReason, threadsContainerFailure, threadsStillProcessing } from './errors';

export const THREADS_CONTAINER_STATUSES = ['IN_PROGRESS', 'FINISHED', 'ERROR', 'EXPIRED', 'PUBLISHED'] as const;
export type ThreadsContainerStatus = (typeof THREADS_CONTAINER_STATUSES)[number];

export interface ThreadsContainerState {
  containerId: string;
  status: ThreadsContainerStatus;
  /** Threads' own `error_message` (e.g. FAILED_DOWNLOADING_VIDEO) when status is ERROR. */
  errorMessage: string | null;
  /** A readable reason when status is ERROR or EXPIRED, else null. */
  reason: string | null;
}

/** Creates one container (`POST /{userId}/threads`) and answers its id. */
export async function createThreadsContainer(
  api: ThreadsApiOptions & { userId: string },
  params: Record<string, string | undefined>,
): Promise<string> {
  const body = await callThreads(api, 'POST', [api.userId, 'threads'], { form: params });
  const id = graphIdOf(body);
  if (!id) throw unreadable('creating the media container');
  return id;
}

/**
 * Asks Threads where a container stands (`GET /{containerId}?fields=status,error_message`).
 * A publisher uses it to resolve an unknown outcome: PUBLISHED means the post is live,
 * FINISHED means it is not and the same container may be published, ERROR/EXPIRED are final.
 */
export async function getThreadsContainerStatus(
  opts: ThreadsApiOptions & { containerId: string },
): Promise<ThreadsContainerState> {
  const body = await callThreads(opts, 'GET', [opts.containerId], { query: { fields: 'status,error_message' } });
  const status = body.status;
  if (typeof status !== 'string' || !(THREADS_CONTAINER_STATUSES as readonly string[]).includes(status)) {
    throw unreadable('reading the media container status');
  }
  const errorMessage = typeof body.error_message === 'string' && body.error_message ? body.error_message : null;
  const reason =
    status === 'ERROR'
      ? threadsContainerErrorReason(errorMessage)
      : status === 'EXPIRED'
        ? threadsContainerFailure('EXPIRED', null, opts.containerId).message
        : null;
  return { containerId: opts.containerId, status: status as ThreadsContainerStatus, errorMessage, reason };
}

export interface WaitOptions {
  /** Pause between two status checks; default 5 s. */
  pollIntervalMs?: number;
  /** Status checks before giving up with a transient error; default 60 (5 minutes at the default interval). */
  maxPolls?: number;
}

export const THREADS_DEFAULT_POLL_INTERVAL_MS = 5_000;
export const THREADS_DEFAULT_MAX_POLLS = 60;

/**
 * Polls until the container is FINISHED (or already PUBLISHED). ERROR and EXPIRED throw a
 * permanent PlatformError with a readable reason; still IN_PROGRESS after maxPolls throws a transient one.
 */
export async function waitForThreadsContainer(
  opts: ThreadsApiOptions & WaitOptions & { containerId: string },
): Promise<'FINISHED' | 'PUBLISHED'> {
  const interval = opts.pollIntervalMs ?? THREADS_DEFAULT_POLL_INTERVAL_MS;
  const maxPolls = Math.max(1, opts.maxPolls ?? THREADS_DEFAULT_MAX_POLLS);
  const started = Date.now();
  for (let poll = 1; ; poll++) {
    const { status, errorMessage } = await getThreadsContainerStatus(opts);
    if (status === 'FINISHED' || status === 'PUBLISHED') return status;
    if (status === 'ERROR' || status === 'EXPIRED')
      throw threadsContainerFailure(status, errorMessage, opts.containerId);
    if (poll >= maxPolls) throw threadsStillProcessing(opts.containerId, Date.now() - started);
    await sleep(interval);
  }
}

function unreadable(step: string): PlatformError {
  return new PlatformError(
    `Threads answered ${step} with a response Postbus could not read; publishing will be tried again.`,
    {
      platform: 'threads',
      transient: true,
      code: 'invalid_response',
    },
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
