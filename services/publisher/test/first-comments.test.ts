import { bodiesOf, calls, lastRequestSeq, startMediaServer, waitFor, type MediaServer } from '@postbus/testing';
import {
  publishedOn,
  sandboxControl,
  startPublisherHarness,
  type PublisherHarness,
  type SandboxProfile,
} from './support/harness';
import { collectFollowUps, type FollowUpEvents } from './support/follow-up-events';

let h: PublisherHarness;
let media: MediaServer;
let followUps: FollowUpEvents;

beforeAll(async () => {
  media = await startMediaServer();
  h = await startPublisherHarness('pub_first_comments', { env: { PLATFORM_REQUEST_TIMEOUT_MS: '1500' } });
  followUps = await collectFollowUps(h.bus, 'follow-ups');
});
afterAll(async () => {
  await followUps?.stop();
  await h?.stop();
  await media?.close();
});

const announced = (name: string, postId: string) => followUps.announced(name, postId);
const commentsOf = (platform: string, userId: string) =>
  h.sandbox.state.comments.postComments.filter((c) => c.platform === platform && c.accountId === userId);

async function publishWith(profile: SandboxProfile, fields: Parameters<PublisherHarness['due']>[1]) {
  const since = lastRequestSeq(h.sandbox);
  const job = h.due(profile, fields);
  await h.publish(job);
  const outcome = await h.outcome(job.postId);
  return { job, outcome, since };
}

describe('a first comment', () => {
  test('when an Instagram post has one, then it is commented on the media once, right after media_publish, and post.first_comment says posted', async () => {
    const ig = await h.profile('instagram');
    const { job, outcome, since } = await publishWith(ig, {
      mediaUrls: [media.link('a.jpg', 10)],
      firstComment: 'Link in bio #tags',
    });

    expect(outcome.name).toBe('post.published');
    const event = await announced('post.first_comment', job.postId);
    expect(event.data).toMatchObject({
      postId: job.postId,
      platform: 'instagram',
      firstComment: { text: 'Link in bio #tags', status: 'posted', failedReason: null },
    });
    const { lines, requests } = await calls(h.sandbox, 'instagram', ig.userId, since);
    const publishAt = lines.findIndex((l) => l.endsWith('/media_publish'));
    expect(lines.filter((l) => l.endsWith('/comments'))).toEqual([
      lines[publishAt + 2] ?? lines.find((l) => l.endsWith('/comments')),
    ]);
    expect(lines.find((l) => l.endsWith('/comments'))).toMatch(/^POST \/instagram\/v\d+\.\d+\/\{id\}\/comments$/);
    expect(bodiesOf(requests, 'POST', '/comments')).toEqual([{ message: 'Link in bio #tags' }]);
    expect(commentsOf('instagram', ig.userId)).toMatchObject([
      { postId: outcome.data.platformPostId, text: 'Link in bio #tags' },
    ]);
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published' });
  });

  test("when the Instagram comment went through but its answer was lost, then the media's comments are read and it is not commented again", async () => {
    const ig = await h.profile('instagram');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'instagram',
      mode: 'timeout',
      operation: 'comment',
      applied: true,
    });
    const { job, since } = await publishWith(ig, { mediaUrls: [media.link('b.jpg', 10)], firstComment: 'only once' });

    const event = await announced('post.first_comment', job.postId);
    expect(event.data.firstComment).toMatchObject({ status: 'posted' });
    const { lines } = await calls(h.sandbox, 'instagram', ig.userId, since);
    expect(lines.filter((l) => l.includes('/comments'))).toEqual([
      expect.stringMatching(/^POST .*\/\{id\}\/comments$/),
      expect.stringMatching(/^GET .*\/\{id\}\/comments\?fields=id,text,username&limit=50$/),
    ]);
    expect(commentsOf('instagram', ig.userId).filter((c) => c.text === 'only once')).toHaveLength(1);
  });

  test("when the Instagram publish answer was lost, then the user's media name the post (not its container) and the first comment goes on it", async () => {
    const ig = await h.profile('instagram');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'instagram',
      mode: 'timeout',
      operation: 'publish',
      applied: true,
    });
    const { job, outcome, since } = await publishWith(ig, {
      caption: 'publish answer lost',
      mediaUrls: [media.link('lost.jpg', 10)],
      firstComment: 'on the media',
    });

    expect(outcome.name).toBe('post.published');
    const items = (await publishedOn(h.sandbox, 'instagram')).filter((p) => p.userId === ig.userId);
    expect(items).toHaveLength(1);
    expect(items[0].id).not.toBe(items[0].containerId);
    expect(outcome.data).toMatchObject({ platformPostId: items[0].id, permalink: items[0].permalink });
    const event = await announced('post.first_comment', job.postId);
    expect(event.data.firstComment).toMatchObject({ text: 'on the media', status: 'posted', failedReason: null });
    expect(commentsOf('instagram', ig.userId)).toMatchObject([{ postId: items[0].id, text: 'on the media' }]);
    const { lines } = await calls(h.sandbox, 'instagram', ig.userId, since);
    expect(lines.filter((l) => l.endsWith('/media_publish'))).toHaveLength(1);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^GET \/instagram\/v\d+\.\d+\/\{user\}\/media\?fields=id,caption,permalink,timestamp&since=\d+&limit=50$/,
      ),
    );
  });

  test('when a Facebook Page post has one, then the Page comments on the post once and post.first_comment says posted', async () => {
    const fb = await h.profile('facebook');
    const { job, outcome, since } = await publishWith(fb, {
      caption: 'Page news',
      firstComment: 'More at example.org',
    });

    expect(outcome.name).toBe('post.published');
    const event = await announced('post.first_comment', job.postId);
    expect(event.data.firstComment).toMatchObject({ status: 'posted' });
    const { lines, requests } = await calls(h.sandbox, 'facebook', fb.userId, since);
    expect(lines.filter((l) => l.endsWith('/comments'))).toEqual([
      expect.stringMatching(/^POST \/facebook\/v\d+\.\d+\/\{id\}\/comments$/),
    ]);
    expect(requests.find((r) => r.path.endsWith('/comments'))!.path).toContain(
      `/${outcome.data.platformPostId}/comments`,
    );
    expect(bodiesOf(requests, 'POST', '/comments')).toEqual([{ message: job.firstComment }]);
  });

  test("when the Facebook comment answer was lost, then the post's comments are read and it is commented once", async () => {
    const fb = await h.profile('facebook');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'facebook',
      mode: 'timeout',
      operation: 'comment',
      applied: true,
    });
    const { job } = await publishWith(fb, { caption: 'Once', firstComment: 'just once' });

    expect((await announced('post.first_comment', job.postId)).data.firstComment).toMatchObject({ status: 'posted' });
    expect(commentsOf('facebook', fb.userId).filter((c) => c.text === 'just once')).toHaveLength(1);
  });

  test('when a YouTube video has one, then commentThreads.insert carries channel, video and textOriginal, once', async () => {
    const yt = await h.profile('youtube');
    const { job, outcome, since } = await publishWith(yt, {
      title: 'A video',
      mediaUrls: [media.link('v.mp4', 300_000)],
      firstComment: 'Chapters: 0:00 intro',
    });

    expect(outcome.name).toBe('post.published');
    const event = await announced('post.first_comment', job.postId);
    expect(event.data.firstComment).toMatchObject({
      status: 'posted',
      permalink: expect.stringContaining(`watch?v=${outcome.data.platformPostId}&lc=`),
    });
    const { lines, requests } = await calls(h.sandbox, 'youtube', yt.userId, since);
    expect(lines.filter((l) => l.includes('commentThreads'))).toEqual(['POST /youtube/v3/commentThreads?part=snippet']);
    expect(bodiesOf(requests, 'POST', '/commentThreads')).toEqual([
      {
        snippet: {
          channelId: yt.userId,
          videoId: outcome.data.platformPostId,
          topLevelComment: { snippet: { textOriginal: 'Chapters: 0:00 intro' } },
        },
      },
    ]);
  });

  test("when the YouTube comment answer was lost, then the video's comment threads are read and it is not inserted again", async () => {
    const yt = await h.profile('youtube');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'youtube',
      mode: 'timeout',
      operation: 'comment',
      applied: true,
    });
    const { job } = await publishWith(yt, {
      title: 'Lost',
      mediaUrls: [media.link('w.mp4', 300_000)],
      firstComment: 'one comment',
    });

    expect((await announced('post.first_comment', job.postId)).data.firstComment).toMatchObject({ status: 'posted' });
    expect(commentsOf('youtube', yt.userId).filter((c) => c.text === 'one comment')).toHaveLength(1);
  });

  test('when post.due is delivered again after the first comment settled, then the outcome is announced again with the same ids and nothing is commented again', async () => {
    const fb = await h.profile('facebook');
    const { job } = await publishWith(fb, { caption: 'Twice delivered', firstComment: 'once only' });
    const first = await announced('post.first_comment', job.postId);
    await waitFor(async () => ((await h.attempt(job.postId))?.state === 'published' ? true : undefined), {
      what: 'the attempt to finish',
    });
    const since = lastRequestSeq(h.sandbox);

    await h.publish(job);
    await waitFor(
      () =>
        followUps.received.filter((e) => e.name === 'post.first_comment' && e.data.postId === job.postId).length >= 2
          ? true
          : undefined,
      { timeoutMs: 15_000, what: 'the repeated announcement' },
    );

    expect(new Set(followUps.received.filter((e) => e.data.postId === job.postId).map((e) => e.id))).toEqual(
      new Set([first.id]),
    );
    expect((await calls(h.sandbox, 'facebook', fb.userId, since)).lines).toEqual([]);
    expect(commentsOf('facebook', fb.userId).filter((c) => c.text === 'once only')).toHaveLength(1);
  });

  test('when the comment call fails transiently, then it is retried with backoff and posted once', async () => {
    const ig = await h.profile('instagram');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'instagram',
      mode: 'error',
      operation: 'comment',
      status: 500,
    });
    const { job } = await publishWith(ig, { mediaUrls: [media.link('d.jpg', 10)], firstComment: 'second try' });

    expect((await announced('post.first_comment', job.postId)).data.firstComment).toMatchObject({ status: 'posted' });
    const attempt = await waitFor(
      async () => {
        const row = await h.attempt(job.postId);
        return row?.state === 'published' ? row : undefined;
      },
      { what: 'the attempt to finish' },
    );
    expect(attempt.checkpoint.followUps.steps[0]).toMatchObject({ status: 'posted', tries: 2 });
    expect(commentsOf('instagram', ig.userId).filter((c) => c.text === 'second try')).toHaveLength(1);
  });

  test('when the platform refuses the comment, then the first comment fails with the reason and the post stays published', async () => {
    const ig = await h.profile('instagram');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'instagram',
      mode: 'error',
      operation: 'comment',
      code: 100,
      message: 'Comments are turned off for this media.',
    });
    const { job, outcome } = await publishWith(ig, { mediaUrls: [media.link('c.jpg', 10)], firstComment: 'refused' });

    expect(outcome.name).toBe('post.published');
    const event = await announced('post.first_comment', job.postId);
    expect(event.data.firstComment).toMatchObject({
      status: 'failed',
      failedReason: expect.stringContaining('Instagram refused the comment'),
    });
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published' });
    expect(h.outcomes.filter((o) => o.data.postId === job.postId).map((o) => o.name)).toEqual(['post.published']);
  });
});

describe('a Threads chain', () => {
  test('when a Threads post has a first comment and a thread, then each part replies to the one before it, in order, and post.thread lists them posted', async () => {
    const th = await h.profile('threads');
    const { job, outcome, since } = await publishWith(th, {
      caption: 'Part one',
      thread: ['Part two', 'Part three'],
      firstComment: 'First!',
    });

    expect(outcome.name).toBe('post.published');
    const thread = await announced('post.thread', job.postId);
    expect(thread.data.thread).toEqual([
      { text: 'Part two', status: 'posted', permalink: expect.stringMatching(/threads\.net/), failedReason: null },
      { text: 'Part three', status: 'posted', permalink: expect.stringMatching(/threads\.net/), failedReason: null },
    ]);
    expect((await announced('post.first_comment', job.postId)).data.firstComment).toMatchObject({ status: 'posted' });

    const { requests } = await calls(h.sandbox, 'threads', th.userId, since);
    const containers = bodiesOf(requests, 'POST', '/threads');
    expect(containers.map((b) => [b.text, b.reply_to_id === undefined ? null : 'reply'])).toEqual([
      ['Part one', null],
      ['First!', 'reply'],
      ['Part two', 'reply'],
      ['Part three', 'reply'],
    ]);
    const replies = h.sandbox.state.comments.postComments.filter(
      (c) => c.platform === 'threads' && c.accountId === th.userId,
    );
    const root = outcome.data.platformPostId;
    expect(replies.map((r) => [r.text, r.postId])).toEqual([
      ['First!', root],
      ['Part two', root],
      ['Part three', replies[1].id],
    ]);
    expect(containers[1].reply_to_id).toBe(root);
    expect(containers[3].reply_to_id).toBe(replies[1].id);
  });

  test('when one part of the chain is refused, then the parts before it are posted, it fails with the reason, the rest are not sent, and the post stays published', async () => {
    const th = await h.profile('threads');
    const tooManyLinks = Array.from({ length: 6 }, (_, i) => `https://example.org/${i}`).join(' ');
    const { job, outcome, since } = await publishWith(th, {
      caption: 'Root',
      thread: ['ok one', tooManyLinks, 'never sent'],
    });

    expect(outcome.name).toBe('post.published');
    const thread = await announced('post.thread', job.postId);
    expect(thread.data.thread.map((p: { status: string }) => p.status)).toEqual(['posted', 'failed', 'failed']);
    expect(thread.data.thread[1].failedReason).toMatch(/link/i);
    expect(thread.data.thread[2].failedReason).toBe(
      'Not posted: part 2 of the thread could not be posted, so part 3 had nothing to reply to.',
    );
    const { requests } = await calls(h.sandbox, 'threads', th.userId, since);
    expect(bodiesOf(requests, 'POST', '/threads').map((b) => b.text)).toEqual(['Root', 'ok one', tooManyLinks]);
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published' });
  });

  test('when a reply was published but its answer was lost, then its container says PUBLISHED, the reply is found under its parent, and nothing is published twice', async () => {
    const th = await h.profile('threads');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'threads',
      mode: 'timeout',
      operation: 'comment',
      applied: true,
    });
    const { job, since } = await publishWith(th, { caption: 'Root', thread: ['second', 'third'] });

    const thread = await announced('post.thread', job.postId);
    expect(thread.data.thread.map((p: { status: string }) => p.status)).toEqual(['posted', 'posted']);
    const { lines } = await calls(h.sandbox, 'threads', th.userId, since);
    expect(lines.filter((l) => l.endsWith('/threads_publish'))).toHaveLength(3);
    expect(lines.some((l) => l.startsWith('GET /threads/v1.0/{id}/replies'))).toBe(true);
    const replies = h.sandbox.state.comments.postComments.filter(
      (c) => c.platform === 'threads' && c.accountId === th.userId,
    );
    expect(replies.map((r) => r.text)).toEqual(['second', 'third']);
    expect(replies[1].postId).toBe(replies[0].id);
  });
});
