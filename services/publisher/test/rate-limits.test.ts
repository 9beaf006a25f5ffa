import { start as startPublisher } from '../src/main';
import { publishedOn, startPublisherHarness, type PublisherHarness } from './support/harness';

let h: PublisherHarness;
let second: { lifecycle: { stop(): Promise<void> } };

beforeAll(async () => {
  const env = { PUBLISHER_RATE_LIMITS: 'threads=2/1m', PUBLISHER_CONCURRENCY: '1' };
  h = await startPublisherHarness('pub_ratelimits', { env });
  // A second publisher process on the same database and queue: the limit is shared, not per process.
  second = await startPublisher({ ...h.publisherEnv, ...env });
});
afterAll(async () => {
  await second?.lifecycle.stop();
  await h?.stop();
});

describe('per profile publishing limits', () => {
  test('when more posts are due for one profile than its limit allows, then across both publishers only the limit goes out and the rest wait', async () => {
    const busy = await h.profile('threads');
    const other = await h.profile('threads');
    const jobs = Array.from({ length: 4 }, (_, i) => h.due(busy, { caption: `busy ${i}` }));
    const elsewhere = h.due(other, { caption: 'another profile' });

    await h.publish(...jobs, elsewhere);
    await h.outcome(elsewhere.postId);
    const rows = await waitFor(async () => {
      const states = await Promise.all(jobs.map((j) => h.attempt(j.postId)));
      return states.filter((r) => r?.state === 'published').length === 2 &&
        states.filter((r) => r?.state === 'retry').length === 2
        ? states
        : undefined;
    });

    expect((await publishedOn(h.sandbox, 'threads')).filter((p) => p.userId === busy.userId)).toHaveLength(2);
    expect((await publishedOn(h.sandbox, 'threads')).filter((p) => p.userId === other.userId)).toHaveLength(1);
    for (const waiting of rows.filter((r) => r!.state === 'retry')) {
      // deferred, not failed: nothing was attempted, and the next try is after the window frees a slot
      expect(waiting).toMatchObject({ tries: 0, checkpoint: null });
      expect(new Date(waiting!.next_at).getTime() - Date.now()).toBeGreaterThan(30_000);
    }
    const slots = await h.query(
      `SELECT key, count(*)::int AS n FROM publisher.rate_slots WHERE key LIKE $1 GROUP BY key`,
      [`${busy.profileId}:%`],
    );
    expect(slots).toEqual([{ key: `${busy.profileId}:threads`, n: 2 }]);
  });
});

async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition never met');
}
