import type { DataSource } from 'typeorm';
import { databaseOf, openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { migrations } from '../src/migrations';
import { PostRepository } from '../src/posts/post.repository';
import { answerRows, findReplay, forgetOldCalls } from '../src/posts/create-request.repository';
import { aPost } from './post-builder';

let env: TestEnv;
let ds: DataSource;
let posts: PostRepository;

beforeAll(async () => {
  env = await createTestEnv('posts_create_answers');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations, poolSize: 4 });
  posts = new PostRepository(ds);
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});

const now = new Date('2031-06-15T12:00:00Z');
const answer = (id: string) => ({ postIds: [id], status: 'scheduled', scheduledTime: null });

describe('the answer a redelivered create gets, stored with its posts', () => {
  test('when posts are stored within the quota, then the answer for their call id is stored in the same statement', async () => {
    const row = aPost().forAccount('acc_a').build();
    const stored = await posts.insertCounted(
      ds,
      [row],
      { accountId: 'acc_a', now, perMonth: 10 },
      answerRows([['call', 'call-1']], 'h1', answer(row.id)),
    );
    expect(stored).toBe(1);
    expect(await findReplay(ds, 'acc_a', [['call', 'call-1']], 'h1')).toEqual({ answer: answer(row.id), kind: 'call' });
  });

  test('when the posts would pass the quota, then neither the posts nor the answer are stored', async () => {
    const row = aPost().forAccount('acc_b').build();
    const q = { accountId: 'acc_b', now, perMonth: 0 };
    expect(await posts.insertCounted(ds, [row], q, answerRows([['call', 'call-2']], 'h2', answer(row.id)))).toBeNull();
    expect(await findReplay(ds, 'acc_b', [['call', 'call-2']], 'h2')).toBeUndefined();
    expect(await ds.query('SELECT id FROM posts WHERE id = $1', [row.id])).toEqual([]);
  });

  test('when the sweep runs, then call answers older than a day go and every other answer stays', async () => {
    await ds.query(
      `INSERT INTO create_requests (account_id, kind, key, payload_hash, response, created_at) VALUES
         ('acc_c', 'call', 'old-1', 'h', '{}', now() - interval '25 hours'),
         ('acc_c', 'call', 'old-2', 'h', '{}', now() - interval '3 days'),
         ('acc_c', 'call', 'recent', 'h', '{}', now() - interval '23 hours'),
         ('acc_c', 'external', 'old-ext', 'h', '{}', now() - interval '30 days'),
         ('acc_c', 'idempotency', 'old-key', 'h', '{}', now() - interval '30 days')`,
    );
    const db = databaseOf(ds);
    expect(await forgetOldCalls(db, 1)).toBe(1);
    expect(await forgetOldCalls(db, 10)).toBe(1);
    expect(await forgetOldCalls(db, 10)).toBe(0);
    const left = await ds.query(`SELECT kind, key FROM create_requests WHERE account_id = 'acc_c' ORDER BY key`);
    expect(left).toEqual([
      { kind: 'external', key: 'old-ext' },
      { kind: 'idempotency', key: 'old-key' },
      { kind: 'call', key: 'recent' },
    ]);
  });
});
