import { Rpc } from '@postbus/contracts';
import { createTestEnv, waitFor, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { callTool } from '../support/mcp-client';

/**
 * The gateway and the agent endpoint keep auth's verdict on a key for AUTH_CACHE_MS (a minute
 * here). Disabling an account (or one of its users) or changing its plan must not wait for that:
 * auth announces auth.account.changed and every replica drops the account's verdicts at once.
 */

let env: TestEnv;
let system: RunningSystem;

beforeAll(async () => {
  env = await createTestEnv('gateway_cached_verdicts');
  system = await startSystem(env, { AUTH_CACHE_MS: '60000' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

async function rest(key: string) {
  const res = await fetch(`${system.baseUrl}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, code: ((await res.json()) as { code?: string }).code };
}

/** The status of one tool call on the agent endpoint with this key. */
const agent = async (key: string) => (await callTool(system.baseUrl, 'svc_list_profiles', {}, key)).status;

/** Both edges have verified the key and cached the verdict. */
async function cachedEverywhere(key: string) {
  expect((await rest(key)).status).toBe(200);
  expect(await agent(key)).toBe(200);
}

const refusedAtOnce = (what: string, probe: () => Promise<boolean>) =>
  waitFor(async () => ((await probe()) ? true : undefined), { what, timeoutMs: 15_000 });

describe('cached verdicts after an account changes', () => {
  test('when an account is disabled, then the gateway answers 403 api_access_disabled and the agent endpoint 401 at once', async () => {
    const account = await system.seedAccount({ platforms: [], plan: 'pro' });
    await cachedEverywhere(account.apiKey);

    await system.bus.rpc.call(Rpc.authUpdateAccount, { accountId: account.accountId, disabled: true });

    await refusedAtOnce(
      'the gateway to refuse the disabled account',
      async () => (await rest(account.apiKey)).code === 'api_access_disabled',
    );
    await refusedAtOnce(
      'the agent endpoint to refuse the disabled account',
      async () => (await agent(account.apiKey)) === 401,
    );
  });

  test('when the key holder (a user) is disabled, then both edges refuse at once', async () => {
    const account = await system.seedAccount({ platforms: [], plan: 'pro' });
    await cachedEverywhere(account.apiKey);

    await system.bus.rpc.call(Rpc.authUpdateUser, { userId: account.userId, disabled: true });

    await refusedAtOnce(
      'the gateway to refuse the disabled user',
      async () => (await rest(account.apiKey)).code === 'api_access_disabled',
    );
    await refusedAtOnce(
      'the agent endpoint to refuse the disabled user',
      async () => (await agent(account.apiKey)) === 401,
    );
  });

  test('when the plan changes to one without API access, then the gateway answers 403 plan_required at once', async () => {
    const account = await system.seedAccount({ platforms: [], plan: 'pro' });
    await cachedEverywhere(account.apiKey);

    await system.bus.rpc.call(Rpc.authUpdateAccount, { accountId: account.accountId, plan: 'expired' });

    await refusedAtOnce(
      'the gateway to apply the new plan',
      async () => (await rest(account.apiKey)).code === 'plan_required',
    );
  });

  test('when another account changes, then this account keeps being served', async () => {
    const kept = await system.seedAccount({ platforms: [], plan: 'pro' });
    const changed = await system.seedAccount({ platforms: [], plan: 'pro' });
    await cachedEverywhere(kept.apiKey);

    await system.bus.rpc.call(Rpc.authUpdateAccount, { accountId: changed.accountId, disabled: true });
    await refusedAtOnce(
      'the changed account to be refused',
      async () => (await rest(changed.apiKey)).code === 'api_access_disabled',
    );

    expect((await rest(kept.apiKey)).status).toBe(200);
    expect(await agent(kept.apiKey)).toBe(200);
  });
});
