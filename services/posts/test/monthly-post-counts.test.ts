import type { DataSource } from 'typeorm';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { migrations } from '../src/migrations';
import { MonthlyPostCounts1732200000003 } from '../src/migrations/1732200000003-monthly-post-counts';
import { PostRepository } from '../src/posts/post.repository';
import { aPost } from './post-builder';

let env: TestEnv;
let ds: DataSource;
let posts: PostRepository;

beforeAll(async () => {
  env = await createTestEnv('posts_monthly_counts');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations, poolSize: 4 });
  posts = new PostRepository(ds);
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});

const at = (iso: string) => new Date(iso);

describe('the monthly count of created posts', () => {
  test('when posts were created before the counter existed, then the migration counts them per account and calendar month (UTC)', async () => {
    const rows = [
      aPost().forAccount('acc_a').build(),
      aPost().forAccount('acc_a').build(),
      aPost().forAccount('acc_a').build(),
      aPost().forAccount('acc_b').build(),
    ];
    await ds.transaction((m) => posts.insertMany(m, rows));
    // Two of acc_a's posts in March, one in the last hour of February (UTC) though the 1st of March in Paris.
    await ds.query(`UPDATE posts SET created_at = $2 WHERE id = $1`, [rows[0].id, '2031-03-05T10:00:00Z']);
    await ds.query(`UPDATE posts SET created_at = $2 WHERE id = $1`, [rows[1].id, '2031-03-31T23:59:59Z']);
    await ds.query(`UPDATE posts SET created_at = $2 WHERE id = $1`, [rows[2].id, '2031-02-28T23:30:00+00:00']);
    await ds.query(`UPDATE posts SET created_at = $2 WHERE id = $1`, [rows[3].id, '2031-03-10T00:00:00Z']);
    const q = ds.createQueryRunner();
    try {
      const migration = new MonthlyPostCounts1732200000003();
      await migration.down(q);
      await migration.up(q);
    } finally {
      await q.release();
    }
    expect(await posts.countCreatedThisMonth(ds.manager, 'acc_a', at('2031-03-15T12:00:00Z'))).toBe(2);
    expect(await posts.countCreatedThisMonth(ds.manager, 'acc_a', at('2031-02-01T00:00:00Z'))).toBe(1);
    expect(await posts.countCreatedThisMonth(ds.manager, 'acc_b', at('2031-03-01T00:00:00Z'))).toBe(1);
    expect(await posts.countCreatedThisMonth(ds.manager, 'acc_b', at('2031-04-01T00:00:00Z'))).toBe(0);
  });

  test('when posts are added in a transaction that rolls back, then the count is as before', async () => {
    const now = at('2031-06-15T12:00:00Z');
    const within = { accountId: 'acc_c', now, perMonth: 100 };
    const postsOf = (n: number) => Array.from({ length: n }, () => aPost().forAccount('acc_c').build());
    expect(await ds.transaction((m) => posts.insertCounted(m, postsOf(3), within))).toBe(3);
    await expect(
      ds.transaction(async (m) => {
        expect(await posts.insertCounted(m, postsOf(2), within)).toBe(5);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await posts.countCreatedThisMonth(ds.manager, 'acc_c', now)).toBe(3);
    expect(await posts.countCreatedThisMonth(ds.manager, 'acc_c', at('2031-07-01T00:00:00Z'))).toBe(0);
  });

  test('when posts would go beyond the quota, then neither they nor the count are written', async () => {
    const now = at('2031-08-15T12:00:00Z');
    const rows = Array.from({ length: 3 }, () => aPost().forAccount('acc_d').build());
    expect(await posts.insertCounted(ds, rows.slice(0, 2), { accountId: 'acc_d', now, perMonth: 4 })).toBe(2);
    expect(await posts.insertCounted(ds, rows, { accountId: 'acc_d', now, perMonth: 4 })).toBeNull();
    expect(await posts.countCreatedThisMonth(ds.manager, 'acc_d', now)).toBe(2);
    const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM posts WHERE account_id = $1', ['acc_d']);
    expect(n).toBe(2);
  });
});
