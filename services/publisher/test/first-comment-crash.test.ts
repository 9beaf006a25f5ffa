import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startMediaServer, waitFor, type MediaServer } from '@postbus/testing';
import { sandboxControl, startPublisherHarness, type PublisherHarness } from './support/harness';

let h: PublisherHarness;
let media: MediaServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  // The publisher that gets killed is a real process; the one started after it runs in this test's process.
  h = await startPublisherHarness('pub_comment_crash', { publisher: false });
  media = await startMediaServer();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await h?.stop();
  await media?.close();
});

describe('a publisher killed between sending a first comment and recording it', () => {
  test('when the comment reached Instagram and the process died before its answer, then the publisher that takes over finds it and comments nothing more', async () => {
    const ig = await h.profile('instagram');
    // The comment is stored, then its answer held: the first process dies waiting for it.
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'instagram',
      mode: 'timeout',
      operation: 'comment',
      applied: true,
    });
    const before = await h.dueConsumers();
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '..', 'src', 'main.ts')], {
      env: { ...process.env, ...h.publisherEnv, LOG_LEVEL: 'silent', PLATFORM_REQUEST_TIMEOUT_MS: '60000' },
      stdio: 'ignore',
    });
    children.push(child);
    await waitFor(async () => (await h.dueConsumers()) > before || undefined, {
      timeoutMs: 30_000,
      what: 'the publisher process to start',
    });

    const job = h.due(ig, { mediaUrls: [media.link('crash.jpg', 10)], firstComment: 'said once' });
    await h.publish(job);
    await waitFor(() => h.sandbox.state.comments.postComments.find((c) => c.text === 'said once'), {
      timeoutMs: 20_000,
      what: 'the comment to reach the sandbox',
    });
    const step = (await h.attempt(job.postId))!.checkpoint.followUps.steps[0];
    expect(step).toMatchObject({ kind: 'first_comment', status: 'sending' });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    await h.startPublisher();
    const attempt = await waitFor(
      async () => {
        const row = await h.attempt(job.postId);
        return row?.state === 'published' ? row : undefined;
      },
      { timeoutMs: 30_000, what: 'the attempt to finish' },
    );

    expect(attempt.checkpoint.followUps.steps[0]).toMatchObject({ status: 'posted', tries: 1 });
    expect(h.sandbox.state.comments.postComments.filter((c) => c.text === 'said once')).toHaveLength(1);
    const posts = h.sandbox.state.requests
      .list({ platform: 'instagram' })
      .filter((r) => r.method === 'POST' && r.path.endsWith('/comments'));
    expect(posts).toHaveLength(1);
    expect(h.outcomes.filter((o) => o.data.postId === job.postId).every((o) => o.name === 'post.published')).toBe(true);
  }, 90_000);
});
