import { createHash, randomBytes } from 'node:crypto';
import { Rpc } from '@postbus/contracts';
import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { call, DatabaseFingerprint, type Answer } from './support';

/**
 * Floods a hostile client sends: sign-ins guessing one person's password, sign-ins and other
 * credential attempts from one address, keys made up by the thousand, and one key hammering
 * the agent endpoint and the upload. Each is refused with 429 rate_limited, Retry-After and the
 * RateLimit-* headers, before the expensive part runs (a password check, a key lookup), and a
 * refusal writes nothing but the limiter's own counters (gateway.rate_limits, left out of the
 * fingerprint).
 *
 * The gateway here believes one proxy hop (TRUST_PROXY_HOPS=1), so each test speaks from an
 * address of its own through X-Forwarded-For, as clients do behind an ingress.
 */

const PER_KEY = 5;
const ATTEMPTS = 4;
const FREE_FAILURES = 3;
const PASSWORD = 'correct horse battery';

let env: TestEnv;
let system: RunningSystem;
let fingerprint: DatabaseFingerprint;

beforeAll(async () => {
  env = await createTestEnv('hostile_floods');
  system = await startSystem(env, {
    TRUST_PROXY_HOPS: '1',
    RATE_LIMIT_PER_MINUTE: String(PER_KEY),
    RATE_LIMIT_PER_IP_PER_MINUTE: '40',
    RATE_LIMIT_ATTEMPTS_PER_IP: String(ATTEMPTS),
    RATE_LIMIT_ATTEMPTS_WINDOW_SECONDS: '600',
    SIGN_IN_FREE_FAILURES: String(FREE_FAILURES),
    SIGN_IN_FIRST_LOCK_SECONDS: '600',
    SCHEDULER_TICK_MS: '3600000',
  });
  fingerprint = await DatabaseFingerprint.open(env.databaseUrl);
});
afterAll(async () => {
  await fingerprint?.close();
  await system?.stop();
  await env?.drop();
});

let lastOctet = 0;
/** An address no other test speaks from. */
const freshAddress = () => `203.0.113.${++lastOctet}`;
const from = (address: string) => ({ 'x-forwarded-for': address });
const email = () => `flood-${randomBytes(4).toString('hex')}@example.com`;
const wrongKey = () => `sk_live_${randomBytes(32).toString('base64url').replace(/[-_]/g, 'a').slice(0, 43)}`;

/** 429 rate_limited with the headers every limit answers, Retry-After within the window. */
function expectLimited(a: Answer, limit: number, windowSeconds: number): void {
  expect(a.status).toBe(429);
  // JSON callers get `{ error, code }`; a browser's form post gets a page saying the same.
  if (a.body !== undefined && typeof a.body === 'object')
    expect(a.body).toEqual({ error: expect.any(String), code: 'rate_limited' });
  else expect(a.text).toMatch(/Too many/);
  const retryAfter = Number(a.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect({
    limit: a.headers.get('ratelimit-limit'),
    remaining: a.headers.get('ratelimit-remaining'),
    reset: a.headers.get('ratelimit-reset'),
  }).toEqual({ limit: String(limit), remaining: '0', reset: String(retryAfter) });
}

/** A browser without JavaScript on the sign-in and sign-up forms: keeps its CSRF cookie, speaks from the address it is given. */
class Browser {
  private cookie = '';
  private csrf = '';

  async open(path: string, address: string): Promise<void> {
    const res = await fetch(`${system.baseUrl}${path}`, { headers: from(address) });
    this.cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    this.csrf = (await res.text()).match(/name="_csrf" value="([^"]+)"/)?.[1] ?? '';
  }

  async post(
    path: string,
    form: Record<string, string>,
    address: string,
    accept = 'text/html',
  ): Promise<Answer & { setCookies: string[] }> {
    const res = await fetch(`${system.baseUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...from(address), cookie: this.cookie, accept, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: this.csrf, ...form }).toString(),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, body, text, setCookies: res.headers.getSetCookie() };
  }
}

/** The backoff row of an email in auth's schema (kept by the hash of the address). */
async function failuresOf(address: string): Promise<{ failures: number; locked: boolean } | undefined> {
  const { Client } = await import('pg');
  const db = new Client({ connectionString: env.databaseUrl });
  await db.connect();
  try {
    const hash = createHash('sha256').update(address.toLowerCase()).digest();
    const { rows } = await db.query(
      'SELECT failures, locked_until > now() AS locked FROM auth.sign_in_failures WHERE email_hash = $1',
      [hash],
    );
    return rows[0];
  } finally {
    await db.end();
  }
}

/** Sum of a counter's samples whose labels include `labels`. */
function sampleSum(text: string, name: string, labels: Record<string, string>): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

/** How many times a service (the gateway, the agent endpoint) has asked auth to verify a key. */
async function keyLookups(service = 'gateway'): Promise<number> {
  const text = await (await fetch(`${system.metricsUrls[service]}/metrics`)).text();
  return sampleSum(text, 'postbus_rpc_client_duration_seconds_count', { rpc: Rpc.authVerifyKey.name });
}

/** One tool call on the agent endpoint (a tool call needs the credential, unlike a ping). */
async function agentCall(key: string, address: string): Promise<Answer> {
  return call(system.baseUrl, 'post', '/api/mcp', {
    key,
    headers: { ...from(address), accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'svc_list_profiles', arguments: {} } },
  });
}

async function emptyUpload(key: string, address: string): Promise<Answer> {
  const res = await fetch(`${system.baseUrl}/api/v1/media`, {
    method: 'POST',
    headers: { ...from(address), authorization: `Bearer ${key}` },
    body: new FormData(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text || 'null'), text };
}

test('when one email is guessed at from many addresses, then after its free failures it gets 429 with Retry-After, even with the right password, and the locked tries check no password and write nothing', async () => {
  const browser = new Browser();
  const person = email();
  const home = freshAddress();
  await browser.open('/signup', home);
  expect((await browser.post('/signup', { email: person, password: PASSWORD }, home)).status).toBe(303);

  const guesser = new Browser();
  await guesser.open('/signin', freshAddress());
  const guesses = [];
  for (let i = 0; i < FREE_FAILURES; i++)
    guesses.push((await guesser.post('/signin', { email: person, password: `guess ${i}` }, freshAddress())).status);
  expect(guesses).toEqual(Array(FREE_FAILURES).fill(401));
  expect(await failuresOf(person)).toEqual({ failures: FREE_FAILURES, locked: true });

  const before = await fingerprint.take();
  const wrong = await guesser.post(
    '/signin',
    { email: person.toUpperCase(), password: 'another guess' },
    freshAddress(),
  );
  const right = await guesser.post('/signin', { email: person, password: PASSWORD }, freshAddress());
  for (const locked of [wrong, right]) {
    expectLimited(locked, FREE_FAILURES, 600);
    expect(locked.text).toContain('Too many failed sign-ins for this email');
    expect(locked.setCookies.filter((c) => c.startsWith('pb_session='))).toEqual([]);
  }
  // No attempt was counted, so none reached the password check; nothing else was written either.
  expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  expect(await failuresOf(person)).toEqual({ failures: FREE_FAILURES, locked: true });
});

test('when one address floods sign-ins and sign-ups, naming other addresses in X-Forwarded-For, then past its attempts it gets 429 before auth is reached, and the refusals write nothing', async () => {
  const address = freshAddress();
  const browser = new Browser();
  await browser.open('/signin', address);
  const tries = [];
  for (let i = 0; i < ATTEMPTS; i++)
    tries.push(
      (await browser.post('/signin', { email: email(), password: 'guess' }, `198.51.100.${i}, ${address}`)).status,
    );
  expect(tries).toEqual(Array(ATTEMPTS).fill(401));

  const before = await fingerprint.take();
  const asJson = await browser.post(
    '/signin',
    { email: email(), password: 'guess' },
    `198.51.100.99, ${address}`,
    'application/json',
  );
  expectLimited(asJson, ATTEMPTS, 600);
  expect(asJson.body.error).toMatch(/sign-in, registration or token attempts/);
  const page = await browser.post('/signup', { email: email(), password: PASSWORD }, address);
  expectLimited(page, ATTEMPTS, 600);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);

  // Another address is not held back by this one.
  expect((await browser.post('/signin', { email: email(), password: 'guess' }, freshAddress())).status).toBe(401);
});

test('when one address floods the JSON routes with made-up keys, then past its attempts it gets 429, and from then on auth is not asked about its keys', async () => {
  const address = freshAddress();
  const lookedUp = await keyLookups();
  const answers = [];
  for (let i = 0; i <= ATTEMPTS; i++)
    answers.push(await call(system.baseUrl, 'get', '/api/v1/posts', { key: wrongKey(), headers: from(address) }));
  expect(answers.slice(0, ATTEMPTS).map((a) => `${a.status} ${a.body.code}`)).toEqual(
    Array(ATTEMPTS).fill('401 invalid_api_key'),
  );
  expectLimited(answers[ATTEMPTS], ATTEMPTS, 600);
  expect(await keyLookups()).toBe(lookedUp + ATTEMPTS + 1);

  const before = await fingerprint.take();
  for (let i = 0; i < 10; i++)
    expectLimited(
      await call(system.baseUrl, 'post', '/api/v1/posts', {
        key: wrongKey(),
        headers: from(address),
        body: { caption: 'x' },
      }),
      ATTEMPTS,
      600,
    );
  expect(await keyLookups()).toBe(lookedUp + ATTEMPTS + 1);
  expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
});

test('when one address floods client registration, then past its attempts it gets 429 and no client is stored', async () => {
  const address = freshAddress();
  const register = () =>
    call(system.baseUrl, 'post', '/oauth/register', {
      headers: from(address),
      body: {
        client_name: 'flood',
        redirect_uris: ['http://127.0.0.1:9/callback'],
        token_endpoint_auth_method: 'none',
      },
    });
  const registered = [];
  for (let i = 0; i < ATTEMPTS; i++) registered.push((await register()).status);
  expect(registered).toEqual(Array(ATTEMPTS).fill(201));

  const before = await fingerprint.take();
  for (let i = 0; i < 3; i++) expectLimited(await register(), ATTEMPTS, 600);
  expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
});

test('when one address floods the token endpoint, then past its attempts it gets 429 and nothing is written', async () => {
  const address = freshAddress();
  const token = () =>
    call(system.baseUrl, 'post', '/oauth/token', {
      headers: { ...from(address), 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: new URLSearchParams({
        grant_type: 'authorization_code',
        code: randomBytes(16).toString('hex'),
        client_id: 'nobody',
        redirect_uri: 'http://127.0.0.1:9/callback',
        code_verifier: 'x'.repeat(43),
      }).toString(),
    });
  const refused = [];
  for (let i = 0; i < ATTEMPTS; i++) refused.push((await token()).status);
  expect(refused.every((s) => s === 400 || s === 401)).toBe(true);

  const before = await fingerprint.take();
  for (let i = 0; i < 3; i++) expectLimited(await token(), ATTEMPTS, 600);
  expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
});

test('when one key hammers the JSON routes and the agent endpoint, then they share its one allowance and the request over it gets 429 on both', async () => {
  const account: SeededAccount = await system.seedAccount({ platforms: [] });
  const address = freshAddress();
  const answers = [];
  for (let i = 0; i < 3; i++)
    answers.push(
      await call(system.baseUrl, 'get', '/api/v1/profiles', { key: account.apiKey, headers: from(address) }),
    );
  for (let i = 3; i < PER_KEY; i++) answers.push(await agentCall(account.apiKey, address));
  expect(answers.map((a) => [a.status, a.headers.get('ratelimit-remaining')])).toEqual(
    [...Array(PER_KEY).keys()].map((i) => [200, String(PER_KEY - i - 1)]),
  );

  const before = await fingerprint.take();
  const agent = await agentCall(account.apiKey, address);
  expectLimited(agent, PER_KEY, 60);
  expect(agent.body.error).toMatch(new RegExp(`more than ${PER_KEY} requests`));
  expectLimited(
    await call(system.baseUrl, 'get', '/api/v1/profiles', { key: account.apiKey, headers: from(address) }),
    PER_KEY,
    60,
  );
  expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
});

test('when one address sends the agent endpoint made-up tokens, then once its attempts are spent it gets 429 without the request reaching the agent endpoint', async () => {
  const address = freshAddress();
  const statuses: number[] = [];
  const limited = await waitFor(
    async () => {
      const a = await agentCall(wrongKey(), address);
      statuses.push(a.status);
      return a.status === 429 ? a : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 1, what: 'a 429 for made-up tokens' },
  );
  expectLimited(limited, ATTEMPTS, 600);
  const unauthorized = statuses.filter((s) => s === 401).length;
  expect(statuses.slice(0, unauthorized)).toEqual(Array(unauthorized).fill(401));
  // Each refused token is counted once its 401 is on the way: the next request or two may still go through.
  expect(unauthorized).toBeGreaterThanOrEqual(ATTEMPTS + 1);
  expect(unauthorized).toBeLessThanOrEqual(ATTEMPTS + 3);

  const before = await fingerprint.take();
  const lookedUp = await keyLookups('mcp');
  expect(lookedUp).toBeGreaterThanOrEqual(unauthorized);
  for (let i = 0; i < 5; i++) expectLimited(await agentCall(wrongKey(), address), ATTEMPTS, 600);
  expect(await keyLookups('mcp')).toBe(lookedUp);
  expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
});

test('when one key floods the upload, then the request over its allowance gets 429 before media reads it, and nothing is stored', async () => {
  const account = await system.seedAccount({ platforms: [] });
  const address = freshAddress();
  const before = await fingerprint.take();
  const answers = [];
  for (let i = 0; i <= PER_KEY; i++) answers.push(await emptyUpload(account.apiKey, address));
  expect(answers.slice(0, PER_KEY).map((a) => `${a.status} ${a.body?.code}`)).toEqual(
    Array(PER_KEY).fill('400 missing_file'),
  );
  expectLimited(answers[PER_KEY], PER_KEY, 60);
  expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
});
