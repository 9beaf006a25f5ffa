import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Rpc } from '@postbus/contracts';
import { completeConsent, createTestEnv, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { connectProfile as connectThroughHandoff, issuedTokens } from '../support/handoff';

/**
 * No secret at rest in clear: a database seeded through the product (an account with a password,
 * an API key, connected profiles, a webhook with a rotated secret, an OAuth client with its tokens,
 * a signed-in session) is dumped table by table, and none of the secrets it was given or gave out
 * appears in it, neither as issued nor in base64 or hex.
 */

let env: TestEnv;
let system: RunningSystem;

beforeAll(async () => {
  env = await createTestEnv('secrets_at_rest');
  // A refresh right after the connection really refreshes (it is not answered from the one just made).
  system = await startSystem(env, { AUTH_CACHE_MS: '0', TOKEN_REFRESH_DEDUP_MS: '0' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const REDIRECT = 'http://127.0.0.1:7777/callback';

async function json(
  path: string,
  init: {
    method?: string;
    key?: string;
    body?: unknown;
    form?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const body = init.form
    ? new URLSearchParams(init.form).toString()
    : init.body === undefined
      ? undefined
      : JSON.stringify(init.body);
  const res = await fetch(`${system.baseUrl}${path}`, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** A platform user on the sandbox, connected to the account as a profile; answers its token. */
async function connectProfile(
  accountId: string,
  platform: string,
): Promise<{ profileId: string; accessToken: string }> {
  const res = await fetch(`${system.sandboxUrl}/__sandbox/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform, handle: `${platform}_${randomBytes(3).toString('hex')}` }),
  });
  const user = (await res.json()) as { userId: string; accessToken: string; handle: string };
  const profile = await system.bus.rpc.call(Rpc.connectionsSeedProfile, {
    accountId,
    platform,
    platformUserId: user.userId,
    handle: user.handle,
    accessToken: user.accessToken,
  });
  return { profileId: profile.id, accessToken: user.accessToken };
}

/** A secret as issued, and the encodings it could hide under in a text dump. */
function formsOf(secret: string): string[] {
  const forms = [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex')];
  const payload = secret.match(/^[a-z]+_(.+)$/)?.[1];
  if (payload) {
    forms.push(payload);
    for (const encoding of ['base64', 'base64url'] as const) {
      const bytes = Buffer.from(payload, encoding);
      if (bytes.length >= 16) forms.push(bytes.toString('hex'), bytes.toString('base64'));
    }
  }
  return forms.filter((f) => f.length >= 12);
}

/** Every row of every table of every schema, as JSON text. */
async function dumpDatabase(): Promise<{ tables: string[]; text: string }> {
  const db = new Client({ connectionString: env.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      `SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
    );
    let text = '';
    for (const { table_schema, table_name } of rows) {
      const dumped = await db.query(`SELECT row_to_json(t)::text AS row FROM "${table_schema}"."${table_name}" t`);
      text += dumped.rows.map((r) => r.row).join('\n') + '\n';
    }
    return { tables: rows.map((r) => `${r.table_schema}.${r.table_name}`), text };
  } finally {
    await db.end();
  }
}

test('when a database is seeded with every kind of secret, then no webhook secret, platform token, API key, OAuth token or password is stored as text', async () => {
  const secrets: Record<string, string> = {};
  const person = {
    email: `at-rest-${randomBytes(4).toString('hex')}@example.com`,
    password: `a password ${randomBytes(6).toString('hex')}`,
  };
  secrets.password = person.password;
  const { accountId, userId } = await system.bus.rpc.call(Rpc.authCreateAccount, person);

  // An API key.
  const key = await system.bus.rpc.call(Rpc.authIssueKey, {
    accountId,
    userId,
    name: 'at rest',
    scopes: ['account:read', 'post:read', 'webhook:read', 'webhook:write', 'account:write'],
  });
  secrets.apiKey = key.key;

  // Platform tokens: seeded, connected through the OAuth handoff (with refresh tokens and a PKCE verifier), and refreshed.
  const threads = await connectProfile(accountId, 'threads');
  secrets.threadsToken = threads.accessToken;
  const youtube = await connectThroughHandoff(system, key.key, 'youtube');
  const tiktok = await connectThroughHandoff(system, key.key, 'tiktok');
  const refreshed = await system.bus.rpc.call(Rpc.connectionsRefreshCredentials, {
    profileId: youtube.profileId,
    accountId,
  });
  const platformTokens = await issuedTokens(system);
  expect(platformTokens).toContain(refreshed.accessToken);
  platformTokens.forEach((token, i) => (secrets[`platformToken${i}`] = token));

  // A webhook secret, and the one that replaced it.
  const webhook = await json('/api/v1/webhooks', {
    key: key.key,
    body: { url: 'http://127.0.0.1:9/postbus', events: ['post.published'] },
  });
  expect(webhook.status).toBe(201);
  secrets.webhookSecret = webhook.body.secret;
  const rotated = await json(`/api/v1/webhooks/${webhook.body.id}/rotate-secret`, { method: 'POST', key: key.key });
  expect(rotated.status).toBe(200);
  secrets.rotatedWebhookSecret = rotated.body.secret;

  // An OAuth client with its secret, signed in and consented to; its code, tokens and refreshed tokens.
  const client = await json('/oauth/register', { body: { client_name: 'At rest', redirect_uris: [REDIRECT] } });
  expect(client.status).toBe(201);
  secrets.clientSecret = client.body.client_secret;
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${system.baseUrl}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: client.body.client_id,
    redirect_uri: REDIRECT,
    scope: 'mcp:read offline_access',
    state: 'at-rest',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${system.baseUrl}/api/mcp`,
  })) {
    authorize.searchParams.set(k, v);
  }
  const consent = await completeConsent(authorize, person);
  const code = consent.redirect.searchParams.get('code')!;
  secrets.authorizationCode = code;
  for (const [name, value] of consent.browser.cookies)
    if (/session/.test(name)) secrets.sessionCookie = decodeURIComponent(value);
  const basic = {
    authorization: `Basic ${Buffer.from(`${client.body.client_id}:${client.body.client_secret}`).toString('base64')}`,
  };
  const tokens = await json('/oauth/token', {
    form: {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      resource: `${system.baseUrl}/api/mcp`,
    },
    headers: basic,
  });
  expect(tokens.status).toBe(200);
  secrets.oauthAccessToken = tokens.body.access_token;
  secrets.oauthRefreshToken = tokens.body.refresh_token;
  const again = await json('/oauth/token', {
    form: {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token,
      resource: `${system.baseUrl}/api/mcp`,
    },
    headers: basic,
  });
  expect(again.status).toBe(200);
  secrets.refreshedOAuthAccessToken = again.body.access_token;
  secrets.refreshedOAuthRefreshToken = again.body.refresh_token;

  const dump = await dumpDatabase();

  // The dump holds what was seeded (so finding nothing means something)…
  expect(dump.tables).toEqual(
    expect.arrayContaining([
      'auth.api_keys',
      'auth.oauth_tokens',
      'auth.sessions',
      'connections.profiles',
      'webhooks.endpoints',
    ]),
  );
  for (const id of [
    accountId,
    key.keyId,
    threads.profileId,
    youtube.profileId,
    tiktok.profileId,
    webhook.body.id,
    client.body.client_id,
  ])
    expect(dump.text).toContain(id);
  // Two tokens each for YouTube and TikTok, and YouTube's refreshed one.
  expect(platformTokens.length).toBeGreaterThanOrEqual(5);
  // …and none of the secrets, in any form.
  const found = Object.entries(secrets).flatMap(([name, secret]) =>
    formsOf(secret)
      .filter((form) => dump.text.includes(form))
      .map(() => name),
  );
  expect(found).toEqual([]);
});
