import { randomBytes } from 'node:crypto';
import { MCP_TOOL_NAMES, Routes, Rpc, SCOPES, type RouteDef } from '@postbus/contracts';
import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { callTool } from '../support/mcp-client';
import {
  call,
  DatabaseFingerprint,
  fillPath,
  missingId,
  pathParams,
  prefixOfParam,
  ROUTES,
  seedOneOfEach,
  uploadPng,
  type Answer,
} from './support';

/**
 * Every REST route and every agent tool, called with no key, a wrong key, a revoked key (one
 * that was in use a moment before), a key of the same account lacking the route's scope, and
 * account A's valid key naming account B's ids: refused with the right code each time, B's ids
 * answered exactly like ids that do not exist, and nothing written anywhere.
 */

let env: TestEnv;
let system: RunningSystem;
let a: SeededAccount;
let b: SeededAccount;
let fingerprint: DatabaseFingerprint;
const poolA = new Map<string, string[]>();
const poolB = new Map<string, string[]>();
const lacking = new Map<string, string>();
let revokedKey: string;
const wrongKey = `sk_live_${randomBytes(32).toString('base64url')}`;
const TOOLS = new Map((Object.values(Routes) as RouteDef[]).filter((r) => r.tool).map((r) => [r.tool!.name, r]));

const first = (pool: Map<string, string[]>, prefix: string | undefined) => (prefix ? pool.get(prefix)?.[0] : undefined);
const pathWith = (route: RouteDef, pool: Map<string, string[]>) =>
  fillPath(
    route,
    Object.fromEntries(
      pathParams(route).map((p) => [p, first(pool, prefixOfParam(route, p)) ?? missingId(prefixOfParam(route, p))]),
    ),
  );

function send(route: RouteDef, path: string, key: string | undefined): Promise<Answer> {
  if (route.proxied && route.method === 'post') return uploadPng(system.baseUrl, key);
  return call(system.baseUrl, route.method, path, { key, body: route.body ? {} : undefined });
}

/** Tool arguments: the required fields of its input schema, ids taken from `pool`. */
function toolArgs(route: RouteDef, pool: Map<string, string[]>): Record<string, unknown> {
  const schema = route.tool!.input as any;
  const args: Record<string, unknown> = {};
  for (const [name, s] of Object.entries<any>(schema.properties ?? {})) {
    const id = idOfField(name, pool);
    if (id !== undefined) args[name] = s.type === 'array' ? [id] : id;
    else if ((schema.required ?? []).includes(name))
      args[name] =
        name === 'platforms'
          ? ['threads']
          : name === 'platform'
            ? 'threads'
            : s.type === 'array'
              ? []
              : s.type === 'object'
                ? {}
                : s.type === 'boolean'
                  ? false
                  : 'probe';
  }
  if ('caption' in (schema.properties ?? {})) args.caption = 'probe';
  return args;
}

function idOfField(name: string, pool: Map<string, string[]>): string | undefined {
  const prefix = (
    { postId: 'pst', profileId: 'prf', profileIds: 'prf', mediaId: 'med', requestId: 'cnr' } as Record<string, string>
  )[name];
  return prefix ? (first(pool, prefix) ?? missingId(prefix)) : undefined;
}

/** An answer with the ids it names and the times it carries taken out, so two answers compare. */
const shape = (text: string, ids: string[]) =>
  ids
    .reduce((t, id) => t.split(id).join('<id>'), text)
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})/g, '<time>');

beforeAll(async () => {
  env = await createTestEnv('hostile_auth');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0', SCHEDULER_TICK_MS: '3600000' });
  [a, b] = await Promise.all([
    system.seedAccount({ platforms: ['threads', 'tiktok'], plan: 'pro' }),
    system.seedAccount({ platforms: ['threads', 'tiktok'], plan: 'pro' }),
  ]);
  await Promise.all([seedOneOfEach(system.baseUrl, a, poolA), seedOneOfEach(system.baseUrl, b, poolB)]);
  await Promise.all(
    SCOPES.map(async (scope) => {
      const issued = await system.bus.rpc.call(Rpc.authIssueKey, {
        accountId: a.accountId,
        userId: a.userId,
        name: `without ${scope}`,
        scopes: SCOPES.filter((s) => s !== scope),
      });
      lacking.set(scope, issued.key);
    }),
  );
  // A key in use at both edges (so both hold it verified), then revoked: both must drop it at once.
  const doomed = await system.bus.rpc.call(Rpc.authIssueKey, {
    accountId: a.accountId,
    userId: a.userId,
    name: 'to revoke',
    scopes: [...SCOPES],
  });
  revokedKey = doomed.key;
  expect((await call(system.baseUrl, 'get', '/api/v1/profiles', { key: revokedKey })).status).toBe(200);
  expect((await callTool(system.baseUrl, 'svc_list_profiles', {}, revokedKey)).status).toBe(200);
  await system.bus.rpc.call(Rpc.authRevokeKey, { keyId: doomed.keyId });
  await waitFor(
    async () =>
      (await call(system.baseUrl, 'get', '/api/v1/profiles', { key: revokedKey })).status === 401 ? true : undefined,
    { timeoutMs: 1500, what: 'the gateway to drop the revoked key' },
  );
  await waitFor(
    async () =>
      (await callTool(system.baseUrl, 'svc_list_profiles', {}, revokedKey)).status === 401 ? true : undefined,
    { timeoutMs: 1500, what: 'the agent endpoint to drop the revoked key' },
  );
  fingerprint = await DatabaseFingerprint.open(env.databaseUrl);
});
afterAll(async () => {
  await fingerprint?.close();
  await system?.stop();
  await env?.drop();
});

describe.each(ROUTES.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))('%s', (_name, route) => {
  test('when called with no key, a wrong key, a revoked key or a key lacking its scope, then 401 missing_api_key, 401 invalid_api_key twice, 403 insufficient_scope, and nothing is written', async () => {
    const path = pathWith(route, poolA);
    const before = await fingerprint.take();
    const answers = {
      none: await send(route, path, undefined),
      wrong: await send(route, path, wrongKey),
      revoked: await send(route, path, revokedKey),
      lacking: await send(route, path, lacking.get(route.scope)),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, `${v.status} ${v.body?.code}`]))).toEqual({
      none: '401 missing_api_key',
      wrong: '401 invalid_api_key',
      revoked: '401 invalid_api_key',
      lacking: '403 insufficient_scope',
    });
    expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  });

  const named = pathParams(route).filter((p) => first(poolB, prefixOfParam(route, p)));
  if (named.length) {
    test(`when account A names account B's ${named.join(' and ')}, then the answer is the one for ids that do not exist, and nothing is written`, async () => {
      const theirs = pathWith(route, poolB);
      const missing = fillPath(
        route,
        Object.fromEntries(pathParams(route).map((p) => [p, missingId(prefixOfParam(route, p))])),
      );
      const before = await fingerprint.take();
      const withTheirs = await send(route, theirs, a.apiKey);
      const withMissing = await send(route, missing, a.apiKey);
      expect(withTheirs.status).toBeGreaterThanOrEqual(400);
      expect(`${withTheirs.status} ${withTheirs.body?.code}`).toBe(`${withMissing.status} ${withMissing.body?.code}`);
      expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
    });
  }
});

describe.each(MCP_TOOL_NAMES.map((name) => [name] as const))('tool %s', (name) => {
  const route = TOOLS.get(name);

  test("when called with no key, a wrong key, a revoked key or a key lacking its REST twin's scope, then 401, 401, 401 and 403 before the tool runs, and nothing is written", async () => {
    const args = route ? toolArgs(route, poolA) : {};
    const before = await fingerprint.take();
    const statuses = {
      none: (await callTool(system.baseUrl, name, args)).status,
      wrong: (await callTool(system.baseUrl, name, args, wrongKey)).status,
      revoked: (await callTool(system.baseUrl, name, args, revokedKey)).status,
      ...(route && { lacking: (await callTool(system.baseUrl, name, args, lacking.get(route.scope))).status }),
    };
    expect(statuses).toEqual({ none: 401, wrong: 401, revoked: 401, ...(route && { lacking: 403 }) });
    expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  });

  const idFields = route
    ? Object.keys((route.tool!.input as any).properties ?? {}).filter((f) => idOfField(f, poolB) !== undefined)
    : [];
  if (idFields.length) {
    test(`when account A passes account B's ${idFields.join(', ')}, then the answer is the one for ids that do not exist, and nothing of B's changes`, async () => {
      const theirIds = idFields.map((f) => idOfField(f, poolB)!);
      const theirs = await callTool(system.baseUrl, name, toolArgs(route!, poolB), a.apiKey);
      const missing = await callTool(system.baseUrl, name, toolArgs(route!, new Map()), a.apiKey);
      expect(theirs.status).toBe(200);
      const outcome = (t: typeof theirs) =>
        t.error
          ? `error ${t.error.code}`
          : shape(JSON.stringify(t.message?.result?.structuredContent ?? null), []).replace(
              /\b[a-z]{2,5}_[0-9A-Za-z]{16,32}\b/g,
              '<id>',
            );
      expect(outcome(theirs)).toBe(outcome(missing));
      for (const id of theirIds.filter((i) => i.startsWith('pst_'))) {
        expect((await call(system.baseUrl, 'get', `/api/v1/posts/${id}`, { key: b.apiKey })).body).toMatchObject({
          id,
          caption: expect.any(String),
        });
      }
    });
  }
});
