import fc from 'fast-check';
import { ERROR_STATUS, type Principal } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { allPosts, api, principalOf } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let principal: Principal;

beforeAll(async () => {
  env = await createTestEnv('posts_fuzz');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0' });
  account = await system.seedAccount({ platforms: ['threads', 'facebook'], plan: 'pro' });
  principal = await principalOf(system, account.apiKey);
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const anyJson = fc.jsonValue({ maxDepth: 3 });
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/** Wild values per field: each sometimes right, often wrong in a way a rule names, sometimes anything at all. */
const wildFields = () =>
  fc.record({
    platforms: fc.oneof(
      fc.subarray(['threads', 'facebook', 'tiktok', 'youtube', 'instagram', 'myspace', '', 'THREADS']),
      anyJson,
    ),
    caption: fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constant('x'.repeat(2201)),
      fc.constant('y'.repeat(501)),
      fc.constant('  '),
      anyJson,
    ),
    title: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('t'.repeat(151)), anyJson),
    scheduledTime: fc.oneof(
      fc.constant(iso(-3600_000)),
      fc.constant('2031-05-01T10:00:00'),
      fc.constant('2031-05-01T10:00:00+02:00'),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.string({ maxLength: 12 }),
      anyJson,
    ),
    profileIds: fc.oneof(
      fc.constant([account.profiles[0].id]),
      fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }),
      anyJson,
    ),
    mediaUrls: fc.oneof(
      fc.constant(['https://cdn.example.com/a.jpg']),
      fc.constant(['not a url']),
      fc.constant([]),
      anyJson,
    ),
    mediaId: fc.oneof(fc.constant('med_unknown'), fc.string({ maxLength: 6 }), anyJson),
    platformMeta: fc.oneof(
      fc.constant({ tiktok: { privacyLevel: 'SELF_ONLY' } }),
      fc.constant({ tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE', commercialContentDisclosure: true } }),
      fc.constant({ tiktok: { privacyLevel: 'EVERYONE' } }),
      anyJson,
    ),
    externalId: fc.oneof(fc.string({ maxLength: 300 }), anyJson),
    category: fc.oneof(fc.string({ maxLength: 120 }), anyJson),
    unknownField: anyJson,
  });
const FIELDS = [
  'platforms',
  'caption',
  'title',
  'scheduledTime',
  'profileIds',
  'mediaUrls',
  'mediaId',
  'platformMeta',
  'externalId',
  'category',
  'unknownField',
];

/** A valid body for this account, then up to two fields replaced by wild values and up to two removed. */
const nearPayload = () =>
  fc
    .tuple(
      fc.record(
        {
          platforms: fc.constantFrom(['threads'], ['facebook'], ['threads', 'facebook']),
          caption: fc.string({ minLength: 1, maxLength: 40 }).filter((c) => c.trim() !== ''),
          scheduledTime: fc.integer({ min: 60_000, max: 30 * 86_400_000 }).map(iso),
          profileIds: fc.constant(account.profiles.map((p) => p.id)),
          externalId: fc.oneof(
            { arbitrary: fc.uuid(), weight: 3 },
            { arbitrary: fc.constantFrom('fz-1', 'fz-2'), weight: 1 },
          ),
          category: fc.string({ maxLength: 10 }),
        },
        { requiredKeys: ['platforms', 'caption'] },
      ),
      wildFields(),
      fc.subarray(FIELDS, { maxLength: 2 }),
      fc.subarray(FIELDS, { maxLength: 2 }),
    )
    .map(([base, wild, replaced, removed]) => {
      const body: Record<string, unknown> = { ...base };
      for (const f of replaced) body[f] = (wild as Record<string, unknown>)[f];
      for (const f of removed) delete body[f];
      return body;
    });

const requests = () =>
  fc.record({
    path: fc.constantFrom('/api/v1/posts', '/api/v1/posts/schedule', '/api/v1/publish'),
    body: fc.oneof({ arbitrary: nearPayload(), weight: 5 }, { arbitrary: anyJson, weight: 1 }),
    idempotencyKey: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 5 },
      { arbitrary: fc.constantFrom('fz-key-1', 'fz-key-2'), weight: 1 },
    ),
  });

describe('any create body', () => {
  test('when any JSON is sent to create posts, then the answer is 2xx or a 4xx with its code, never 5xx, and a refused request stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(requests(), async ({ path, body, idempotencyKey }) => {
        const before = (await allPosts(system, principal)).length;
        const r = await api(system, path, {
          method: 'POST',
          key: account.apiKey,
          body,
          headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
        });
        const after = (await allPosts(system, principal)).length;
        expect(r.status).toBeLessThan(500);
        if (r.status >= 400) {
          expect(r.body).toEqual({
            error: expect.any(String),
            code: expect.any(String),
            ...(r.body.details !== undefined && { details: r.body.details }),
          });
          expect(ERROR_STATUS[r.body.code as keyof typeof ERROR_STATUS]).toBe(r.status);
          expect(after).toBe(before);
        } else if (r.status === 201) {
          expect(after).toBe(before + r.body.postIds.length);
        } else {
          expect(r.status).toBe(200); // an earlier identical request answered again
          expect(after).toBe(before);
        }
      }),
      { numRuns: 120 },
    );
  });
});
