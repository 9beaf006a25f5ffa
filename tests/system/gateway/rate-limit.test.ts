import { Rpc } from '@postbus/contracts';
import { createTestEnv, waitFor, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { start as startGateway } from '@postbus/gateway';
import { PgRateLimitStore } from '@postbus/gateway/src/entry-points/http/rate-limit.repository';
import { BucketLimiter } from '@postbus/gateway/src/entry-points/http/rate-limit-buckets';

const LIMIT = 3;

let env: TestEnv;
let system: RunningSystem;
let replica: Awaited<ReturnType<typeof startGateway>>;

beforeAll(async () => {
  env = await createTestEnv('gateway_rate_limit');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  // A second gateway replica over the same database and bus.
  replica = await startGateway({ ...env.env, PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: String(LIMIT) });
});
afterAll(async () => {
  await replica?.lifecycle.stop();
  await system?.stop();
  await env?.drop();
});

async function get(baseUrl: string, key?: string) {
  const res = await fetch(`${baseUrl}/api/v1/posts/pst_missing`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  const body = (await res.json()) as { code: string; error: string };
  const h = (name: string) => res.headers.get(name);
  return {
    status: res.status,
    code: body.code,
    error: body.error,
    limit: h('ratelimit-limit'),
    remaining: h('ratelimit-remaining'),
    reset: h('ratelimit-reset'),
    retryAfter: h('retry-after'),
  };
}

test('when a key makes requests through two gateway replicas, then they share one count and the one over the limit gets 429 rate_limited with Retry-After', async () => {
  const a = await system.seedAccount({ platforms: [] });
  const one = await get(system.baseUrl, a.apiKey);
  const two = await get(replica.baseUrl, a.apiKey);
  const three = await get(system.baseUrl, a.apiKey);
  const four = await get(replica.baseUrl, a.apiKey);

  expect([one, two, three].map((r) => [r.status, r.code, r.limit, r.remaining])).toEqual([
    [404, 'post_not_found', '3', '2'],
    [404, 'post_not_found', '3', '1'],
    [404, 'post_not_found', '3', '0'],
  ]);
  for (const r of [one, two, three]) {
    expect(Number(r.reset)).toBeGreaterThanOrEqual(1);
    expect(Number(r.reset)).toBeLessThanOrEqual(60);
    expect(r.retryAfter).toBeNull();
  }
  expect(four).toMatchObject({ status: 429, code: 'rate_limited', limit: '3', remaining: '0' });
  expect(four.error).toMatch(/3 requests/);
  expect(Number(four.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(four.retryAfter)).toBeLessThanOrEqual(60);
  expect(four.retryAfter).toBe(four.reset);
});

test('when one key is over its limit, then another key of the same account still gets its own allowance', async () => {
  const a = await system.seedAccount({ platforms: [] });
  for (let i = 0; i < LIMIT; i++) await get(system.baseUrl, a.apiKey);
  expect((await get(system.baseUrl, a.apiKey)).status).toBe(429);
  const { key } = await system.bus.rpc.call(Rpc.authIssueKey, {
    accountId: a.accountId,
    name: 'second',
    scopes: ['post:read'],
  });
  expect(await get(replica.baseUrl, key)).toMatchObject({ status: 404, remaining: '2' });
});

test('when many requests of one key arrive at once on both replicas, then exactly the limit gets through', async () => {
  const a = await system.seedAccount({ platforms: [] });
  await get(system.baseUrl, a.apiKey); // the verdict is cached on this replica
  await get(replica.baseUrl, a.apiKey); // and on that one
  const burst = await Promise.all(
    Array.from({ length: 12 }, (_, i) => get(i % 2 ? replica.baseUrl : system.baseUrl, a.apiKey)),
  );
  expect(burst.filter((r) => r.status === 404)).toHaveLength(LIMIT - 2);
  expect(burst.filter((r) => r.status === 429)).toHaveLength(12 - (LIMIT - 2));
});

test('when a request has no valid key, then it is not counted and carries no rate-limit headers', async () => {
  const r = await get(system.baseUrl);
  expect(r).toMatchObject({ status: 401, code: 'missing_api_key', limit: null, remaining: null });
});

test('when the window has passed, then the count starts again', async () => {
  const store = new PgRateLimitStore(replica.ds!, 300);
  const key = `test:${Math.random()}`;
  expect((await store.hit(key)).count).toBe(1);
  const second = await store.hit(key);
  expect(second.count).toBe(2);
  expect(second.resetMs).toBeGreaterThan(0);
  expect(second.resetMs).toBeLessThanOrEqual(300);
  const fresh = await waitFor(
    async () => {
      const h = await store.hit(key);
      return h.count === 1 ? h : undefined;
    },
    { timeoutMs: 3000, intervalMs: 100, what: 'a new window' },
  );
  expect(fresh.resetMs).toBeGreaterThan(0);
});

test('when two buckets share the store with windows of their own, then a key of the short one starts again while a key of the long one keeps counting', async () => {
  const store = new PgRateLimitStore(replica.ds!);
  const id = Math.random();
  const short = `short:${id}`;
  const long = `long:${id}`;
  expect((await store.hit(short, 1, 300)).count).toBe(1);
  const longFirst = await store.hit(long, 1, 3_600_000);
  expect(longFirst.count).toBe(1);
  expect(longFirst.resetMs).toBeGreaterThan(60_000);
  await waitFor(async () => ((await store.hit(short, 1, 300)).count === 1 ? true : undefined), {
    timeoutMs: 3000,
    intervalMs: 100,
    what: 'a new short window',
  });
  const longLater = await store.hit(long, 2, 3_600_000);
  expect(longLater.count).toBe(3);
  expect(longLater.resetMs).toBeGreaterThan(60_000);
  expect(longLater.resetMs).toBeLessThanOrEqual(3_600_000);
});

test('when a bucket refuses a key, then the replica refuses it again without counting until its window ends, and other keys are not held back', async () => {
  let now = 1_000_000;
  const counts = new Map<string, number>();
  const store = {
    hit: async (key: string) => {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return { count: counts.get(key)!, resetMs: 30_000 };
    },
  };
  const limiter = new BucketLimiter({ name: 'attempts', limit: 2, windowMs: 30_000 }, store, () => now);
  expect((await limiter.hit('a')).over).toBe(false);
  expect(limiter.refusal('a')).toBeUndefined();
  expect(await limiter.hit('a')).toEqual({ limit: 2, remaining: 0, resetSeconds: 30, over: false });
  expect(await limiter.hit('a')).toEqual({ limit: 2, remaining: 0, resetSeconds: 30, over: true });
  now += 10_500;
  expect(limiter.refusal('a')).toEqual({ limit: 2, remaining: 0, resetSeconds: 20, over: true });
  expect(limiter.refusal('b')).toBeUndefined();
  expect(counts.get('attempts:a')).toBe(3);
  now += 20_000;
  expect(limiter.refusal('a')).toBeUndefined();
});

test('when ended windows are swept, then their rows go and a key whose window is still open keeps its count', async () => {
  const store = new PgRateLimitStore(replica.ds!);
  const ended = `ended:${Math.random()}`;
  const open = `open:${Math.random()}`;
  await store.hit(ended, 1, 60_000);
  await store.hit(open, 2, 3_600_000);
  await replica.ds!.query(`UPDATE rate_limits SET window_start = now() - interval '2 minutes' WHERE key = $1`, [ended]);
  expect(await store.forgetEnded(60_000)).toBeGreaterThanOrEqual(1);
  const rows = await replica.ds!.query('SELECT key, count FROM rate_limits WHERE key = ANY($1) ORDER BY key', [
    [ended, open],
  ]);
  expect(rows).toEqual([{ key: open, count: 2 }]);
});
