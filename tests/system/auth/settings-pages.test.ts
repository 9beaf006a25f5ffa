import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Rpc } from '@postbus/contracts';
import { connectSandboxProfile, createTestEnv, waitFor, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;

beforeAll(async () => {
  env = await createTestEnv('auth_pages');
  system = await startSystem(env);
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

/** A browser without JavaScript: keeps cookies, never follows redirects by itself. */
class Browser {
  readonly cookies = new Map<string, string>();
  readonly setCookies: string[] = [];

  async request(path: string, form?: Record<string, string | string[]>) {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
      body = params.toString();
    }
    const res = await fetch(`${system.baseUrl}${path}`, {
      method: form ? 'POST' : 'GET',
      headers,
      body,
      redirect: 'manual',
    });
    for (const c of res.headers.getSetCookie()) {
      this.setCookies.push(c);
      const [pair] = c.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (value && !/expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return { status: res.status, headers: res.headers, html: await res.text(), location: res.headers.get('location') };
  }

  /** Opens a page and answers its CSRF token. */
  async open(path: string) {
    const page = await this.request(path);
    return { ...page, csrf: page.html.match(/name="_csrf" value="([^"]+)"/)?.[1] ?? '' };
  }
}

const email = () => `person-${randomBytes(4).toString('hex')}@example.com`;
const PASSWORD = 'correct horse battery';

async function signedUp(address = email()) {
  const browser = new Browser();
  const { csrf } = await browser.open('/signup');
  const done = await browser.request('/signup', { _csrf: csrf, email: address, password: PASSWORD });
  expect(done.status).toBe(303);
  const settings = await browser.open('/settings');
  const accountId = settings.html.match(/id="account-id">(acc_\w+)</)![1];
  return { browser, email: address, accountId };
}

async function api(key: string, path = '/api/v1/posts/pst_missing') {
  const res = await fetch(`${system.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as { code?: string } };
}

describe('sign up and sign in', () => {
  test('when the sign-up page is opened, then it is a no-store form with a CSRF token in a HttpOnly SameSite=Lax cookie and a strict CSP', async () => {
    const browser = new Browser();
    const page = await browser.open('/signup');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.html).toContain('<form method="post" action="/signup">');
    expect(page.csrf.length).toBeGreaterThanOrEqual(32);
    expect(browser.cookies.get('pb_csrf')).toBe(page.csrf);
    expect(browser.setCookies.find((c) => c.startsWith('pb_csrf='))).toMatch(/HttpOnly/i);
    expect(browser.setCookies.find((c) => c.startsWith('pb_csrf='))).toMatch(/SameSite=Lax/i);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
  });

  test('when the sign-up form is posted without its token or with another one, then 403 and no account is made', async () => {
    const address = email();
    const browser = new Browser();
    const { csrf } = await browser.open('/signup');
    const without = await browser.request('/signup', { email: address, password: PASSWORD });
    const forged = await browser.request('/signup', {
      _csrf: `${csrf.slice(0, -2)}xx`,
      email: address,
      password: PASSWORD,
    });
    const noCookie = await new Browser().request('/signup', { _csrf: csrf, email: address, password: PASSWORD });
    expect([without.status, forged.status, noCookie.status]).toEqual([403, 403, 403]);
    expect(browser.cookies.has('pb_session')).toBe(false);
    // The address is still free.
    await signedUp(address);
  });

  test('when someone signs up, then a HttpOnly SameSite=Lax session opens settings on a 14-day trial', async () => {
    const { browser, email: address } = await signedUp();
    const session = browser.setCookies.find((c) => c.startsWith('pb_session='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    const settings = await browser.open('/settings');
    expect(settings.status).toBe(200);
    expect(settings.html).toContain(address);
    expect(settings.html).toMatch(/Free trial until/);
    expect(settings.html).toContain('No keys yet.');
  });

  test('when the email is taken, the address is malformed or the password short, then 400 with the reason and the form again', async () => {
    const { email: taken } = await signedUp();
    const browser = new Browser();
    const { csrf } = await browser.open('/signup');
    const again = await browser.request('/signup', { _csrf: csrf, email: taken.toUpperCase(), password: PASSWORD });
    const malformed = await browser.request('/signup', { _csrf: csrf, email: 'not-an-email', password: PASSWORD });
    const short = await browser.request('/signup', { _csrf: csrf, email: email(), password: 'short' });
    expect([again.status, malformed.status, short.status]).toEqual([400, 400, 400]);
    expect(again.html).toContain('already exists');
    expect(malformed.html).toContain('valid email');
    expect(short.html).toContain('8 to 200 characters');
    expect(browser.cookies.has('pb_session')).toBe(false);
  });

  test('when settings are opened without a session, then the browser is sent to sign in and back', async () => {
    const r = await new Browser().request('/settings');
    expect(r.status).toBe(303);
    expect(r.location).toBe('/signin?next=%2Fsettings');
  });

  test('when the password is wrong, then 401 and no session; when right, then a fresh session; signing out ends it', async () => {
    const { email: address, browser: first } = await signedUp();
    const browser = new Browser();
    const { csrf } = await browser.open('/signin?next=/settings');
    const wrong = await browser.request('/signin', {
      _csrf: csrf,
      email: address,
      password: 'wrong password',
      next: '/settings',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('not right');
    const unknown = await browser.request('/signin', { _csrf: csrf, email: email(), password: PASSWORD });
    expect(unknown.status).toBe(401);
    expect(browser.cookies.has('pb_session')).toBe(false);

    const right = await browser.request('/signin', {
      _csrf: csrf,
      email: address,
      password: PASSWORD,
      next: '//evil.example/',
    });
    expect(right.status).toBe(303);
    expect(right.location).toBe('/settings');
    expect(browser.cookies.get('pb_session')).not.toBe(first.cookies.get('pb_session'));

    const settings = await browser.open('/settings');
    const token = browser.cookies.get('pb_session')!;
    const out = await browser.request('/signout', { _csrf: settings.csrf });
    expect(out.status).toBe(303);
    expect(out.location).toBe('/signin?signedout');
    expect(browser.cookies.has('pb_session')).toBe(false);
    // The session is gone on the server too, not only from this browser.
    const replay = new Browser();
    replay.cookies.set('pb_session', token);
    expect((await replay.request('/settings')).status).toBe(303);
    // The other browser's session is untouched.
    expect((await first.request('/settings')).status).toBe(200);
  });

  test('when a signed-in form is posted with the sign-out token missing, then 403 and the session stays', async () => {
    const { browser } = await signedUp();
    expect((await browser.request('/signout', {})).status).toBe(403);
    expect((await browser.request('/settings')).status).toBe(200);
  });

  test('when the account is disabled, then its open session ends and signing in is refused', async () => {
    const { email: address, browser: first } = await signedUp();
    const settings = await first.open('/settings');
    const accountId = settings.html.match(/id="account-id">(acc_\w+)</)![1];
    await system.bus.rpc.call(Rpc.authUpdateAccount, { accountId, disabled: true });
    expect((await first.request('/settings')).status).toBe(303);
    const browser = new Browser();
    const { csrf } = await browser.open('/signin');
    const r = await browser.request('/signin', { _csrf: csrf, email: address, password: PASSWORD });
    expect(r.status).toBe(401);
    expect(r.html).toContain('disabled');
  });
});

describe('API keys in settings', () => {
  test('when a key is created, then it is shown once, works against the gateway, and the list shows its last use afterwards', async () => {
    const { browser } = await signedUp();
    const settings = await browser.open('/settings');
    const created = await browser.request('/settings/keys', {
      _csrf: settings.csrf,
      name: 'server one',
      scopes: ['post:read', 'post:write'],
      restriction: 'all',
      expiresInDays: '',
    });
    expect(created.status).toBe(201);
    const key = created.html.match(/id="new-key" type="text" readonly value="(sk_live_[0-9A-Za-z]{43})"/)![1];
    expect(created.html).toContain('data-copy="new-key"');

    expect(await api(key)).toEqual({ status: 404, body: { error: expect.any(String), code: 'post_not_found' } });

    const later = await browser.open('/settings');
    expect(later.html).not.toContain(key);
    expect(later.html).toContain(key.slice(0, 20));
    expect(later.html).toContain('server one');
    expect(later.html).toMatch(/<td>post:read post:write<\/td>/);
    expect(later.html).not.toMatch(/<td>never<\/td><td class="status">active/);
  });

  test('when a key is created with the webhook scopes the form offers, then it manages webhooks; a key from before them shows until when it keeps them', async () => {
    const { browser, accountId } = await signedUp();
    const settings = await browser.open('/settings');
    for (const scope of ['webhook:read', 'webhook:write'])
      expect(settings.html).toContain(`name="scopes" value="${scope}"`);
    const created = await browser.request('/settings/keys', {
      _csrf: settings.csrf,
      name: 'hooks',
      scopes: ['webhook:read', 'webhook:write'],
      restriction: 'all',
      expiresInDays: '',
    });
    expect(created.status).toBe(201);
    const key = created.html.match(/id="new-key" type="text" readonly value="(sk_live_[0-9A-Za-z]{43})"/)![1];
    expect(await api(key, '/api/v1/webhooks')).toEqual({ status: 200, body: { data: [] } });

    const older = await browser.request('/settings/keys', {
      _csrf: settings.csrf,
      name: 'older',
      scopes: 'post:read',
      restriction: 'all',
      expiresInDays: '',
    });
    expect(older.status).toBe(201);
    // As the migration marks keys that held post:read when the webhook scopes came.
    const db = new Client({ connectionString: env.databaseUrl });
    await db.connect();
    try {
      await db.query(`UPDATE auth.api_keys SET legacy_webhook_scopes = true WHERE account_id = $1 AND name = 'older'`, [
        accountId,
      ]);
    } finally {
      await db.end();
    }
    const later = await browser.open('/settings');
    expect(later.html).toMatch(/<td>post:read<br><span class="muted">webhook:read webhook:write until 2027-03-01 /);
    expect(later.html).toMatch(/<td>webhook:read webhook:write<\/td>/);
  });

  test('when the create-key form is posted without its token, then 403 and no key', async () => {
    const { browser, accountId } = await signedUp();
    const r = await browser.request('/settings/keys', { name: 'forged', scopes: 'post:read', restriction: 'all' });
    expect(r.status).toBe(403);
    expect((await system.bus.rpc.call(Rpc.authListKeys, { accountId })).keys).toHaveLength(0);
  });

  test('when a key is limited to a profile and given an expiry, then it carries both; a profile of another account is refused', async () => {
    const { browser, accountId } = await signedUp();
    const own = await connectSandboxProfile(
      system.bus.rpc,
      system.sandboxUrl,
      accountId,
      'threads',
      `own_${accountId.slice(-6).toLowerCase()}`,
    );
    const other = await system.seedAccount({ platforms: ['threads'] });
    const settings = await browser.open('/settings');
    expect(settings.html).toContain(`value="${own.id}"`);

    const refused = await browser.request('/settings/keys', {
      _csrf: settings.csrf,
      name: 'sneaky',
      scopes: 'post:write',
      restriction: 'list',
      otherProfileIds: other.profiles[0].id,
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('Not a connected profile of this account');
    const none = await browser.request('/settings/keys', {
      _csrf: settings.csrf,
      name: 'empty',
      scopes: 'post:write',
      restriction: 'list',
    });
    expect(none.status).toBe(400);
    const noScope = await browser.request('/settings/keys', {
      _csrf: settings.csrf,
      name: 'no scope',
      restriction: 'all',
    });
    expect(noScope.status).toBe(400);
    expect((await system.bus.rpc.call(Rpc.authListKeys, { accountId })).keys).toHaveLength(0);

    const ok = await browser.request('/settings/keys', {
      _csrf: settings.csrf,
      name: 'limited',
      scopes: ['post:write', 'post:read'],
      restriction: 'list',
      profileIds: own.id,
      expiresInDays: '7',
    });
    expect(ok.status).toBe(201);
    const [key] = (await system.bus.rpc.call(Rpc.authListKeys, { accountId })).keys;
    expect(key).toMatchObject({
      name: 'limited',
      profileIds: [own.id],
      scopes: ['post:write', 'post:read'],
      status: 'active',
    });
    const days = (Date.parse(key.expiresAt!) - Date.parse(key.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 2);
  });

  test('when a key is revoked in settings, then the gateway refuses it and another account cannot revoke it', async () => {
    const owner = await signedUp();
    const stranger = await signedUp();
    const settings = await owner.browser.open('/settings');
    const created = await owner.browser.request('/settings/keys', {
      _csrf: settings.csrf,
      name: 'to revoke',
      scopes: 'post:read',
      restriction: 'all',
    });
    const key = created.html.match(/value="(sk_live_\w+)"/)![1];
    const keyId = created.html.match(/data-key-id="(key_\w+)"/)![1];
    expect((await api(key)).status).toBe(404);

    const theirs = await stranger.browser.open('/settings');
    const foreign = await stranger.browser.request(`/settings/keys/${keyId}/revoke`, { _csrf: theirs.csrf });
    expect(foreign.status).toBe(404);
    expect((await api(key)).status).toBe(404);

    const revoked = await owner.browser.request(`/settings/keys/${keyId}/revoke`, { _csrf: settings.csrf });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe(`/settings?revoked=${keyId}`);
    const after = await owner.browser.open(revoked.location!);
    expect(after.html).toContain('is revoked');
    expect(after.html).toMatch(new RegExp(`data-key-id="${keyId}">[\\s\\S]*?<td class="status">revoked</td>`));
    const refused = await waitFor(
      async () => {
        const r = await api(key);
        return r.status === 401 ? r : undefined;
      },
      { timeoutMs: 1000, intervalMs: 25, what: 'the key to be refused' },
    );
    expect(refused.body.code).toBe('invalid_api_key');
  });
});
