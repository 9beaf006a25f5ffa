import { connect } from 'amqplib';
import type { DataSource } from 'typeorm';
import { Events, type PostFailed, type PostPublished } from '@postbus/contracts';
import { envelope, type Bus } from '@postbus/bus';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, openTestBus, waitFor, type TestEnv } from '@postbus/testing';
import { start } from '../src/main';
import { PostRepository, toPost, type NewPost, type PostRow } from '../src/posts/post.repository';
import { applyPublishResult } from '../src/results/apply-publish-result.use-case';
import { aPost } from './post-builder';

let env: TestEnv;
let service: Awaited<ReturnType<typeof start>>;
let ds: DataSource;
let posts: PostRepository;
let bus: Bus;

beforeAll(async () => {
  env = await createTestEnv('posts_results');
  service = await start({ ...env.env, SCHEDULER_TICK_MS: '50', POSTS_HTTP_PORT: '0', HOST: '127.0.0.1' });
  ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations: [], poolSize: 2 });
  posts = new PostRepository(ds);
  bus = await openTestBus(env, { rpcTimeoutMs: 2000 });
});
afterAll(async () => {
  await bus?.close();
  await service?.lifecycle.stop();
  await ds?.destroy();
  await env?.drop();
});

const row = async (id: string): Promise<PostRow> => (await ds.query('SELECT * FROM posts WHERE id = $1', [id]))[0];
const published = (postId: string, permalink: string) =>
  envelope(Events.postPublished, {
    postId,
    profileId: 'prf_test',
    platform: 'threads',
    platformPostId: `pp_${permalink}`,
    permalink,
    publishedAt: new Date().toISOString(),
  } satisfies PostPublished);
const failed = (postId: string, reason: string) =>
  envelope(Events.postFailed, {
    postId,
    profileId: 'prf_test',
    platform: 'threads',
    reason,
    failedAt: new Date().toISOString(),
  } satisfies PostFailed);

/** Stores posts and, for those due, waits until the service's scheduler has dispatched them. */
async function given(...rows: NewPost[]): Promise<string[]> {
  await ds.transaction((m) => posts.insertMany(m, rows));
  for (const r of rows.filter(
    (r) => r.status === 'scheduled' && r.scheduled_time && r.scheduled_time.getTime() <= Date.now(),
  )) {
    await waitFor(async () => ((await row(r.id)).dispatched_at ? true : undefined), {
      what: `post ${r.id} to be dispatched`,
    });
  }
  return rows.map((r) => r.id);
}

describe('applying a publish result', () => {
  test('when a dispatched post gets its result, then it moves once; a repeated or contradicting result changes nothing', async () => {
    const [id] = await given(aPost().dueIn(-1000).build());
    expect(await applyPublishResult(posts, published(id, 'https://example.com/p/1'))).toBe(true);
    const first = await row(id);
    expect(first).toMatchObject({ status: 'posted', permalink: 'https://example.com/p/1' });

    expect(await applyPublishResult(posts, published(id, 'https://example.com/p/2'))).toBe(false);
    expect(await applyPublishResult(posts, failed(id, 'late failure'))).toBe(false);
    expect(await row(id)).toMatchObject({
      status: 'posted',
      permalink: 'https://example.com/p/1',
      failed_reason: null,
      updated_at: first.updated_at,
    });
  });

  test('when the result carries warnings (YouTube kept the video private), then the post keeps them, as GET shows; a result without any leaves none', async () => {
    const [warned, plain] = await given(aPost().dueIn(-1000).build(), aPost().dueIn(-1000).build());
    const warnings = [{ code: 'youtube_private_lock', message: 'The video is on YouTube but private.' }];
    const event = published(warned, 'https://www.youtube.com/watch?v=abc');

    expect(await applyPublishResult(posts, { ...event, data: { ...event.data, warnings } })).toBe(true);
    expect(await applyPublishResult(posts, published(plain, 'https://example.com/p/3'))).toBe(true);

    expect(toPost(await row(warned))).toMatchObject({ status: 'posted', warnings });
    expect(toPost(await row(plain)).warnings).toEqual([]);
  });

  test('when a failed post later hears it was published, then it stays failed', async () => {
    const [id] = await given(aPost().dueIn(-1000).build());
    expect(await applyPublishResult(posts, failed(id, 'the platform refused'))).toBe(true);
    expect(await applyPublishResult(posts, published(id, 'https://example.com/p/3'))).toBe(false);
    expect(await row(id)).toMatchObject({
      status: 'failed',
      failed_reason: 'the platform refused',
      permalink: null,
      published_at: null,
    });
  });

  test('when a result names a post that was never dispatched (draft, cancelled, not yet due), then nothing moves', async () => {
    const ids = await given(
      aPost().withStatus('draft').withoutTime().build(),
      aPost().withStatus('cancelled').dueIn(-1000).build(),
      aPost().dueIn(3600_000).build(),
    );
    for (const id of ids)
      expect(await applyPublishResult(posts, published(id, 'https://example.com/nope'))).toBe(false);
    expect((await Promise.all(ids.map(row))).map((r) => r.status)).toEqual(['draft', 'cancelled', 'scheduled']);
  });
});

describe('results arriving over the bus', () => {
  test('when duplicates and late contradictions arrive with a fresh result, then only the fresh one moves a post', async () => {
    const [done, fresh] = await given(aPost().dueIn(-1000).build(), aPost().dueIn(-1000).build());
    await bus.events.publish([published(done, 'https://example.com/first')]);
    await waitFor(async () => ((await row(done)).status === 'posted' ? true : undefined), { what: 'the first result' });

    await bus.events.publish([
      published(done, 'https://example.com/again'),
      failed(done, 'late'),
      failed(fresh, 'fresh failure'),
    ]);
    await waitFor(async () => ((await row(fresh)).status === 'failed' ? true : undefined), {
      what: 'the fresh result',
    });
    // A marker published after them: once it is applied, the results before it have been delivered too.
    const [marker] = await given(aPost().dueIn(-1000).build());
    await bus.events.publish([failed(marker, 'marker')]);
    await waitFor(async () => ((await row(marker)).status === 'failed' ? true : undefined), { what: 'the marker' });
    expect(await row(done)).toMatchObject({ status: 'posted', permalink: 'https://example.com/first' });
  });

  test('when a result breaks its contract, then it is parked in the dead-letter queue and no post moves', async () => {
    const [id] = await given(aPost().dueIn(-1000).build());
    await bus.events.publish([{ name: Events.postPublished.name, data: { postId: id } }]);
    await waitFor(async () => ((await deadLetterCount()) > 0 ? true : undefined), {
      what: 'the broken result to be dead-lettered',
    });
    expect((await row(id)).status).toBe('scheduled');
  });
});

async function deadLetterCount(): Promise<number> {
  const c = await connect(env.amqpUrl);
  try {
    const ch = await c.createChannel();
    return (await ch.checkQueue(`${env.namespace}.posts.results.dead`)).messageCount;
  } finally {
    await c.close();
  }
}
