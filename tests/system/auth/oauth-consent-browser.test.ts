import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { Rpc } from '@postbus/contracts';
import { createTestEnv, waitFor, type TestEnv } from '@postbus/testing';
import { launchChromium } from '../support/browser';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let browser: Browser;
let callback: Server;
let callbackUrl: string;
const arrived: URL[] = [];

beforeAll(async () => {
  env = await createTestEnv('auth_consent_browser');
  system = await startSystem(env);
  callback = createServer((req, res) => {
    arrived.push(new URL(req.url ?? '/', callbackUrl));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>You can close this window.</p>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  callback?.closeAllConnections();
  await new Promise((resolve) => callback?.close(resolve));
  await system?.stop();
  await env?.drop();
});

test('when a person signs in and allows an application in Chromium, then the browser lands on its redirect URI with a code that exchanges for tokens', async () => {
  const email = `consent-${randomBytes(4).toString('hex')}@example.com`;
  await system.bus.rpc.call(Rpc.authCreateAccount, { email, password: 'a long enough password' });
  const reg = (await (
    await fetch(`${system.baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Browser Agent',
        redirect_uris: [callbackUrl],
        token_endpoint_auth_method: 'none',
      }),
    })
  ).json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${system.baseUrl}/oauth/authorize`);
  const params = {
    response_type: 'code',
    client_id: reg.client_id,
    redirect_uri: callbackUrl,
    scope: 'mcp:read mcp:write offline_access',
    state: 'st-1',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  };
  for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);

  const context = await browser.newContext();
  const page = await context.newPage();
  const blocked: string[] = [];
  page.on('console', (m) => m.text().includes('Content Security Policy') && blocked.push(m.text()));
  await page.goto(authorize.toString());
  await page.waitForURL(/\/signin\?next=/);
  await page.fill('#email', email);
  await page.fill('#password', 'a long enough password');
  await page.click('button[type=submit]');
  await page.waitForURL(/\/oauth\/authorize\?/);
  expect(await page.textContent('#client-name')).toBe('Browser Agent');
  expect(await page.textContent('#redirect-host')).toBe(new URL(callbackUrl).host);
  expect(await page.textContent('#scopes')).toContain('mcp:write');
  await page.click('#allow');
  const landed = await waitFor(() => arrived[0], { what: 'the browser to reach the redirect URI' });
  expect(blocked).toEqual([]);
  expect(landed.searchParams.get('state')).toBe('st-1');
  expect(landed.searchParams.get('iss')).toBe(system.baseUrl);
  await context.close();

  const res = await fetch(`${system.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: landed.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: reg.client_id,
      redirect_uri: callbackUrl,
    }).toString(),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({
    access_token: expect.stringMatching(/^oat_/),
    refresh_token: expect.stringMatching(/^ort_/),
    scope: 'mcp:read mcp:write offline_access',
  });
});
