import { randomBytes } from 'node:crypto';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { start } from '../src/main';

/**
 * Deployed under an https PUBLIC_BASE_URL, the pages' cookies are Secure and `__Host-` prefixed
 * whatever the request looked like on its last hop (here plain http straight to auth, as when a
 * proxy in between drops X-Forwarded-Proto). Over http (development) they keep plain names: the
 * settings page tests cover that.
 */

let env: TestEnv;
let auth: Awaited<ReturnType<typeof start>>;

beforeAll(async () => {
  env = await createTestEnv('auth_https_cookies');
  auth = await start({
    ...env.env,
    PUBLIC_BASE_URL: 'https://postbus.example',
    AUTH_HTTP_PORT: '0',
    HOST: '127.0.0.1',
  });
});
afterAll(async () => {
  await auth?.lifecycle.stop();
  await env?.drop();
});

async function request(path: string, opts: { cookie?: string; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(`${auth.httpUrl}${path}`, {
    method: opts.form ? 'POST' : 'GET',
    headers,
    body: opts.form && new URLSearchParams(opts.form).toString(),
    redirect: 'manual',
  });
  return {
    status: res.status,
    setCookies: res.headers.getSetCookie(),
    html: await res.text(),
    location: res.headers.get('location'),
  };
}

const valueOf = (setCookie: string) => setCookie.slice(setCookie.indexOf('=') + 1, setCookie.indexOf(';'));

describe('page cookies under an https PUBLIC_BASE_URL', () => {
  test('when a form page sets its CSRF cookie, then it is __Host-pb_csrf: Secure, HttpOnly, Path=/, no Domain', async () => {
    const page = await request('/signup');

    const csrf = page.setCookies.find((c) => c.startsWith('__Host-pb_csrf='));
    expect(csrf).toBeDefined();
    expect(csrf).toMatch(/; Secure/i);
    expect(csrf).toMatch(/; HttpOnly/i);
    expect(csrf).toMatch(/; Path=\/(;|$)/);
    expect(csrf).not.toMatch(/Domain=/i);
    expect(page.setCookies.some((c) => c.startsWith('pb_csrf='))).toBe(false);
  });

  test('when a person signs up, then the session is __Host-pb_session (Secure) and only that name opens the settings', async () => {
    const form = await request('/signup');
    const csrfCookie = form.setCookies.find((c) => c.startsWith('__Host-pb_csrf='))!;
    const email = `https-${randomBytes(4).toString('hex')}@example.com`;

    const done = await request('/signup', {
      cookie: `__Host-pb_csrf=${valueOf(csrfCookie)}`,
      form: { _csrf: valueOf(csrfCookie), email, password: 'correct horse battery' },
    });

    expect(done.status).toBe(303);
    const session = done.setCookies.find((c) => c.startsWith('__Host-pb_session='))!;
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; Path=\/(;|$)/);
    expect(session).not.toMatch(/Domain=/i);
    const token = valueOf(session);
    expect((await request('/settings', { cookie: `__Host-pb_session=${token}` })).status).toBe(200);
    // A cookie without the prefix could have been planted by a sibling host or over http: it is not a session.
    expect(await request('/settings', { cookie: `pb_session=${token}` })).toMatchObject({
      status: 303,
      location: '/signin?next=%2Fsettings',
    });
  });

  test('when a form arrives with a CSRF token only in a plain pb_csrf cookie, then it is refused', async () => {
    const planted = randomBytes(32).toString('base64url');

    const res = await request('/signin', {
      cookie: `pb_csrf=${planted}`,
      form: { _csrf: planted, email: 'nobody@example.com', password: 'whatever it is' },
    });

    expect(res.status).toBe(403);
  });
});
