import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { chromium } from 'playwright-core';
import { createTestEnv, type TestEnv, testServers } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { SERVICES } from '@postbus/gateway/src/entry-points/http/health';
import { bindings, expressPath } from '@postbus/gateway/src/entry-points/routes/route-table';

let env: TestEnv;
let system: RunningSystem;

beforeAll(async () => {
  env = await createTestEnv('discovery');
  system = await startSystem(env);
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

type OpenApi = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
};
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

async function openapi(): Promise<OpenApi> {
  const res = await fetch(`${system.baseUrl}/openapi.json`);
  expect(res.status).toBe(200);
  return (await res.json()) as OpenApi;
}

describe('openapi.json', () => {
  test('when it is fetched, then it is a valid OpenAPI 3.1 document', async () => {
    const doc = await openapi();
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  test('when compared with the gateway, then every gateway route is described', async () => {
    const doc = await openapi();
    for (const b of bindings) expect(doc.paths[b.route.path]?.[b.route.method]).toBeDefined();
  });

  test('when each described operation is called without a key, then the gateway knows it (never 404 not_found)', async () => {
    const doc = await openapi();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops).filter((m) => METHODS.includes(m))) {
        const url = `${system.baseUrl}${path.replace(/\{\w+\}/g, 'x_probe')}`;
        const res = await fetch(url, { method: method.toUpperCase() });
        const body = res.headers.get('content-type')?.includes('json') ? ((await res.json()) as { code?: string }) : {};
        expect({ path, method, code: body.code, status: res.status }).not.toMatchObject({
          code: 'not_found',
          status: 404,
        });
      }
    }
    // The converse: a path that is not described is a 404.
    expect((await fetch(`${system.baseUrl}/api/v1/undocumented`)).status).toBe(404);
    expect(expressPath('/api/v1/posts/{id}')).toBe('/api/v1/posts/:id');
  });

  test('when a post is created and read, then the real answers match the documented response schemas', async () => {
    const doc = await openapi();
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const account = await system.seedAccount({ platforms: ['threads'] });
    const created = await fetch(`${system.baseUrl}/api/v1/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        platforms: ['threads'],
        caption: 'schema check',
        scheduledTime: new Date(Date.now() + 86_400_000).toISOString(),
      }),
    });
    const createdBody = (await created.json()) as { postIds: string[] };
    const createSchema = doc.paths['/api/v1/posts'].post.responses['201'].content!['application/json'].schema;
    expect(created.status).toBe(201);
    ajv.validate(createSchema as object, createdBody);
    expect(ajv.errors ?? []).toEqual([]);
    const read = await fetch(`${system.baseUrl}/api/v1/posts/${createdBody.postIds[0]}`, {
      headers: { authorization: `Bearer ${account.apiKey}` },
    });
    const getSchema = doc.paths['/api/v1/posts/{id}'].get.responses['200'].content!['application/json'].schema;
    ajv.validate(getSchema as object, await read.json());
    expect(ajv.errors ?? []).toEqual([]);
    const missing = await fetch(`${system.baseUrl}/api/v1/posts/pst_nope`, {
      headers: { authorization: `Bearer ${account.apiKey}` },
    });
    const errorSchema = doc.paths['/api/v1/posts/{id}'].get.responses['404'].content!['application/json'].schema;
    const ajvWithRefs = new Ajv2020({ strict: false });
    ajvWithRefs.addSchema({ $id: 'doc', ...(doc as object) });
    expect(missing.status).toBe(404);
    expect(ajvWithRefs.validate({ $ref: 'doc#/components/schemas/Error' }, await missing.json())).toBe(true);
    expect(errorSchema).toBeDefined();
  });
});

describe('discovery addresses', () => {
  test('when the API catalog is read, then it is a linkset naming the description, the docs and the status', async () => {
    const res = await fetch(`${system.baseUrl}/.well-known/api-catalog`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/linkset+json');
    const { linkset } = (await res.json()) as { linkset: Record<string, { href: string }[]>[] };
    expect(linkset[0]['service-desc'][0].href).toBe(`${system.baseUrl}/openapi.json`);
    expect(linkset[0]['service-doc'][0].href).toBe(`${system.baseUrl}/docs/api`);
    expect(linkset[0].status[0].href).toBe(`${system.baseUrl}/api/health`);
  });

  test('when every service is up, then health is 200 and names each one ok', async () => {
    const res = await fetch(`${system.baseUrl}/api/health`);
    const body = (await res.json()) as {
      status: string;
      services: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(res.status).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.dependencies).toEqual({ broker: 'ok', database: 'ok' });
    expect(Object.keys(body.services).sort()).toEqual([...SERVICES].sort());
    expect(Object.values(body.services).every((v) => v === 'ok')).toBe(true);
  });

  test('when the reference page is opened in a browser, then its sections render', async () => {
    const browser = await chromium.launch({
      executablePath: testServers.chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${system.baseUrl}/docs/api`);
      for (const heading of ['Quick start', 'Authentication', 'Errors', 'Limits']) {
        await page.locator('h1, h2', { hasText: heading }).first().waitFor({ timeout: 20_000 });
      }
      await page.locator('h2', { hasText: 'Create posts' }).first().waitFor({ state: 'attached', timeout: 10_000 });
      const dir = join(__dirname, '..', '..', '..', 'test-artifacts');
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, 'docs-api.png'), fullPage: false });
    } finally {
      await browser.close();
    }
  });

  test('when a service stops, then health is 503 and names it', async () => {
    await system.stopService('media');
    await new Promise((r) => setTimeout(r, 600)); // past the health answer's reuse window
    const res = await fetch(`${system.baseUrl}/api/health`);
    const body = (await res.json()) as { status: string; services: Record<string, string> };
    expect(res.status).toBe(503);
    expect(body.services.media).toBe('down');
    expect(body.services.posts).toBe('ok');
  });
});
