import { DEFAULT_META_THROTTLE, MetaThrottleStore } from '../src/meta/meta-throttle';
import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

let sandbox: RunningSandbox;
/** The sandbox's clock runs ahead by this much: windows roll without waiting. */
let ahead = 0;
const HOUR = 3_600_000;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0, now: () => Date.now() + ahead });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  ahead = 0;
  await control(sandbox, 'POST', '/reset');
});

const igLimit = (user: { userId: string; accessToken: string }) =>
  call(`${sandbox.url}/instagram/v21.0/${user.userId}/content_publishing_limit`, { token: user.accessToken });
const fbPage = (user: { userId: string; accessToken: string }) =>
  call(`${sandbox.url}/facebook/v21.0/${user.userId}?fields=id`, { token: user.accessToken });
const thLimit = (user: { userId: string; accessToken: string }) =>
  call(`${sandbox.url}/threads/v1.0/${user.userId}/threads_publishing_limit`, { token: user.accessToken });

describe("Meta's call budgets over a rolling window", () => {
  test('when nothing is set, then each account has Meta’s budgets (4800 an hour on Graph, 48,000 a day on Threads) and no app budget', async () => {
    for (const platform of ['facebook', 'instagram', 'threads'] as const) {
      const rule = (await control(sandbox, 'POST', '/meta-throttle', { platform })).body;
      expect(rule).toEqual({ platform, ...DEFAULT_META_THROTTLE[platform] });
    }
    expect(DEFAULT_META_THROTTLE).toMatchObject({
      facebook: { windowMs: HOUR, accountCalls: 4800, appCallsPerUser: null },
      instagram: { windowMs: HOUR, accountCalls: 4800, appCallsPerUser: null },
      threads: { windowMs: 24 * HOUR, accountCalls: 48_000, appCallsPerUser: null },
    });
  });

  test('when an Instagram account makes its 4801st call of the hour under the default budget, then it gets 80002, and null relaxes it', async () => {
    const store = new MetaThrottleStore();
    const now = Date.now();
    for (let i = 0; i < 4800; i++) expect(store.admit('instagram', 'busy', now + i, 1)).toBeNull();
    expect(store.admit('instagram', 'busy', now + 4800, 1)?.code).toBe(80002);
    expect(store.admit('instagram', 'other', now + 4800, 1)).toBeNull();
    expect(store.admit('instagram', 'busy', now + HOUR, 1)).toBeNull();

    store.set('instagram', { accountCalls: null });
    expect(store.admit('instagram', 'busy', now + HOUR, 1)).toBeNull();
  });

  test('when a call is past the default budget over HTTP (window shortened), then the account is throttled; with accountCalls null it is not', async () => {
    const ig = await newUser(sandbox, 'instagram');
    await control(sandbox, 'POST', '/meta-throttle', { platform: 'instagram', windowMs: 60_000 });
    // the default budget spent by earlier calls of the window
    for (let i = 0; i < 4799; i++) sandbox.state.metaThrottle.admit('instagram', ig.userId, Date.now() + ahead, 1);
    expect((await igLimit(ig)).status).toBe(200);
    expect((await igLimit(ig)).body.error?.code).toBe(80002);

    await control(sandbox, 'POST', '/meta-throttle', { platform: 'instagram', accountCalls: null });
    expect((await igLimit(ig)).status).toBe(200);
  });

  test('when the app budget is per user, then it is 200 calls an hour for each of the platform’s users, one user at least', async () => {
    const store = new MetaThrottleStore({ facebook: { appCallsPerUser: 200, accountCalls: null } });
    const now = Date.now();
    for (let i = 0; i < 200; i++) expect(store.admit('facebook', `page${i % 7}`, now, 0)).toBeNull();
    expect(store.admit('facebook', 'page1', now, 0)?.code).toBe(4);
    for (let i = 0; i < 200; i++) expect(store.admit('facebook', 'page2', now, 2)).toBeNull();
    expect(store.admit('facebook', 'page3', now, 2)?.code).toBe(4);
  });

  test('when the app budget per user is on over HTTP, then more users raise it', async () => {
    await control(sandbox, 'POST', '/meta-throttle', { platform: 'instagram', appCallsPerUser: 2 });
    const a = await newUser(sandbox, 'instagram', 'ig_one');
    for (let i = 0; i < 2; i++) expect((await igLimit(a)).status).toBe(200);
    expect((await igLimit(a)).body.error?.code).toBe(4);
    await newUser(sandbox, 'instagram', 'ig_two');
    expect((await igLimit(a)).status).toBe(200);
  });

  test('when the Instagram app spends its budget, then every user gets code 4 with X-App-Usage until the hour rolls', async () => {
    await control(sandbox, 'POST', '/meta-throttle', { platform: 'instagram', appCalls: 3 });
    const [a, b] = [await newUser(sandbox, 'instagram', 'ig_a'), await newUser(sandbox, 'instagram', 'ig_b')];
    for (const user of [a, b, a]) expect((await igLimit(user)).status).toBe(200);

    const refused = await igLimit(b);
    expect([refused.status, refused.body.error.code, refused.body.error.is_transient]).toEqual([400, 4, true]);
    expect(JSON.parse(refused.headers.get('x-app-usage')!)).toMatchObject({ call_count: 100 });

    ahead += HOUR - 60_000;
    expect((await igLimit(a)).body.error?.code).toBe(4);
    ahead += 60_001;
    expect((await igLimit(a)).status).toBe(200);
  });

  test('when one Instagram account spends its budget, then it gets 80002 with X-Business-Use-Case-Usage and the minutes to regain access, and others go on', async () => {
    await control(sandbox, 'POST', '/meta-throttle', { platform: 'instagram', accountCalls: 2 });
    const [busy, other] = [
      await newUser(sandbox, 'instagram', 'ig_busy'),
      await newUser(sandbox, 'instagram', 'ig_other'),
    ];
    await igLimit(busy);
    ahead += 20 * 60_000;
    await igLimit(busy);

    const refused = await igLimit(busy);
    expect(refused.body.error.code).toBe(80002);
    const usage = JSON.parse(refused.headers.get('x-business-use-case-usage')!);
    // the first call leaves the hour 40 minutes from now
    expect(usage).toEqual({
      [busy.userId]: [
        { type: 'instagram', call_count: 100, total_cputime: 25, total_time: 33, estimated_time_to_regain_access: 40 },
      ],
    });
    expect((await igLimit(other)).status).toBe(200);

    ahead += 40 * 60_000 + 1;
    expect((await igLimit(busy)).status).toBe(200);
  });

  test('when a Facebook Page spends its budget, then it gets code 32 with a pages usage entry', async () => {
    await control(sandbox, 'POST', '/meta-throttle', { platform: 'facebook', accountCalls: 1 });
    const page = await newUser(sandbox, 'facebook', 'fb_page');
    await fbPage(page);

    const refused = await fbPage(page);
    expect(refused.body.error.code).toBe(32);
    expect(JSON.parse(refused.headers.get('x-business-use-case-usage')!)[page.userId][0]).toMatchObject({
      type: 'pages',
      estimated_time_to_regain_access: 60,
    });
  });

  test('when a Threads user spends its budget, then it gets code 17 and stays throttled for 24 hours, not one', async () => {
    await control(sandbox, 'POST', '/meta-throttle', { platform: 'threads', accountCalls: 1 });
    const th = await newUser(sandbox, 'threads');
    await thLimit(th);

    const refused = await thLimit(th);
    expect(refused.body.error.code).toBe(17);
    expect(JSON.parse(refused.headers.get('x-app-usage')!)).toMatchObject({ call_count: 100 });
    ahead += 2 * HOUR;
    expect((await thLimit(th)).body.error?.code).toBe(17);
    ahead += 22 * HOUR;
    expect((await thLimit(th)).status).toBe(200);
  });

  test('when a test shortens the window, then the throttle lifts that much sooner, and reset restores the rules', async () => {
    const set = await control(sandbox, 'POST', '/meta-throttle', {
      platform: 'instagram',
      windowMs: 1000,
      accountCalls: 1,
    });
    expect(set.body).toEqual({
      platform: 'instagram',
      windowMs: 1000,
      appCalls: null,
      appCallsPerUser: null,
      accountCalls: 1,
    });
    const ig = await newUser(sandbox, 'instagram');
    await igLimit(ig);
    expect((await igLimit(ig)).body.error?.code).toBe(80002);
    ahead += 1001;
    expect((await igLimit(ig)).status).toBe(200);

    await control(sandbox, 'POST', '/reset');
    const again = await newUser(sandbox, 'instagram');
    await igLimit(again);
    expect((await igLimit(again)).status).toBe(200);
  });

  test.each([
    ['a platform that is not Meta', { platform: 'tiktok', accountCalls: 1 }],
    ['a budget of zero', { platform: 'instagram', appCalls: 0 }],
    ['a window that is not a number', { platform: 'instagram', windowMs: 'an hour' }],
    ['an unknown rule', { platform: 'instagram', pageCalls: 1 }],
  ])('when the rules are set with %s, then they are refused with validation_error', async (_what, body) => {
    const res = await control(sandbox, 'POST', '/meta-throttle', body);
    expect([res.status, res.body.code]).toEqual([400, 'validation_error']);
  });
});
