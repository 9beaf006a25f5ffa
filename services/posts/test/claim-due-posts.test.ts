import type { DataSource } from 'typeorm';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { migrations } from '../src/migrations';
import { PostRepository } from '../src/posts/post.repository';
import { claimDuePosts, redispatchStalled } from '../src/scheduler/claim-due-posts';
import { aPost } from './post-builder';

let env: TestEnv;
let ds: DataSource;
let posts: PostRepository;

beforeAll(async () => {
  env = await createTestEnv('posts_claim');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations, poolSize: 6 });
  posts = new PostRepository(ds);
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});

beforeEach(async () => {
  await ds.query('DELETE FROM outbox');
  await ds.query('DELETE FROM posts');
});

const outboxPostIds = async (): Promise<string[]> =>
  (await ds.query(`SELECT data->>'postId' AS id FROM outbox WHERE name = 'post.due'`)).map((r: { id: string }) => r.id);

describe('claiming due posts', () => {
  test('when drafts, posts awaiting approval, cancelled and future posts sit beside due ones, then only the due scheduled posts are dispatched', async () => {
    const due = aPost().dueIn(-500).build();
    const others = [
      aPost().withStatus('draft').dueIn(-500).build(),
      aPost().withStatus('draft').withoutTime().build(),
      aPost().withStatus('pending_approval').dueIn(-500).build(),
      aPost().withStatus('cancelled').dueIn(-500).build(),
      aPost().withStatus('rejected').dueIn(-500).build(),
      aPost().dueIn(3600_000).build(),
    ];
    await ds.transaction((m) => posts.insertMany(m, [due, ...others]));
    expect(await claimDuePosts(ds, 100)).toBe(1);
    expect(await outboxPostIds()).toEqual([due.id]);
    expect(await claimDuePosts(ds, 100)).toBe(0);
  });

  test('when several schedulers claim at once, then every due post is dispatched exactly once', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => aPost().dueIn(-i).build());
    await ds.transaction((m) => posts.insertMany(m, rows));
    const counts = await Promise.all(
      Array.from({ length: 4 }, async () => {
        let total = 0;
        for (let n = await claimDuePosts(ds, 25); n > 0; n = await claimDuePosts(ds, 25)) total += n;
        return total;
      }),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(300);
    const ids = await outboxPostIds();
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
    const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM posts WHERE dispatched_at IS NULL');
    expect(n).toBe(0);
  });

  test('when a post is claimed, then its post.due carries the content and both times', async () => {
    const row = {
      ...aPost().dueIn(-100).build(),
      caption: 'hello',
      title: 'T',
      media_urls: ['https://cdn.example.com/a.jpg'],
      platform_meta: { threads: {} },
    };
    await ds.transaction((m) => posts.insertMany(m, [row]));
    await claimDuePosts(ds, 10);
    const [{ data }] = await ds.query(`SELECT data FROM outbox WHERE name = 'post.due'`);
    expect(data).toMatchObject({
      postId: row.id,
      caption: 'hello',
      title: 'T',
      mediaUrls: ['https://cdn.example.com/a.jpg'],
      scheduledTime: row.scheduled_time!.toISOString(),
    });
    expect(Date.parse(data.dispatchedAt)).toBeGreaterThanOrEqual(Date.parse(data.scheduledTime));
  });

  test('when a dispatched post has no outcome after the limit, then it is announced again once per limit, and ended or recently dispatched posts are not', async () => {
    const [stalled, recent, posted, failed] = Array.from({ length: 4 }, () => aPost().dueIn(-1000).build());
    await ds.transaction((m) => posts.insertMany(m, [stalled, recent, posted, failed]));
    expect(await claimDuePosts(ds, 10)).toBe(4);
    await ds.query(`UPDATE posts SET dispatched_at = now() - interval '20 minutes' WHERE id = ANY($1)`, [
      [stalled.id, posted.id, failed.id],
    ]);
    expect(
      await posts.markPosted(posted.id, {
        publishedAt: new Date().toISOString(),
        permalink: null,
        platformPostId: 'x1',
      }),
    ).toBe(true);
    expect(await posts.markFailed(failed.id, 'refused')).toBe(true);
    await ds.query('DELETE FROM outbox');

    expect(await redispatchStalled(ds, { afterMs: 600_000, limit: 100 })).toBe(1);
    const [{ data }] = await ds.query(`SELECT data FROM outbox WHERE name = 'post.due'`);
    expect(data).toMatchObject({ postId: stalled.id, scheduledTime: stalled.scheduled_time!.toISOString() });
    expect(await redispatchStalled(ds, { afterMs: 600_000, limit: 100 })).toBe(0);

    await ds.query(`UPDATE posts SET redispatched_at = now() - interval '11 minutes' WHERE id = $1`, [stalled.id]);
    expect(await redispatchStalled(ds, { afterMs: 600_000, limit: 100 })).toBe(1);
    expect(await outboxPostIds()).toEqual([stalled.id, stalled.id]);
  });
});
