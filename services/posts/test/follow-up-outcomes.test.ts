import type { DataSource } from 'typeorm';
import { Events, type FollowUpOutcome } from '@postbus/contracts';
import { envelope, type Bus, type EventConsumer } from '@postbus/bus';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, openTestBus, waitFor, type TestEnv } from '@postbus/testing';
import { start } from '../src/main';
import { PostRepository, toPost, type NewPost, type PostRow } from '../src/posts/post.repository';
import { applyFollowUpResult, applyPublishResult } from '../src/results/apply-publish-result.use-case';
import { aPost } from './post-builder';

let env: TestEnv;
let service: Awaited<ReturnType<typeof start>>;
let ds: DataSource;
let posts: PostRepository;
let bus: Bus;
let dueConsumer: EventConsumer;
const due: Record<string, unknown>[] = [];

beforeAll(async () => {
  env = await createTestEnv('posts_follow_ups');
  service = await start({ ...env.env, SCHEDULER_TICK_MS: '50', POSTS_HTTP_PORT: '0', HOST: '127.0.0.1' });
  ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations: [], poolSize: 2 });
  posts = new PostRepository(ds);
  bus = await openTestBus(env, { rpcTimeoutMs: 2000 });
  dueConsumer = bus.consume({
    queue: 'test.follow-ups.due',
    perProcess: true,
    events: [Events.postDue.name],
    handler: async (event) => void due.push(event.data as Record<string, unknown>),
  });
  await dueConsumer.start();
});
afterAll(async () => {
  await dueConsumer?.stop().catch(() => undefined);
  await bus?.close();
  await service?.lifecycle.stop();
  await ds?.destroy();
  await env?.drop();
});

const row = async (id: string): Promise<PostRow> => (await ds.query('SELECT * FROM posts WHERE id = $1', [id]))[0];
const pending = (text: string): FollowUpOutcome => ({ text, status: 'pending', permalink: null, failedReason: null });
const meta = { profileId: 'prf_test', accountId: 'acc_test', platform: 'threads', settledAt: new Date().toISOString() };

/** Stores a due Threads post with a first comment and a chain, and waits until the scheduler dispatched it. */
async function dispatchedWithFollowUps(): Promise<{ id: string }> {
  const post: NewPost = {
    ...aPost().dueIn(-1000).build(),
    first_comment: pending('first'),
    thread: [pending('two'), pending('three')],
  };
  await ds.transaction((m) => posts.insertMany(m, [post]));
  await waitFor(async () => ((await row(post.id)).dispatched_at ? true : undefined), {
    what: 'the post to be dispatched',
  });
  return { id: post.id };
}

describe('what a post publishes after itself', () => {
  test('when it is stored, then GET shows the first comment and each part pending, and post.due carries their texts', async () => {
    const { id } = await dispatchedWithFollowUps();
    expect(toPost(await row(id))).toMatchObject({
      firstComment: pending('first'),
      thread: [pending('two'), pending('three')],
    });
    const announced = await waitFor(() => due.find((d) => d.postId === id), { what: 'its post.due' });
    expect(announced).toMatchObject({ postId: id, firstComment: 'first', thread: ['two', 'three'] });
  });

  test('when post.first_comment and post.thread arrive, then the post shows them; a repeat changes nothing', async () => {
    const { id } = await dispatchedWithFollowUps();
    const firstComment: FollowUpOutcome = {
      text: 'first',
      status: 'posted',
      permalink: 'https://www.threads.net/@me/post/a',
      failedReason: null,
    };
    const thread: FollowUpOutcome[] = [
      { ...firstComment, text: 'two' },
      { text: 'three', status: 'failed', permalink: null, failedReason: 'Threads refused the reply.' },
    ];

    expect(
      await applyFollowUpResult(posts, envelope(Events.postFirstComment, { postId: id, ...meta, firstComment })),
    ).toBe(true);
    expect(await applyFollowUpResult(posts, envelope(Events.postThread, { postId: id, ...meta, thread }))).toBe(true);
    expect(await applyFollowUpResult(posts, envelope(Events.postThread, { postId: id, ...meta, thread }))).toBe(false);
    expect(toPost(await row(id))).toMatchObject({ firstComment, thread });
  });

  test('when the post itself fails, then its pending first comment and chain fail with it, saying why', async () => {
    const { id } = await dispatchedWithFollowUps();
    expect(
      await applyPublishResult(
        posts,
        envelope(Events.postFailed, {
          postId: id,
          profileId: 'prf_test',
          platform: 'threads',
          reason: 'refused',
          failedAt: new Date().toISOString(),
        }),
      ),
    ).toBe(true);

    const post = toPost(await row(id));
    const failed = (text: string) => ({
      text,
      status: 'failed',
      permalink: null,
      failedReason: 'Not published: the post itself failed.',
    });
    expect(post).toMatchObject({
      status: 'failed',
      firstComment: failed('first'),
      thread: [failed('two'), failed('three')],
    });
  });
});
