import { calls, lastRequestSeq, startMediaServer, waitFor, type MediaServer } from '@postbus/testing';
import {
  publishedOn,
  sandboxControl,
  startPublisherHarness,
  type PublisherHarness,
  type SandboxProfile,
} from './support/harness';

let h: PublisherHarness;
let media: MediaServer;
/** The sandbox's clock runs ahead by this much: Meta's hour and Instagram's quota window roll without waiting. */
let ahead = 0;
const HOUR = 3_600_000;
/** Fewer than the deferrals a throttled post goes through here: a deferral that counted would fail it. */
const MAX_ATTEMPTS = 2;

beforeAll(async () => {
  h = await startPublisherHarness('pub_throttling', {
    sandbox: { now: () => Date.now() + ahead, instagram: { quotaTotal: 1, quotaDurationS: 3600 } },
    env: { PUBLISHER_MAX_ATTEMPTS: String(MAX_ATTEMPTS) },
  });
  media = await startMediaServer();
  // Instagram answers an account over its hourly budget with 80002 and X-Business-Use-Case-Usage
  await sandboxControl(h.sandbox, 'POST', '/meta-throttle', { platform: 'instagram', accountCalls: 6 });
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

/** Spends the account's budget for the current hour, as another tool using the same app would. */
async function spendBudget(ig: SandboxProfile): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await fetch(`${h.sandbox.url}/instagram/v26.0/${ig.userId}?fields=id`, {
      headers: { authorization: `Bearer ${ig.accessToken}` },
    });
  }
}

/** Slots of the profile's `instagram` rate limit (PUBLISHER_RATE_LIMITS) taken in the window. */
async function rateSlots(ig: SandboxProfile): Promise<number> {
  const [row] = await h.query('SELECT count(*)::int AS n FROM publisher.rate_slots WHERE key = $1', [
    `${ig.profileId}:instagram`,
  ]);
  return row.n;
}

function attemptWhere(
  postId: string,
  what: string,
  probe: (row: Record<string, any>) => boolean,
): Promise<Record<string, any>> {
  return waitFor(
    async () => {
      const row = await h.attempt(postId);
      return row && probe(row) ? row : undefined;
    },
    { timeoutMs: 15_000, what },
  );
}

describe('Meta throttling and the Instagram publishing quota defer posts instead of failing them', () => {
  test('when Instagram throttles the account, then the post waits without using attempts and is published once the hour rolls', async () => {
    const ig = await h.profile('instagram');
    await spendBudget(ig);
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(ig, { mediaUrls: [media.link('throttled.jpg', 100)] });

    await h.publish(job);
    const waiting = await attemptWhere(
      job.postId,
      'a throttle deferral',
      (a) => a.state === 'retry' && /limiting how often/.test(a.last_error ?? ''),
    );
    expect(waiting.tries).toBe(0);
    // it met the throttle more often than it has attempts, and is still waiting
    await waitFor(
      async () =>
        (await calls(h.sandbox, 'instagram', ig.userId, since)).lines.length > MAX_ATTEMPTS ? true : undefined,
      { timeoutMs: 15_000, what: 'repeated throttles' },
    );
    expect(h.outcomes.find((o) => o.data.postId === job.postId)).toBeUndefined();
    expect(await h.attempt(job.postId)).toMatchObject({ exhausted: false });
    const [remembered] = await h.query('SELECT strikes FROM publisher.platform_throttles WHERE key = $1', [
      `instagram:${ig.profileId}:rate_limit`,
    ]);
    expect(remembered.strikes).toBeGreaterThanOrEqual(1);

    ahead += HOUR;
    const outcome = await h.outcome(job.postId);

    expect(outcome.name).toBe('post.published');
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 1, exhausted: false });
    expect((await publishedOn(h.sandbox, 'instagram')).filter((p) => p.userId === ig.userId)).toHaveLength(1);
    // each wait handed back the rate-limit slot its retry took: the post holds one, like any post
    expect(await rateSlots(ig)).toBe(1);
  });

  test('when another publisher process met a throttle for the account, then a new post waits for it without calling Instagram', async () => {
    const ig = await h.profile('instagram');
    const reason = 'Instagram is limiting how often this account may be called; publishing will be tried again later.';
    await h.query(
      `INSERT INTO publisher.platform_throttles (key, until, reason) VALUES ($1, now() + interval '1 hour', $2)`,
      [`instagram:${ig.profileId}:rate_limit`, reason],
    );
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(ig, { mediaUrls: [media.link('held.jpg', 100)] });

    await h.publish(job);
    const first = await attemptWhere(
      job.postId,
      'a deferral on the remembered throttle',
      (a) => a.state === 'retry' && a.last_error === reason,
    );
    // it looked again at least twice, each time finding the throttle still on
    await attemptWhere(job.postId, 'two more deferrals', (a) => a.seq >= first.seq + 4);
    expect((await calls(h.sandbox, 'instagram', ig.userId, since)).lines).toEqual([]);
    expect(await h.attempt(job.postId)).toMatchObject({ tries: 0 });

    await h.query('UPDATE publisher.platform_throttles SET until = now() WHERE key = $1', [
      `instagram:${ig.profileId}:rate_limit`,
    ]);
    const outcome = await h.outcome(job.postId);

    expect(outcome.name).toBe('post.published');
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 1 });
  });

  test('when the Instagram publishing quota is full, then the post waits for a slot without creating a container and is published once one frees', async () => {
    const ig = await h.profile('instagram');
    const before = h.due(ig, { mediaUrls: [media.link('first.jpg', 100)] });
    await h.publish(before);
    expect((await h.outcome(before.postId)).name).toBe('post.published');
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(ig, { mediaUrls: [media.link('second.jpg', 100)] });

    await h.publish(job);
    const waiting = await attemptWhere(
      job.postId,
      'a quota deferral',
      (a) => a.state === 'retry' && /published 1 of the 1 posts.*waits until a slot frees/.test(a.last_error ?? ''),
    );
    expect(waiting.tries).toBe(0);
    const { lines } = await calls(h.sandbox, 'instagram', ig.userId, since);
    expect(new Set(lines)).toEqual(
      new Set(['GET /instagram/v26.0/{user}/content_publishing_limit?fields=quota_usage,config']),
    );
    const [remembered] = await h.query('SELECT key FROM publisher.platform_throttles WHERE key = $1', [
      `instagram:${ig.profileId}:publishing_quota`,
    ]);
    expect(remembered).toBeDefined();

    ahead += HOUR;
    const outcome = await h.outcome(job.postId);

    expect(outcome.name).toBe('post.published');
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 1 });
    expect((await publishedOn(h.sandbox, 'instagram')).filter((p) => p.userId === ig.userId)).toHaveLength(2);
    expect(await rateSlots(ig)).toBe(2);
  });

  test('when the throttle outlasts the longest total wait, then the post fails with the throttle as its reason and a dead letter is kept', async () => {
    await h.stopPublisher();
    await h.startPublisher({ PUBLISHER_THROTTLE_GIVE_UP_MS: '1500' });
    const ig = await h.profile('instagram');
    await spendBudget(ig);
    const job = h.due(ig, { mediaUrls: [media.link('never.jpg', 100)] });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(
      /^Instagram is limiting how often this account may be called\. Postbus waited \d+ seconds for the platform's limit to lift, then stopped; publish the post again later\.$/,
    );
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'failed', exhausted: true });
    expect((await publishedOn(h.sandbox, 'instagram')).filter((p) => p.userId === ig.userId)).toHaveLength(0);
    const dead = await waitFor(async () => (await h.deadLetters()).find((d) => d.postId === job.postId), {
      what: 'the dead letter',
    });
    expect(dead.error).toMatch(/gave up waiting on a platform throttle/);
  });
});
