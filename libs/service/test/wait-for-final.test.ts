import type { Post } from '@postbus/contracts';
import { laidOver, PostWaiters, waitForFinal } from '../src/post-outcomes';

const pending = { text: 'more', status: 'pending' as const, permalink: null, failedReason: null };
const aPost = (over: Partial<Post> = {}): Post => ({
  id: 'p1',
  status: 'scheduled',
  caption: 'hello',
  title: null,
  platforms: ['threads'],
  profileIds: ['pr1'],
  mediaUrls: [],
  scheduledTime: '2026-11-25T10:00:00.000Z',
  publishedAt: null,
  failedReason: null,
  externalId: null,
  permalink: null,
  warnings: [],
  firstComment: null,
  thread: [],
  platformMeta: null,
  category: null,
  createdAt: '2026-11-25T09:00:00.000Z',
  updatedAt: '2026-11-25T09:00:00.000Z',
  ...over,
});

/** A read that answers each post of `answers` in turn (the last one again), counting its calls. */
function reads(...answers: Post[]) {
  let n = 0;
  const read = async () => answers[Math.min(n++, answers.length - 1)];
  return { read, count: () => n };
}

/** Resolves once `waiters` holds a waiter. */
async function waiting(waiters: PostWaiters): Promise<void> {
  while (waiters.count === 0) await new Promise((resolve) => setImmediate(resolve));
}

describe('laidOver', () => {
  test('when a scheduled post is published, then it is posted with the facts of the event', () => {
    const facts = {
      status: 'posted' as const,
      publishedAt: '2026-11-25T10:00:01.000Z',
      permalink: 'https://t/1',
      warnings: [],
    };
    expect(laidOver(aPost(), facts)).toMatchObject({
      status: 'posted',
      publishedAt: facts.publishedAt,
      permalink: 'https://t/1',
      failedReason: null,
    });
  });

  test('when a scheduled post fails, then its first comment and chain parts fail with it', () => {
    const post = aPost({ firstComment: pending, thread: [pending, pending] });
    const failed = laidOver(post, { status: 'failed', reason: 'refused', failedAt: '2026-11-25T10:00:01.000Z' });
    expect(failed).toMatchObject({ status: 'failed', failedReason: 'refused' });
    expect([failed!.firstComment, ...failed!.thread].map((p) => p?.status)).toEqual(['failed', 'failed', 'failed']);
  });

  test('when the post read is not scheduled, then the facts are not laid over it', () => {
    const facts = { status: 'failed' as const, reason: 'late', failedAt: '2026-11-25T10:00:01.000Z' };
    expect(laidOver(aPost({ status: 'posted' }), facts)).toBeUndefined();
    expect(laidOver(aPost({ status: 'draft' }), facts)).toBeUndefined();
  });
});

describe('waitForFinal', () => {
  test('when a result event with its facts names the post, then the caller is answered from them without another read', async () => {
    const waiters = new PostWaiters(10);
    const posts = reads(aPost());
    const outcome = waitForFinal(waiters, { postId: 'p1', waitMs: 60_000, read: posts.read });
    await waiting(waiters);
    waiters.wake('p1', {
      facts: { status: 'posted', publishedAt: '2026-11-25T10:00:01.000Z', permalink: null, warnings: [] },
    });
    expect(await outcome).toMatchObject({ stored: false, post: { status: 'posted' } });
    expect(posts.count()).toBe(1);
    expect(waiters.count).toBe(0);
  });

  test('when a withdrawal is announced, then the post is read at once and answered as stored', async () => {
    const waiters = new PostWaiters(10);
    const posts = reads(aPost(), aPost({ status: 'cancelled' }));
    const outcome = waitForFinal(waiters, { postId: 'p1', waitMs: 60_000, read: posts.read });
    await waiting(waiters);
    waiters.wake('p1', { written: true });
    expect(await outcome).toMatchObject({ stored: true, post: { status: 'cancelled' } });
    expect(posts.count()).toBe(2);
  });

  test('when the caller leaves, then the wait answers nothing and frees its waiter', async () => {
    const waiters = new PostWaiters(10);
    const gone = new AbortController();
    const outcome = waitForFinal(waiters, {
      postId: 'p1',
      waitMs: 60_000,
      read: reads(aPost()).read,
      signal: gone.signal,
    });
    await waiting(waiters);
    gone.abort();
    expect(await outcome).toBeUndefined();
    expect(waiters.count).toBe(0);
  });

  test('when no waiter place is free, then the post is answered as it is', async () => {
    const waiters = new PostWaiters(0);
    const outcome = await waitForFinal(waiters, { postId: 'p1', waitMs: 60_000, read: reads(aPost()).read });
    expect(outcome).toMatchObject({ stored: true, post: { status: 'scheduled' } });
  });

  test('while nothing happens, then heartbeats report the post as last read, without reading it again', async () => {
    const waiters = new PostWaiters(10);
    const posts = reads(aPost(), aPost({ status: 'cancelled' }));
    const heard: string[] = [];
    const outcome = await waitForFinal(waiters, {
      postId: 'p1',
      waitMs: 60_000,
      read: posts.read,
      heartbeatMs: 5,
      report: (post) => {
        heard.push(post.status);
        // The first read and two heartbeats heard: the post is withdrawn.
        if (heard.length === 3) waiters.wake('p1', { written: true });
      },
    });
    expect(outcome).toMatchObject({ stored: true, post: { status: 'cancelled' } });
    expect(heard).toEqual(['scheduled', 'scheduled', 'scheduled', 'cancelled']);
    expect(posts.count()).toBe(2);
  });
});
