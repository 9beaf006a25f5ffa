import fc from 'fast-check';
import type { RouteDef } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { bodyMode, fromSchema, paramsFor, queryFor, type BodyMode } from './arbitraries';
import {
  call,
  collectIds,
  DatabaseFingerprint,
  fillPath,
  isCodedRefusal,
  pathParams,
  seedOneOfEach,
  type Answer,
} from './support';

/**
 * Property tests over JSON endpoints of the route table (routes added later are covered too):
 * whatever body, query and path parameters a client with a valid key sends, the answer is 2xx
 * or a 4xx carrying its code, never 5xx, and a refused request writes nothing anywhere (every
 * table of every service compared before and after). Each test file takes a share of the routes.
 */
export function probeRoutes(label: string, routes: RouteDef[], numRuns: number): void {
  let env: TestEnv;
  let system: RunningSystem;
  let account: SeededAccount;
  let fingerprint: DatabaseFingerprint;
  const pool = new Map<string, string[]>();
  const ids = (prefix: string) => pool.get(prefix) ?? [];

  beforeAll(async () => {
    env = await createTestEnv(label);
    // No post falls due while the properties run, so nothing changes the database but the requests.
    system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0', SCHEDULER_TICK_MS: '3600000' });
    account = await system.seedAccount({ platforms: ['threads', 'tiktok'], plan: 'pro' });
    await seedOneOfEach(system.baseUrl, account, pool);
    fingerprint = await DatabaseFingerprint.open(env.databaseUrl);
  });
  afterAll(async () => {
    await fingerprint?.close();
    await system?.stop();
    await env?.drop();
  });

  async function send(method: string, path: string, mode: BodyMode, body: unknown): Promise<Answer> {
    const key = account.apiKey;
    if (method === 'get' || method === 'delete' || mode === 'none') return call(system.baseUrl, method, path, { key });
    if (mode === 'broken')
      return call(system.baseUrl, method, path, {
        key,
        rawBody: '{"caption": "unterminated',
        headers: { 'content-type': 'application/json' },
      });
    if (mode === 'text')
      return call(system.baseUrl, method, path, {
        key,
        rawBody: JSON.stringify(body),
        headers: { 'content-type': 'text/plain' },
      });
    return call(system.baseUrl, method, path, { key, body });
  }

  /** The route's request with a NUL character in a path parameter, else in a body field, else in a query parameter; undefined when it takes none. */
  function withNul(route: RouteDef): { path: string; body?: unknown } | undefined {
    const params = pathParams(route);
    if (params.length)
      return {
        path: fillPath(route, Object.fromEntries(params.map((p) => [p, 'id\u0000']))),
        body: route.body ? {} : undefined,
      };
    const fields = Object.entries<any>((route.body as any)?.properties ?? {}).filter(([, s]) => s.type === 'string');
    if (fields.length) return { path: route.path, body: { [fields[0][0]]: 'text\u0000' } };
    const query = Object.keys((route.query as any)?.properties ?? {});
    if (query.length) return { path: `${route.path}?${query[0]}=%00` };
    return undefined;
  }

  describe.each(routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))('%s', (_name, route) => {
    const nul = withNul(route);
    if (nul) {
      test('when a string of the request holds the NUL character, then 400 validation_error and nothing is written', async () => {
        const before = await fingerprint.take();
        const answer = await call(system.baseUrl, route.method, nul.path, { key: account.apiKey, body: nul.body });
        expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 400, code: 'validation_error' });
        expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
      });
    }

    test('when any body, query and path parameters are sent, then 2xx or a 4xx with its code, never 5xx, and a refusal writes nothing', async () => {
      await fc.assert(
        fc.asyncProperty(
          paramsFor(route, ids),
          queryFor(route, ids),
          route.body ? fromSchema(route.body, ids) : fc.constant(undefined),
          bodyMode(),
          async (params, query, body, mode) => {
            const before = await fingerprint.take();
            const answer = await send(route.method, `${fillPath(route, params)}${query}`, mode, body);
            const after = await fingerprint.take();
            expect(answer.status).toBeLessThan(500);
            if (answer.status >= 400) {
              expect({ status: answer.status, body: answer.body, coded: isCodedRefusal(answer) }).toMatchObject({
                coded: true,
              });
              expect(DatabaseFingerprint.changed(before, after)).toEqual([]);
            } else {
              expect(answer.status).toBeGreaterThanOrEqual(200);
              collectIds(pool, answer.text);
            }
          },
        ),
        { numRuns },
      );
    });
  });
}
