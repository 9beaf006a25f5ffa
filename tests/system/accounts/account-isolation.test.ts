import { randomBytes } from 'node:crypto';
import { Routes, Rpc, SCOPES, type RouteDef } from '@postbus/contracts';
import { connectSandboxProfile, createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

/**
 * Walks every route of the contracts' route table, so routes added later are covered without
 * touching this file: whatever a key of account A sends with B's ids must answer exactly as with
 * ids that do not exist, and B's data must read the same afterwards.
 */

let env: TestEnv;
let system: RunningSystem;

beforeAll(async () => {
  env = await createTestEnv('gateway_isolation');
  // Hundreds of probes: the rate limit is off here (it has its own test).
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const ROUTES = Object.values(Routes) as RouteDef[];
const ID = /\b[a-z]{2,5}_[0-9A-Za-z]{16,32}\b/g;
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const KIND_PREFIX: Record<string, string> = {
  post: 'pst',
  posts: 'pst',
  media: 'med',
  profile: 'prf',
  profiles: 'prf',
  connection: 'prf',
  connections: 'prf',
};
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

type Pool = Map<string, string[]>; // id prefix → ids
interface Answer {
  status: number;
  body: any;
  text: string;
}

const inOneHour = () => new Date(Date.now() + 3600_000).toISOString();
const missingId = (prefix: string) => `${prefix}_${Array.from(randomBytes(20), (b) => ALPHABET[b % 62]).join('')}`;
const isIdField = (name: string) => name !== 'externalId' && /(^id$|Ids?$)/.test(name);
const pathParams = (route: RouteDef) => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** The id prefix a path parameter or body field refers to, when its name tells. */
function prefixFor(name: string, route?: RouteDef): string | undefined {
  if (name === 'id' && route) {
    const segments = route.path.split('/');
    return KIND_PREFIX[segments[segments.indexOf('{id}') - 1]];
  }
  return KIND_PREFIX[name.replace(/Ids?$/, '')];
}

function hints(): Record<string, () => unknown> {
  return {
    caption: () => 'isolation probe',
    scheduledTime: inOneHour,
    platforms: () => ['threads'],
    platform: () => 'threads',
    // Loopback: refused at once by link imports, never a download from the internet.
    url: () => `${system.sandboxUrl}/isolation-probe.jpg`,
  };
}

/** A minimal body for a JSON Schema: required fields and a few well-known ones, ids left out. */
function sample(schema: any, name = ''): unknown {
  const hint = hints()[name];
  if (hint) return hint();
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0], name);
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, s] of Object.entries<any>(schema.properties ?? {})) {
        if (!isIdField(k) && ((schema.required ?? []).includes(k) || k in hints())) out[k] = sample(s, k);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items));
    case 'string':
      return schema.format === 'date-time'
        ? inOneHour()
        : schema.format === 'uri'
          ? `${system.sandboxUrl}/probe`
          : 'probe';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
  }
  return undefined;
}

const idFields = (schema: any): [string, any][] =>
  Object.entries<any>(schema?.properties ?? {}).filter(([k]) => isIdField(k));
const asField = (schema: any, id: string) => (schema.type === 'array' ? [id] : id);

async function call(key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${system.baseUrl}${path}`, {
    method: method.toUpperCase(),
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, text };
}

const fill = (route: RouteDef, values: Record<string, string>) =>
  route.path.replace(/\{(\w+)\}/g, (_m, p: string) => encodeURIComponent(values[p]));

/** Status and body with the probed ids, times and signatures taken out, so two answers compare. */
function shape(a: Answer, ids: string[]): string {
  let text = a.text;
  for (const id of ids) text = text.split(id).join('<id>');
  text = text
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})/g, '<time>')
    .replace(/(https?:\/\/[^"?\s]+)\?[^"\s]*/g, '$1?<query>');
  return `${a.status} ${text}`;
}

const isUnbound = (a: Answer) =>
  a.status === 404 && a.body?.code === 'not_found' && /^No route /.test(a.body?.error ?? '');

function collect(pool: Pool, text: string): void {
  for (const id of text.match(ID) ?? []) {
    const prefix = id.slice(0, id.indexOf('_'));
    const ids = pool.get(prefix) ?? [];
    if (!ids.includes(id)) pool.set(prefix, [...ids, id]);
  }
}

/** Gives an account something of every kind the routes can create, and answers its ids. */
async function populate(account: SeededAccount): Promise<Pool> {
  const pool: Pool = new Map();
  const texts: string[] = [
    JSON.stringify({
      accountId: account.accountId,
      userId: account.userId,
      keyId: account.keyId,
      profiles: account.profiles,
    }),
  ];
  const own = (prefix: string | undefined) => (prefix ? (pool.get(prefix) ?? [])[0] : undefined);
  collect(pool, texts[0]);
  texts.push(
    (
      await call(account.apiKey, 'post', '/api/v1/publish', {
        platforms: ['threads'],
        caption: 'mine',
        scheduledTime: inOneHour(),
        profileIds: [account.profiles[0].id],
      })
    ).text,
  );
  collect(pool, texts.at(-1)!);
  if (ROUTES.some((r) => r.method === 'post' && r.path === '/api/v1/media')) {
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'mine.png');
    const res = await fetch(`${system.baseUrl}/api/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}` },
      body: form,
    });
    collect(pool, await res.text());
  }
  for (const route of ROUTES.filter((r) => r.method === 'post' && !pathParams(r).length && r.body)) {
    const body = sample(route.body) as Record<string, unknown>;
    for (const [k, s] of idFields(route.body)) {
      const id = own(prefixFor(k));
      if (id) body[k] = asField(s, id);
    }
    collect(pool, (await call(account.apiKey, 'post', route.path, body)).text);
  }
  for (const route of ROUTES.filter((r) => r.method === 'post' && pathParams(r).length)) {
    const values = Object.fromEntries(pathParams(route).map((p) => [p, own(prefixFor(p, route)) ?? missingId('xxx')]));
    collect(
      pool,
      (await call(account.apiKey, 'post', fill(route, values), route.body ? sample(route.body) : undefined)).text,
    );
  }
  for (const route of ROUTES.filter((r) => r.method === 'get' && !pathParams(r).length))
    collect(pool, (await call(account.apiKey, 'get', route.path)).text);
  return pool;
}

/** What B sees of its own things through every read route. */
async function snapshot(b: SeededAccount, pool: Pool, every: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const route of ROUTES.filter((r) => r.method === 'get')) {
    const params = pathParams(route);
    if (!params.length) {
      out[route.id] = shape(await call(b.apiKey, 'get', route.path), []);
      continue;
    }
    const prefix = prefixFor(params[0], route);
    for (const id of prefix ? (pool.get(prefix) ?? []) : every) {
      out[`${route.id} ${id}`] = shape(
        await call(b.apiKey, 'get', fill(route, Object.fromEntries(params.map((p) => [p, id])))),
        [],
      );
    }
  }
  return out;
}

function expectAnsweredAsMissing(label: string, theirs: Answer, missing: Answer, probed: string[]) {
  expect({ label, answer: theirs.status }).not.toEqual({ label, answer: 401 });
  expect({ label, answer: theirs.body?.code }).not.toEqual({ label, answer: 'insufficient_scope' });
  expect({ label, answer: theirs.status < 500 }).toEqual({ label, answer: true });
  expect({ label, answer: shape(theirs, probed) }).toEqual({ label, answer: shape(missing, probed) });
}

test("when a key of account A uses account B's ids on every route, then each answers exactly as for ids that do not exist, and B's data is unchanged", async () => {
  const a = await system.seedAccount({ platforms: ['threads'] });
  const b = await system.seedAccount({ platforms: ['threads'] });
  const [ownA, poolB] = [await populate(a), await populate(b)];
  const everyB = [...poolB.values()].flat();
  expect(poolB.get('pst')?.length).toBeGreaterThan(0);
  expect(poolB.get('prf')?.length).toBeGreaterThan(0);
  const before = await snapshot(b, poolB, everyB);

  let probes = 0;
  for (const route of ROUTES) {
    const params = pathParams(route);
    if (params.length) {
      const prefix = prefixFor(params[0], route);
      const theirIds = prefix ? (poolB.get(prefix) ?? []) : everyB;
      for (const id of theirIds) {
        const missing = missingId(id.slice(0, id.indexOf('_')));
        const body = route.body ? sample(route.body) : undefined;
        const theirs = await call(
          a.apiKey,
          route.method,
          fill(route, Object.fromEntries(params.map((p) => [p, id]))),
          body,
        );
        const none = await call(
          a.apiKey,
          route.method,
          fill(route, Object.fromEntries(params.map((p) => [p, missing]))),
          body,
        );
        if (isUnbound(none)) continue;
        expectAnsweredAsMissing(`${route.method} ${route.path} with B's ${id}`, theirs, none, [id, missing]);
        expect({ route: route.id, status: theirs.status }).toEqual({ route: route.id, status: 404 });
        probes++;
      }
      // The same route with A's own id answers otherwise: the probes reached the ownership check.
      const mine = prefix ? ownA.get(prefix)?.[0] : undefined;
      if (mine) {
        const missing = missingId(prefix!);
        const body = route.body ? sample(route.body) : undefined;
        const none = await call(
          a.apiKey,
          route.method,
          fill(route, Object.fromEntries(params.map((p) => [p, missing]))),
          body,
        );
        const control = await call(
          a.apiKey,
          route.method,
          fill(route, Object.fromEntries(params.map((p) => [p, mine]))),
          body,
        );
        if (!isUnbound(none))
          expect({ route: route.id, control: shape(control, [mine, missing]) }).not.toEqual({
            route: route.id,
            control: shape(none, [mine, missing]),
          });
      }
    }
    const fields = route.method === 'get' ? idFields(route.query) : idFields(route.body);
    for (const [field, schema] of fields) {
      const prefix = prefixFor(field);
      const theirIds = prefix ? (poolB.get(prefix) ?? []) : everyB;
      const values = Object.fromEntries(
        params.map((p) => [p, ownA.get(prefixFor(p, route) ?? '')?.[0] ?? missingId('xxx')]),
      );
      for (const id of theirIds) {
        const missing = missingId(id.slice(0, id.indexOf('_')));
        const send = (value: string) =>
          route.method === 'get'
            ? call(a.apiKey, 'get', `${fill(route, values)}?${new URLSearchParams({ [field]: value }).toString()}`)
            : call(a.apiKey, route.method, fill(route, values), {
                ...(sample(route.body) as object),
                [field]: asField(schema, value),
              });
        const [theirs, none] = [await send(id), await send(missing)];
        if (isUnbound(none)) continue;
        expectAnsweredAsMissing(`${route.method} ${route.path} with ${field}=${id}`, theirs, none, [id, missing]);
        probes++;
      }
    }
    if (route.method === 'get' && !params.length) {
      const listed = await call(a.apiKey, 'get', route.path);
      for (const id of everyB)
        expect({ route: route.id, leaks: listed.text.includes(id) }).toEqual({ route: route.id, leaks: false });
    }
  }
  expect(probes).toBeGreaterThanOrEqual(4);
  expect(await snapshot(b, poolB, everyB)).toEqual(before);
});

test('when a key limited to one profile names another profile of its own account, then profile_scope_denied on every route that takes profileIds, and lists do not show that profile', async () => {
  const owner = await system.seedAccount({ platforms: ['threads'] });
  const allowed = owner.profiles[0];
  const other = await connectSandboxProfile(
    system.bus.rpc,
    system.sandboxUrl,
    owner.accountId,
    'threads',
    `other_${owner.accountId.slice(-6).toLowerCase()}`,
  );
  const { key } = await system.bus.rpc.call(Rpc.authIssueKey, {
    accountId: owner.accountId,
    name: 'limited',
    scopes: [...SCOPES],
    profileIds: [allowed.id],
  });

  const takingProfiles = ROUTES.filter((r) => r.body && idFields(r.body).some(([k]) => k === 'profileIds'));
  expect(takingProfiles.map((r) => r.id)).toEqual(
    expect.arrayContaining(['createPost', 'schedulePost', 'publishPost']),
  );
  for (const route of takingProfiles) {
    const denied = await call(key, route.method, route.path, {
      ...(sample(route.body) as object),
      profileIds: [other.id],
    });
    expect({ route: route.id, denied: denied.text.includes('profile_scope_denied') }).toEqual({
      route: route.id,
      denied: true,
    });
    if (denied.status >= 400)
      expect({ route: route.id, status: denied.status, code: denied.body.code }).toEqual({
        route: route.id,
        status: 403,
        code: 'profile_scope_denied',
      });
    const ok = await call(key, route.method, route.path, {
      ...(sample(route.body) as object),
      profileIds: [allowed.id],
    });
    expect({ route: route.id, denied: ok.text.includes('profile_scope_denied') }).toEqual({
      route: route.id,
      denied: false,
    });
  }

  const anywhere = await call(key, 'post', '/api/v1/publish', {
    platforms: ['threads'],
    caption: 'only where allowed',
    scheduledTime: inOneHour(),
  });
  expect(anywhere.status).toBe(201);
  expect(anywhere.body.postIds).toHaveLength(1);
  expect((await call(key, 'get', `/api/v1/posts/${anywhere.body.postIds[0]}`)).body.profileIds).toEqual([allowed.id]);

  for (const route of ROUTES.filter((r) => r.method === 'get' && !pathParams(r).length)) {
    const listed = await call(key, 'get', route.path);
    expect({ route: route.id, shows: listed.text.includes(other.id) }).toEqual({ route: route.id, shows: false });
  }
});
