import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, newConnectUrl, Visitor } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_expiry');
  system = await startSystem(env, { CONNECT_LINK_TTL_SECONDS: '1' });
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const pastLifetime = () => new Promise((resolve) => setTimeout(resolve, 1_200));

describe('link lifetime (CONNECT_LINK_TTL_SECONDS)', () => {
  test('when the lifetime is configured, then expiresAt follows it', async () => {
    const before = Date.now();
    const link = await newConnectUrl(system, account.apiKey, 'threads');
    const after = Date.now();

    // One second from the moment connections made the link, which lies between the two readings.
    expect(Date.parse(link.expiresAt)).toBeGreaterThanOrEqual(before + 1_000);
    expect(Date.parse(link.expiresAt)).toBeLessThanOrEqual(after + 1_000);
  });

  test('when a link is opened after it expired, then 410 and the request reads expired', async () => {
    const link = await newConnectUrl(system, account.apiKey, 'instagram');
    await pastLifetime();

    const page = await new Visitor().get(link.connectUrl);
    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });

    expect(page.status).toBe(410);
    expect(page.html).toContain('Link expired');
    expect(state.body).toMatchObject({ status: 'expired', profileId: null });
  });

  test('when the landing page was opened in time but the person continues after expiry, then it is refused and nothing starts', async () => {
    const link = await newConnectUrl(system, account.apiKey, 'tiktok');
    const visitor = new Visitor();
    const landing = await visitor.get(link.connectUrl);
    await pastLifetime();

    const go = await visitor.post(link.connectUrl, { csrf: landing.html.match(/name="csrf" value="([^"]+)"/)![1] });

    expect(landing.status).toBe(200);
    expect(go.status).toBe(410);
    expect(go.location).toBeNull();
    expect(
      (await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey })).body.status,
    ).toBe('expired');
  });
});
