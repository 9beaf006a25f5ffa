import type { DataSource } from 'typeorm';
import { databaseOf, openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { migrations } from '../src/migrations';
import { PostRepository } from '../src/posts/post.repository';
import { failWaiting, releaseWaiting, waitingRenditions } from '../src/renditions/rendition-wait.repository';
import { claimDuePosts, nextDueTime } from '../src/scheduler/claim-due-posts';
import { aPost } from './post-builder';

let env: TestEnv;
let ds: DataSource;
let posts: PostRepository;

beforeAll(async () => {
  env = await createTestEnv('posts_rendition_wait');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations, poolSize: 4 });
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

/** A due post that carries rendition `mediaId` and waits for it. */
const waiting = (mediaId: string, dueInMs = -500) => ({
  ...aPost().dueIn(dueInMs).build(),
  media_id: mediaId,
  media_urls: [`http://x/files/${mediaId}?old`],
  awaiting_media_id: mediaId,
});

describe('posts waiting for their rendition', () => {
  test('when a due post waits for its rendition, then the scheduler neither dispatches it nor wakes for it; once the rendition is made it carries its URL and is dispatched', async () => {
    const post = waiting('med_rendition1');
    await ds.transaction((m) => posts.insertMany(m, [post]));
    expect(await claimDuePosts(ds, 100)).toBe(0);
    expect(await nextDueTime(ds)).toBeNull();
    expect(await waitingRenditions(databaseOf(ds), 10)).toEqual([
      {
        mediaId: 'med_rendition1',
        accountId: post.account_id,
        platform: 'threads',
        earliestDue: post.scheduled_time,
        cover: false,
      },
    ]);

    expect(await releaseWaiting(databaseOf(ds), 'med_rendition1', 'http://x/files/med_rendition1?fresh')).toBe(1);
    expect(await claimDuePosts(ds, 100)).toBe(1);
    const [row] = await ds.query('SELECT media_urls, awaiting_media_id, dispatched_at FROM posts WHERE id = $1', [
      post.id,
    ]);
    expect(row).toMatchObject({
      media_urls: ['http://x/files/med_rendition1?fresh'],
      awaiting_media_id: null,
      dispatched_at: expect.any(Date),
    });
  });

  test('when waiting posts fail up to a due time, then only those due by then fail (dispatched and failed at once), and the later one keeps waiting', async () => {
    const due = waiting('med_rendition2', -60_000);
    const later = waiting('med_rendition2', 3600_000);
    await ds.transaction((m) => posts.insertMany(m, [due, later]));
    const failed = await failWaiting(databaseOf(ds), 'med_rendition2', 'not made in time', new Date(Date.now() - 1000));
    expect(failed.map((r) => r.id)).toEqual([due.id]);
    const rows = await ds.query(
      'SELECT id, status, failed_reason, awaiting_media_id FROM posts ORDER BY scheduled_time',
    );
    expect(rows).toEqual([
      { id: due.id, status: 'failed', failed_reason: 'not made in time', awaiting_media_id: null },
      { id: later.id, status: 'scheduled', failed_reason: null, awaiting_media_id: 'med_rendition2' },
    ]);
    expect(await claimDuePosts(ds, 100)).toBe(0);
  });
});
