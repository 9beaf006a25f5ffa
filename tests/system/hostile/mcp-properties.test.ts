import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { ERROR_STATUS, Routes, type RouteDef } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { fromSchema, hostileString } from './arbitraries';
import { callTool } from '../support/mcp-client';
import { collectIds, DatabaseFingerprint } from './support';

/**
 * The agent endpoint under hostile input: every tool that has a REST twin (tools added later
 * are covered too) called with arguments of any shape, and JSON-RPC bodies of any shape. The
 * HTTP answer is never 5xx, a tool's refusal is in-band `{ error, code }` with a 4xx code, and
 * a refused call writes nothing.
 */

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let fingerprint: DatabaseFingerprint;
const pool = new Map<string, string[]>();
const ids = (prefix: string) => pool.get(prefix) ?? [];
const TOOL_ROUTES = (Object.values(Routes) as RouteDef[]).filter((r) => r.tool);

beforeAll(async () => {
  env = await createTestEnv('hostile_mcp');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0', SCHEDULER_TICK_MS: '3600000' });
  account = await system.seedAccount({ platforms: ['threads', 'tiktok'], plan: 'pro' });
  collectIds(pool, JSON.stringify(account.profiles));
  const draft = await callTool(
    system.baseUrl,
    'svc_draft_post',
    { platforms: ['threads'], caption: 'own draft' },
    account.apiKey,
  );
  collectIds(pool, JSON.stringify(draft.message));
  fingerprint = await DatabaseFingerprint.open(env.databaseUrl);
});
afterAll(async () => {
  await fingerprint?.close();
  await system?.stop();
  await env?.drop();
});

describe.each(TOOL_ROUTES.map((r) => [r.tool!.name, r] as const))('tool %s', (_name, route) => {
  test('when called with arguments of any shape, then a result or an in-band 4xx code, never 5xx, and a refusal writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fromSchema(route.tool!.input, ids), async (args) => {
        const before = await fingerprint.take();
        const answer = await callTool(
          system.baseUrl,
          route.tool!.name,
          args as Record<string, unknown>,
          account.apiKey,
        );
        const after = await fingerprint.take();
        expect(answer.status).toBeLessThan(500);
        if (answer.error) {
          const status = (ERROR_STATUS as Record<string, number>)[answer.error.code];
          expect({ code: answer.error.code, status }).toEqual({ code: answer.error.code, status: expect.any(Number) });
          expect(status).toBeLessThan(500);
          expect(DatabaseFingerprint.changed(before, after)).toEqual([]);
        } else if (answer.status === 200) {
          collectIds(pool, JSON.stringify(answer.message));
        }
      }),
      { numRuns: 10 },
    );
  });
});

describe('JSON-RPC bodies of any shape', () => {
  test('when the agent endpoint gets any JSON or broken JSON, then it never answers 5xx', async () => {
    const rpcish = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), hostileString()),
        id: fc.oneof(fc.integer(), hostileString(), fc.constant(null)),
        method: fc.oneof(
          fc.constantFrom('tools/call', 'tools/list', 'initialize', 'ping', 'resources/list'),
          hostileString(),
        ),
        params: fc.jsonValue({ maxDepth: 3 }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          rpcish.map((b) => JSON.stringify(b)),
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.string().map((s) => `{"jsonrpc":"2.0",${s}`),
        ),
        async (raw) => {
          const res = await fetch(`${system.baseUrl}/api/mcp`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              authorization: `Bearer ${account.apiKey}`,
              'mcp-session-id': randomBytes(4).toString('hex'),
            },
            body: raw,
          });
          await res.arrayBuffer();
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });

  test('when the body is over the size limit, in an odd charset, or compressed in an unknown way, then 413 for the size and never 5xx', async () => {
    const post = (body: Buffer | string, headers: Record<string, string>) =>
      fetch(`${system.baseUrl}/api/mcp`, {
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${account.apiKey}`,
          ...headers,
        },
        body,
      }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      });
    const huge = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"'),
      Buffer.alloc(71 * 1024 * 1024, 97),
      Buffer.from('"}}'),
    ]);
    // the oversized body last: a connection the server closes while discarding it is reused by no other request
    const statuses = {
      charset: await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', {
        'content-type': 'application/json; charset=utf-7',
      }),
      encoding: await post('{"jsonrpc":"2.0","id":1,"method":"ping"}', {
        'content-type': 'application/json',
        'content-encoding': 'br-unknown',
      }),
      tooLarge: await post(huge, { 'content-type': 'application/json' }),
    };
    expect(statuses.tooLarge).toBe(413);
    for (const status of Object.values(statuses)) expect(status).toBeLessThan(500);
  });
});
