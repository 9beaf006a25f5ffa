import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Bus } from '@postbus/bus';
import { Rpc, SCOPES } from '@postbus/contracts';
import { createTestEnv, openTestBus, type TestEnv } from '@postbus/testing';
import type { CliCommand } from '../../../scripts/postbus';
import { start } from '../src/main';

const ROOT = join(__dirname, '..', '..', '..');
const command = async (name: string): Promise<CliCommand> =>
  ((await import(join(ROOT, 'scripts', 'commands', `${name}.command.ts`))) as { command: CliCommand }).command;

let env: TestEnv;
let auth: Awaited<ReturnType<typeof start>>;
let bus: Bus;

beforeAll(async () => {
  env = await createTestEnv('auth_cli');
  auth = await start({ ...env.env, AUTH_HTTP_PORT: '0' });
  bus = await openTestBus(env);
});
afterAll(async () => {
  await bus?.close();
  await auth?.lifecycle.stop();
  await env?.drop();
});

/** Runs a command as `pnpm postbus` would, with --json, and answers what it printed. */
async function run(
  name: string,
  args: Record<string, string | true>,
  extraEnv: Record<string, string> = {},
): Promise<any> {
  const lines: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  try {
    await (
      await command(name)
    ).run({ ...args, json: true }, { bus: async () => bus, env: { ...env.env, ...extraEnv } });
  } finally {
    log.mockRestore();
  }
  return JSON.parse(lines.join('\n'));
}

const verify = (token: string) => bus.rpc.call(Rpc.authVerifyKey, { token });
const email = () => `operator-${Math.random().toString(36).slice(2, 10)}@example.com`;

test('when an operator creates an account and issues a key, then the key is printed once and verifies with every scope', async () => {
  const created = await run('create-account', { email: email() });
  expect(created.accountId).toMatch(/^acc_/);
  const issued = await run('issue-key', { account: created.accountId, name: 'ci' });
  expect(issued.apiKey).toMatch(/^sk_live_[0-9A-Za-z]{43}$/);
  const principal = await verify(issued.apiKey);
  expect(principal).toMatchObject({
    accountId: created.accountId,
    userId: created.userId,
    credential: { type: 'api_key', id: issued.keyId },
    profileIds: 'all',
  });
  expect([...principal.scopes].sort()).toEqual([...SCOPES].sort());
  expect(principal.scopes).toEqual(expect.arrayContaining(['webhook:read', 'webhook:write']));
  const listed = await run('list-keys', { account: created.accountId });
  expect(listed).toEqual([expect.objectContaining({ keyId: issued.keyId, name: 'ci', status: 'active' })]);
  expect(JSON.stringify(listed)).not.toContain(issued.apiKey);
});

test('when a key is issued with limited scopes, profiles and an expiry, then it carries them', async () => {
  const { accountId } = await run('create-account', { email: email() });
  const expires = new Date(Date.now() + 86_400_000).toISOString();
  const issued = await run('issue-key', {
    account: accountId,
    scopes: 'post:read,post:write',
    profiles: 'prf_one,prf_two',
    expires,
  });
  expect(await verify(issued.apiKey)).toMatchObject({
    scopes: ['post:read', 'post:write'],
    profileIds: ['prf_one', 'prf_two'],
  });
  const [key] = await run('list-keys', { account: accountId });
  expect(key.expiresAt).toBe(expires);
});

test('when a key is issued with the webhook scopes only, then it carries them and nothing it was not given', async () => {
  const { accountId } = await run('create-account', { email: email() });
  const issued = await run('issue-key', { account: accountId, scopes: 'webhook:read,webhook:write' });
  const principal = await verify(issued.apiKey);
  expect(principal.scopes).toEqual(['webhook:read', 'webhook:write']);
  expect(principal.deprecatedScopes).toBeUndefined();
});

test('when the plan and tester flag change, then the key follows: expired is plan_required, tester and pro pass', async () => {
  const { accountId } = await run('create-account', { email: email() });
  const { apiKey } = await run('issue-key', { account: accountId });
  expect((await run('set-plan', { account: accountId, plan: 'expired' })).entitled).toBe(false);
  await expect(verify(apiKey)).rejects.toMatchObject({ code: 'plan_required' });
  expect((await run('set-tester', { account: accountId })).tester).toBe(true);
  await expect(verify(apiKey)).resolves.toMatchObject({ accountId });
  await run('set-tester', { account: accountId, off: true });
  await expect(verify(apiKey)).rejects.toMatchObject({ code: 'plan_required' });
  await run('set-plan', { account: accountId, plan: 'pro' });
  await expect(verify(apiKey)).resolves.toMatchObject({ accountId });
  await run('set-plan', { account: accountId, plan: 'trial', 'trial-ends': new Date(Date.now() - 1000).toISOString() });
  await expect(verify(apiKey)).rejects.toMatchObject({ code: 'plan_required' });
});

test("when a key verifies, then its principal carries the plan's quotas, and they follow a plan change", async () => {
  const { accountId } = await run('create-account', { email: email() });
  const { apiKey } = await run('issue-key', { account: accountId });
  expect((await verify(apiKey)).quotas).toEqual({ scheduledPostsPerMonth: 100, storageBytes: 1024 * 1024 * 1024 });
  await run('set-plan', { account: accountId, plan: 'pro' });
  expect((await verify(apiKey)).quotas).toEqual({ scheduledPostsPerMonth: 10_000, storageBytes: 51_200 * 1024 * 1024 });
});

test('when a user or an account is disabled and enabled again, then its key answers api_access_disabled in between', async () => {
  const { accountId, userId } = await run('create-account', { email: email(), tester: true });
  const { apiKey } = await run('issue-key', { account: accountId });
  await run('set-disabled', { user: userId });
  await expect(verify(apiKey)).rejects.toMatchObject({ code: 'api_access_disabled' });
  await run('set-disabled', { user: userId, off: true });
  await run('set-disabled', { account: accountId });
  await expect(verify(apiKey)).rejects.toMatchObject({ code: 'api_access_disabled' });
  await run('set-disabled', { account: accountId, off: true });
  await expect(verify(apiKey)).resolves.toMatchObject({ accountId });
});

test('when a key is revoked, then it no longer verifies and the list says so', async () => {
  const { accountId } = await run('create-account', { email: email() });
  const { apiKey, keyId } = await run('issue-key', { account: accountId });
  expect(await run('revoke-key', { key: keyId })).toMatchObject({ keyId, status: 'revoked' });
  await expect(verify(apiKey)).rejects.toMatchObject({ code: 'invalid_api_key' });
  expect((await run('list-keys', { account: accountId }))[0].status).toBe('revoked');
});

test('when arguments are missing or wrong, then the command says what is needed and changes nothing', async () => {
  await expect(run('issue-key', {})).rejects.toThrow('--account <acc_…> is required');
  await expect(run('set-plan', { account: 'acc_x', plan: 'gold' })).rejects.toThrow(/--plan must be one of trial, pro/);
  await expect(run('set-disabled', { account: 'acc_x', user: 'usr_x' })).rejects.toThrow('exactly one');
  await expect(run('set-tester', { account: 'acc_missing' })).rejects.toMatchObject({ code: 'not_found' });
  await expect(run('revoke-key', { key: 'key_missing' })).rejects.toMatchObject({ code: 'not_found' });
});

test('when an account is created with a password, then that person can sign in to the settings pages', async () => {
  const address = email();
  await run('create-account', { email: address }, { POSTBUS_PASSWORD: 'an operator password' });
  const page = await fetch(`${auth.httpUrl}/signin`);
  const csrf = (await page.text()).match(/name="_csrf" value="([^"]+)"/)![1];
  const cookie = page.headers.getSetCookie()[0].split(';')[0];
  const res = await fetch(`${auth.httpUrl}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, email: address, password: 'an operator password' }).toString(),
  });
  expect(res.status).toBe(303);
  expect(res.headers.getSetCookie().some((c) => c.startsWith('pb_session='))).toBe(true);
});

test('when the CLI runs as a process, then `postbus issue-key` prints a working key and `postbus` lists the commands', async () => {
  const { accountId } = await run('create-account', { email: email(), plan: 'pro' });
  const exec = promisify(execFile);
  const cliEnv = { AMQP_URL: env.amqpUrl, BUS_NAMESPACE: env.namespace };
  const { stdout } = await exec(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts', 'postbus.ts'), 'issue-key', '--account', accountId, '--json'],
    { cwd: ROOT, env: cliEnv },
  );
  await expect(verify(JSON.parse(stdout).apiKey)).resolves.toMatchObject({ accountId });
  const help = await exec(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'postbus.ts')], {
    cwd: ROOT,
    env: cliEnv,
  });
  for (const name of [
    'create-account',
    'set-plan',
    'set-tester',
    'set-disabled',
    'issue-key',
    'list-keys',
    'revoke-key',
  ])
    expect(help.stdout).toContain(name);
});
