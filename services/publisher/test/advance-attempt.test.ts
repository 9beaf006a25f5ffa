import type { DataSource } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { Events, type EventEnvelope, type PostDue } from '@postbus/contracts';
import { createLogger, openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { AttemptRepository } from '../src/attempts/attempt.repository';
import { migrations } from '../src/migrations';
import { advanceAttempt } from '../src/publishing/advance-attempt';
import type { PlatformAdapter, PublishContext } from '../src/publishing/adapters/platform-adapter';
import type { PublishPorts } from '../src/publishing/publish-ports';
import { RateLimiter } from '../src/rate-limits/rate-limiter';
import type { FollowUpScheduler } from '../src/scheduling/follow-up.scheduler';
import { ThrottleRepository } from '../src/throttling/throttle.repository';
import type { WorkerRegistry } from '../src/workers/worker-registry';

let env: TestEnv;
let ds: DataSource;

beforeAll(async () => {
  env = await createTestEnv('publisher_advance');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'publisher', migrations });
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});

const STORED_URLS = ['https://media.example.test/files/m1?sig=expired', 'https://cdn.example.test/second.jpg'];
const FRESH_URL = 'https://media.example.test/files/m1?sig=fresh';

/** A platform that publishes at once and notes what it was handed. */
function recordingPlatform(seen: { mediaUrls?: string[] }): PlatformAdapter {
  return {
    async run(ctx: PublishContext) {
      seen.mediaUrls = ctx.mediaUrls;
      return { kind: 'published', platformPostId: 'p-1', permalink: null };
    },
    async resolve() {
      return { kind: 'unknown' };
    },
  };
}

function portsWith(adapter: PlatformAdapter): PublishPorts {
  return {
    attempts: new AttemptRepository(ds),
    credentials: {
      get: async (job) => ({
        profileId: job.profileId,
        platform: job.platform,
        platformUserId: 'u-1',
        handle: 'someone',
        accessToken: 'token',
        status: 'active',
      }),
      refresh: async () => {
        throw new Error('no refresh expected');
      },
    },
    media: {
      lookup: async () => ({
        kind: 'url',
        url: FRESH_URL,
        facts: { contentType: 'image/jpeg', sizeBytes: 1, probe: null },
      }),
    },
    adapters: { threads: adapter },
    rateLimiter: new RateLimiter(ds, {}),
    throttles: new ThrottleRepository(ds),
    followUps: {
      schedule: async () => Promise.reject(new Error('no follow-up expected')),
    } as unknown as FollowUpScheduler,
    worker: {} as WorkerRegistry,
    policy: {
      maxAttempts: 3,
      backoff: { baseMs: 10, maxMs: 20 },
      pollIntervalMs: 10,
      pollMaxIntervalMs: 20,
      processingTimeoutMs: 1000,
      followUpGraceMs: 1000,
      throttle: { minMs: 10, maxMs: 20, giveUpMs: 1000 },
    },
    logger: createLogger('advance-attempt-test', 'silent'),
    announced: () => undefined,
    deferred: () => undefined,
  };
}

test('when media gives a fresh link for the stored media, then the platform is handed it in place of the first stored link, and the delivered post is left as it came', async () => {
  const job = {
    postId: randomUUID(),
    accountId: randomUUID(),
    profileId: randomUUID(),
    platform: 'threads',
    caption: 'hello',
    mediaId: 'm1',
    mediaUrls: [...STORED_URLS],
    platformMeta: null,
  } as unknown as PostDue;
  const event = {
    id: randomUUID(),
    name: Events.postDue.name,
    occurredAt: new Date().toISOString(),
    data: job,
  } as EventEnvelope;
  const seen: { mediaUrls?: string[] } = {};
  const ports = portsWith(recordingPlatform(seen));
  const claim = await ports.attempts.claim(job, { workerId: 'worker-a', staleMs: 60_000, followUpGraceMs: 60_000 });
  if (claim.action !== 'run') throw new Error(`expected to run, got ${claim.action}`);

  await advanceAttempt(ports, { event, job, headers: {} }, claim);

  expect(seen.mediaUrls).toEqual([FRESH_URL, STORED_URLS[1]]);
  expect(job.mediaUrls).toEqual(STORED_URLS);
  expect((event.data as PostDue).mediaUrls).toEqual(STORED_URLS);
  expect(await ports.attempts.find(job.postId)).toMatchObject({ state: 'published', platform_post_id: 'p-1' });
});
