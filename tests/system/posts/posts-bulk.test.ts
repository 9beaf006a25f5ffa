import { Rpc, SCOPES } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { callTool } from '../support/mcp-client';
import { DatabaseFingerprint } from '../hostile/support';
import { allPosts, api, inHours, principalOf } from '../support/posts-api';

/**
 * Bulk create (JSON and CSV) applies every posting rule per row and answers per row; dryRun and
 * atomic store nothing when they must; export writes what import reads, within the list's filters
 * and the key's profiles.
 */

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let fingerprint: DatabaseFingerprint;

const profileOf = (platform: string) => account.profiles.find((p) => p.platform === platform)!.id;
const bulk = (body: unknown, query = '', key = account.apiKey) =>
  api(system, `/api/v1/posts/bulk${query}`, { method: 'POST', key, body });
async function bulkCsv(csv: string, query = '', key = account.apiKey) {
  const res = await fetch(`${system.baseUrl}/api/v1/posts/bulk${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
    body: csv,
  });
  return { status: res.status, body: (await res.json()) as any };
}
async function exportPosts(query: string, key = account.apiKey) {
  const res = await fetch(`${system.baseUrl}/api/v1/posts/export${query}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}
const postCount = async () => (await allPosts(system, await principalOf(system, account.apiKey))).length;

async function expectNothingStored(run: () => Promise<unknown>) {
  const before = await fingerprint.take();
  await run();
  expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
}

beforeAll(async () => {
  env = await createTestEnv('posts_bulk');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0', SCHEDULER_TICK_MS: '3600000' });
  account = await system.seedAccount({ platforms: ['threads', 'facebook'], plan: 'pro' });
  fingerprint = await DatabaseFingerprint.open(env.databaseUrl);
});
afterAll(async () => {
  await fingerprint?.close();
  await system?.stop();
  await env?.drop();
});

const good = (caption: string, extra: Record<string, unknown> = {}) => ({
  platforms: ['threads'],
  caption,
  scheduledTime: inHours(48),
  ...extra,
});

describe('bulk create from JSON', () => {
  test('when some rows break a rule, then each row has its result and only the good rows are stored', async () => {
    const before = await postCount();
    const r = await bulk([
      good('bulk one'),
      { platforms: ['myspace'], caption: 'x' },
      good('bulk two', { scheduledTime: '2020-01-01T00:00:00Z' }),
      good('bulk three', { platforms: ['threads', 'facebook'] }),
    ]);
    expect(r.status).toBe(200);
    expect(r.body.stored).toBe(true);
    const [one, two, three, four] = r.body.results;
    expect(one).toEqual({ row: 1, postIds: [expect.stringMatching(/^pst_/)] });
    expect(two).toMatchObject({ row: 2, code: 'unsupported_platform', field: 'platforms', error: expect.any(String) });
    expect(three).toMatchObject({ row: 3, code: 'scheduled_time_in_past', field: 'scheduledTime' });
    expect(four).toEqual({ row: 4, postIds: [expect.any(String), expect.any(String)] });
    expect(await postCount()).toBe(before + 3);
  });

  test('when a row names a profile the account does not have, then that row is refused with invalid_profile_ids', async () => {
    const r = await bulk([good('unknown profile', { profileIds: ['prf_unknown'] })], '?dryRun=true');
    expect(r.body.results).toEqual([
      { row: 1, code: 'invalid_profile_ids', error: expect.any(String), field: 'profileIds' },
    ]);
  });

  test('when dryRun=true, then every row is checked and nothing is stored', async () => {
    await expectNothingStored(async () => {
      const r = await bulk([good('dry one'), { platforms: ['threads'] }], '?dryRun=true');
      expect(r.status).toBe(200);
      expect(r.body.stored).toBe(false);
      expect(r.body.results[0]).toEqual({ row: 1, postIds: [expect.any(String)] });
      expect(r.body.results[1]).toMatchObject({ row: 2, code: 'missing_content' });
    });
  });

  test('when atomic=true and one row is refused, then nothing is stored and every row is reported', async () => {
    await expectNothingStored(async () => {
      const r = await bulk(
        [
          good('atomic one'),
          good('atomic two', { externalId: 'atomic-ext-1' }),
          { platforms: ['threads'], caption: 'x', scheduledTime: 'tomorrow' },
        ],
        '?atomic=true',
      );
      expect(r.status).toBe(200);
      expect(r.body.stored).toBe(false);
      expect(r.body.results.map((x: { row: number; code?: string }) => [x.row, x.code ?? 'ok'])).toEqual([
        [1, 'ok'],
        [2, 'ok'],
        [3, 'invalid_scheduled_time'],
      ]);
    });
  });

  test('when atomic=true and every row is good, then all are stored', async () => {
    const before = await postCount();
    const r = await bulk([good('all one'), good('all two', { externalId: 'atomic-ext-2' })], '?atomic=true');
    expect(r.body.stored).toBe(true);
    expect(await postCount()).toBe(before + 2);
  });

  test('when a bulk create is retried with the same Idempotency-Key, then each row answers its first postIds and nothing more is stored', async () => {
    const headers = { 'idempotency-key': `bulk-${Date.now()}` };
    const rows = [good('idem one'), good('idem two')];
    const first = await api(system, '/api/v1/posts/bulk', { method: 'POST', key: account.apiKey, body: rows, headers });
    expect(first.status).toBe(200);
    const before = await postCount();
    const again = await api(system, '/api/v1/posts/bulk', { method: 'POST', key: account.apiKey, body: rows, headers });
    expect(again.body.results).toEqual(first.body.results);
    expect(await postCount()).toBe(before);
  });

  test('when there are 501 rows, a body that is not an array, or a flag that is not true/false, then 400 validation_error and nothing is stored', async () => {
    await expectNothingStored(async () => {
      for (const [body, query] of [
        [Array.from({ length: 501 }, (_, i) => good(`row ${i}`)), ''],
        [good('not an array'), ''],
        [[good('x')], '?dryRun=yes'],
      ] as const) {
        const r = await bulk(body, query);
        expect({ status: r.status, code: r.body?.code }).toEqual({ status: 400, code: 'validation_error' });
      }
    });
  });
});

describe('bulk create quota', () => {
  test('when the rows exceed the monthly quota in atomic mode, then every row is refused together and nothing is stored', async () => {
    const trial = await system.seedAccount({ platforms: ['threads'] });
    const trialPosts = async () => (await allPosts(system, await principalOf(system, trial.apiKey))).length;
    const { quotas } = await system.bus.rpc.call(Rpc.authGetAccount, {}, await principalOf(system, trial.apiKey));
    const rows = Array.from({ length: quotas.scheduledPostsPerMonth + 1 }, (_, i) => good(`quota ${i}`));
    expect(rows.length).toBeLessThanOrEqual(500);
    const r = await bulk(rows, '?atomic=true', trial.apiKey);
    expect(r.body.stored).toBe(false);
    expect(r.body.results.at(-1)).toMatchObject({ code: 'quota_exceeded' });
    expect(await trialPosts()).toBe(0);
  });
});

describe('bulk create from CSV', () => {
  test('when some CSV rows break a rule, then each row has its result and only the good rows are stored', async () => {
    const before = await postCount();
    const csv = [
      'platforms,profileIds,caption,scheduledTime,category',
      `threads,${profileOf('threads')},"from csv, with a comma",${inHours(30)},launch`,
      `myspace,,bad platform,${inHours(30)},`,
      `threads;facebook,,both,${inHours(30)},`,
    ].join('\n');
    const r = await bulkCsv(csv);
    expect(r.status).toBe(200);
    expect(r.body.results).toEqual([
      { row: 1, postIds: [expect.any(String)] },
      { row: 2, code: 'unsupported_platform', error: expect.any(String), field: 'platforms' },
      { row: 3, postIds: [expect.any(String), expect.any(String)] },
    ]);
    expect(await postCount()).toBe(before + 3);
    const stored = await api(system, `/api/v1/posts/${r.body.results[0].postIds[0]}`, { key: account.apiKey });
    expect(stored.body).toMatchObject({ caption: 'from csv, with a comma', category: 'launch' });
  });

  test('when the CSV names an unknown column or is malformed, then 400 validation_error and nothing is stored', async () => {
    await expectNothingStored(async () => {
      for (const csv of ['platforms,caption,colour\nthreads,x,red', 'platforms,caption\nthreads,"unterminated']) {
        const r = await bulkCsv(csv);
        expect({ status: r.status, code: r.body?.code }).toEqual({ status: 400, code: 'validation_error' });
      }
    });
  });

  test('when the CSV body is larger than the body limit, then 400 validation_error before any row is read', async () => {
    const r = await bulkCsv(`platforms,caption\nthreads,"${'x'.repeat(1_100_000)}"`);
    expect({ status: r.status, code: r.body?.code }).toEqual({ status: 400, code: 'validation_error' });
    expect(r.body.error).toContain('too large');
  });

  test('when the CSV has 501 rows, then 400 validation_error', async () => {
    const csv = ['platforms,caption', ...Array.from({ length: 501 }, (_, i) => `threads,row ${i}`)].join('\n');
    const r = await bulkCsv(csv, '?dryRun=true');
    expect({ status: r.status, code: r.body?.code }).toEqual({ status: 400, code: 'validation_error' });
  });
});

describe('the svc_bulk_create_posts tool', () => {
  test('when called with dryRun on mixed rows, then it answers the same per-row results and stores nothing', async () => {
    await expectNothingStored(async () => {
      const t = await callTool(
        system.baseUrl,
        'svc_bulk_create_posts',
        { rows: [good('tool row'), { platforms: ['threads'] }], dryRun: true },
        account.apiKey,
      );
      expect(t.error).toBeUndefined();
      expect(t.message.result.structuredContent).toEqual({
        stored: false,
        results: [
          { row: 1, postIds: [expect.any(String)] },
          { row: 2, code: 'missing_content', error: expect.any(String) },
        ],
      });
    });
  });
});

describe('export', () => {
  test('when exported as CSV with filters, then only matching posts are written and the file re-imports cleanly (dryRun)', async () => {
    const created = await bulk([
      good('export me', { category: 'exported', platformMeta: { threads: {} } }),
      good('export me too', { category: 'exported', platforms: ['facebook'] }),
      good('not in category'),
    ]);
    expect(created.body.results.every((x: object) => 'postIds' in x)).toBe(true);
    const csv = await exportPosts('?format=csv&category=exported&platform=threads');
    expect(csv.status).toBe(200);
    expect(csv.type).toContain('text/csv');
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe(
      'platforms,profileIds,caption,title,mediaUrls,mediaId,scheduledTime,externalId,category,tiktok.privacyLevel,youtube.privacyStatus',
    );
    expect(lines.slice(1)).toEqual([expect.stringContaining('export me')]);
    const reimport = await bulkCsv(csv.text, '?dryRun=true');
    expect(reimport.status).toBe(200);
    expect(reimport.body.results).toEqual([{ row: 1, postIds: [expect.any(String)] }]);
  });

  test("when exported as JSON by a key limited to one profile, then only that profile's posts appear", async () => {
    const { key } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'threads only',
      scopes: [...SCOPES],
      profileIds: [profileOf('threads')],
    });
    const all = JSON.parse((await exportPosts('?format=json')).text);
    const limited = JSON.parse((await exportPosts('?format=json', key)).text);
    expect(all.some((p: { platforms: string[] }) => p.platforms.includes('facebook'))).toBe(true);
    expect(limited.length).toBeGreaterThan(0);
    expect(
      limited.every((p: { profileIds: string[] }) => p.profileIds.every((id) => id === profileOf('threads'))),
    ).toBe(true);
  });

  test('when the format is unknown, then 400 validation_error', async () => {
    const r = await exportPosts('?format=xml');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).code).toBe('validation_error');
  });
});
