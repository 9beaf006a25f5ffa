import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Rpc, SCOPES } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { apiClient, platformUserIdOf, sandboxComments, settledActivity } from './harness';

let env: TestEnv;
let system: RunningSystem;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  env = await createTestEnv('automation_api');
  system = await startSystem(env);
  api = apiClient(system);
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const TEMPLATE = '/api/v1/automation/template';
const priceRule = {
  id: 'price',
  name: 'Price questions',
  trigger: { match: 'any', keywords: ['price', 'cost'] },
  action: { type: 'reply', text: 'Hi {name}, see your DMs' },
};

async function keyFor(account: SeededAccount, scopes: string[], profileIds?: string[]) {
  const { key } = await system.bus.rpc.call(Rpc.authIssueKey, {
    accountId: account.accountId,
    userId: account.userId,
    name: 'narrow',
    scopes,
    profileIds,
  });
  return key;
}

async function connectMcp(key: string): Promise<McpClient> {
  const client = new McpClient({ name: 'automation-test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${system.baseUrl}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

describe('exporting and importing the template', () => {
  test('when an account never imported a template, then the export is empty at revision 0', async () => {
    const account = await system.seedAccount({ platforms: ['instagram'] });
    const res = await api(TEMPLATE, { key: account.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, enabled: true, rules: [], revision: 0, updatedAt: null });
  });

  test('when a template is imported, then it is stored with its defaults filled in, and its export imports again unchanged', async () => {
    const account = await system.seedAccount({ platforms: ['instagram', 'facebook'] });
    const [ig] = account.profiles;
    const imported = await api(TEMPLATE, {
      method: 'PUT',
      key: account.apiKey,
      body: { version: 1, rules: [{ ...priceRule, profileIds: [ig.id], caps: { perPost: 3 } }] },
    });

    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({
      dryRun: false,
      changed: true,
      revision: 1,
      changes: [{ kind: 'rule_added', ruleId: 'price' }],
    });
    const exported = await api(TEMPLATE, { key: account.apiKey });
    expect(exported.body).toEqual({
      version: 1,
      enabled: true,
      rules: [{ ...priceRule, enabled: true, profileIds: [ig.id], caps: { perPost: 3, perHour: 60 } }],
      revision: 1,
      updatedAt: expect.any(String),
    });
    expect(imported.body.template).toEqual(exported.body);

    const again = await api(TEMPLATE, { method: 'PUT', key: account.apiKey, body: exported.body });
    expect(again.body).toMatchObject({ changed: false, revision: 1, changes: [] });
    expect((await api(TEMPLATE, { key: account.apiKey })).body).toEqual(exported.body);
  });

  test('when an import is a dry run, then it reports what would change and stores nothing', async () => {
    const account = await system.seedAccount({ platforms: ['instagram'] });
    await api(TEMPLATE, { method: 'PUT', key: account.apiKey, body: { version: 1, rules: [priceRule] } });
    const before = (await api(TEMPLATE, { key: account.apiKey })).body;

    const next = {
      version: 1,
      enabled: false,
      rules: [
        { ...priceRule, trigger: { match: 'exact', keywords: ['price'] } },
        {
          id: 'link',
          trigger: { match: 'exact', keywords: ['link'] },
          action: { type: 'private_reply', text: 'Here you go' },
        },
      ],
    };
    const dry = await api(`${TEMPLATE}?dryRun=true`, { method: 'PUT', key: account.apiKey, body: next });

    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      changed: true,
      revision: 2,
      changes: [
        { kind: 'template_changed', fields: ['enabled'] },
        { kind: 'rule_changed', ruleId: 'price', fields: ['trigger'] },
        { kind: 'rule_added', ruleId: 'link' },
      ],
    });
    expect(dry.body.template.rules.map((r: { id: string }) => r.id)).toEqual(['price', 'link']);
    expect((await api(TEMPLATE, { key: account.apiKey })).body).toEqual(before);
    expect(
      (await api(`${TEMPLATE}?dryRun=false`, { method: 'PUT', key: account.apiKey, body: next })).body,
    ).toMatchObject({ dryRun: false, revision: 2 });
  });

  test('when a template is invalid, then 400 validation_error lists every problem and nothing changes, dry run or not', async () => {
    const account = await system.seedAccount({ platforms: ['instagram', 'tiktok'] });
    await api(TEMPLATE, { method: 'PUT', key: account.apiKey, body: { version: 1, rules: [priceRule] } });
    const before = (await api(TEMPLATE, { key: account.apiKey })).body;
    const tiktok = account.profiles.find((p) => p.platform === 'tiktok')!;
    const invalid = {
      version: 2,
      rules: [
        { ...priceRule, trigger: { match: 'some', keywords: [] } },
        {
          ...priceRule,
          platforms: ['tiktok'],
          profileIds: ['prf_nobody', tiktok.id],
          action: { type: 'reply', text: 'Hi {firstname}' },
        },
      ],
    };

    for (const path of [TEMPLATE, `${TEMPLATE}?dryRun=true`]) {
      const res = await api(path, { method: 'PUT', key: account.apiKey, body: invalid });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.error).toMatch(/^The template has 8 problems and was not imported: /);
      expect(res.body.details.problems.map((p: { path: string }) => p.path)).toEqual([
        'version',
        'rules[0].trigger.match',
        'rules[0].trigger.keywords',
        'rules[1].id',
        'rules[1].action.text',
        'rules[1].platforms[0]',
        'rules[1].profileIds[0]',
        'rules[1].profileIds[1]',
      ]);
    }
    expect((await api(TEMPLATE, { key: account.apiKey })).body).toEqual(before);
  });

  test('when dryRun is neither true nor false, or the body is not JSON, then validation_error or invalid_json', async () => {
    const account = await system.seedAccount({ platforms: ['instagram'] });
    const badFlag = await api(`${TEMPLATE}?dryRun=maybe`, {
      method: 'PUT',
      key: account.apiKey,
      body: { version: 1, rules: [] },
    });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.code).toBe('validation_error');
    const notJson = await api(TEMPLATE, { method: 'PUT', key: account.apiKey, rawBody: '{"version": 1,' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe('invalid_json');
    const noBody = await api(TEMPLATE, { method: 'PUT', key: account.apiKey });
    expect(noBody.status).toBe(400);
    expect(noBody.body.details.problems).toEqual([
      { path: '(template)', message: expect.stringMatching(/JSON object/) },
    ]);
  });
});

describe('who may call', () => {
  test('when no key or an unknown key is sent, then 401 missing_api_key or invalid_api_key', async () => {
    const none = await api(TEMPLATE);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('missing_api_key');
    const unknown = await api('/api/v1/automation/activity', { key: `sk_live_${'x'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('invalid_api_key');
  });

  test('when a key lacks automation:read or automation:write, then 403 insufficient_scope', async () => {
    const account = await system.seedAccount({ platforms: ['instagram'] });
    const readOnly = await keyFor(account, ['automation:read']);
    const writeOnly = await keyFor(account, ['automation:write']);

    expect((await api(TEMPLATE, { key: readOnly })).status).toBe(200);
    const put = await api(TEMPLATE, { method: 'PUT', key: readOnly, body: { version: 1, rules: [] } });
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('insufficient_scope');
    expect((await api(TEMPLATE, { key: writeOnly })).body.code).toBe('insufficient_scope');
    expect((await api('/api/v1/automation/activity', { key: writeOnly })).body.code).toBe('insufficient_scope');
  });

  test("when a key limited to some profiles imports, or reads another profile's activity, then 403 profile_scope_denied", async () => {
    const account = await system.seedAccount({ platforms: ['instagram', 'facebook'] });
    const [ig, fb] = account.profiles;
    const narrow = await keyFor(account, [...SCOPES], [ig.id]);

    const put = await api(TEMPLATE, {
      method: 'PUT',
      key: narrow,
      body: { version: 1, rules: [{ ...priceRule, profileIds: [ig.id] }] },
    });
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('profile_scope_denied');
    const other = await api(`/api/v1/automation/activity?profileId=${fb.id}`, { key: narrow });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('profile_scope_denied');
    expect((await api(`/api/v1/automation/activity?profileId=${ig.id}`, { key: narrow })).status).toBe(200);
  });
});

describe('the activity', () => {
  test('when the account answered several comments, then the activity pages newest first and filters by outcome; a limited key sees its profiles only', async () => {
    const account = await system.seedAccount({ platforms: ['instagram', 'facebook'] });
    const [ig, fb] = account.profiles;
    // Private replies: a public reply would come back as the account's own comment and be listed too.
    await api(TEMPLATE, {
      method: 'PUT',
      key: account.apiKey,
      body: { version: 1, rules: [{ ...priceRule, action: { type: 'private_reply', text: 'In your inbox' } }] },
    });
    const sandbox = sandboxComments(system);
    expect((await sandbox.subscribe('postbus-development-verify-token')).status).toBe(201);
    const igUser = await platformUserIdOf(system, account.accountId, ig.id);
    const fbUser = await platformUserIdOf(system, account.accountId, fb.id);
    const ids: string[] = [];
    for (const [accountId, platform, text] of [
      [igUser, 'instagram', 'price?'],
      [igUser, 'instagram', 'hello'],
      [fbUser, 'facebook', 'cost?'],
    ] as const) {
      const { comment } = await sandbox.comment({ platform, accountId, text });
      await settledActivity(api, account.apiKey, comment.id);
      ids.push(comment.id);
    }

    const first = await api('/api/v1/automation/activity?limit=2', { key: account.apiKey });
    expect(first.status).toBe(200);
    expect(first.body.data.map((a: { commentId: string }) => a.commentId)).toEqual([ids[2], ids[1]]);
    const second = await api(`/api/v1/automation/activity?limit=2&cursor=${first.body.nextCursor}`, {
      key: account.apiKey,
    });
    expect(second.body).toEqual({ data: [expect.objectContaining({ commentId: ids[0] })], nextCursor: null });
    const replied = await api('/api/v1/automation/activity?outcome=replied', { key: account.apiKey });
    expect(replied.body.data.map((a: { commentId: string }) => a.commentId)).toEqual([ids[2], ids[0]]);
    const narrow = await keyFor(account, ['automation:read'], [ig.id]);
    expect(
      (await api('/api/v1/automation/activity', { key: narrow })).body.data.map(
        (a: { profileId: string }) => a.profileId,
      ),
    ).toEqual([ig.id, ig.id]);
  });

  test.each([['limit=0'], ['limit=101'], ['limit=ten'], ['outcome=ignored'], ['cursor=not-a-cursor']])(
    'when the activity is asked with %s, then 400 validation_error',
    async (query) => {
      const account = await system.seedAccount({ platforms: ['instagram'] });
      const res = await api(`/api/v1/automation/activity?${query}`, { key: account.apiKey });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
    },
  );
});

describe('openapi.json', () => {
  test("when the API description is read, then the template's JSON Schema is the import's body and the routes name their tool twins", async () => {
    const doc = (await api('/openapi.json')).body;
    const put = doc.paths['/api/v1/automation/template'].put;
    const schema = put.requestBody.content['application/json'].schema;
    expect(schema).toMatchObject({
      title: 'AutomationTemplate',
      type: 'object',
      required: ['version', 'rules'],
      additionalProperties: false,
    });
    expect(schema.properties.rules.items.properties.trigger.properties.match.enum).toEqual(['any', 'all', 'exact']);
    expect(put['x-required-scope']).toBe('automation:write');
    expect(put.description).toContain('svc_import_automation_template');
    expect(doc.paths['/api/v1/automation/template'].get.description).toContain('svc_export_automation_template');
    expect(doc.paths['/api/v1/automation/activity'].get['x-required-scope']).toBe('automation:read');
  });
});

describe('the agent tools', () => {
  test('when an agent exports, dry-runs and imports a template, then the tools answer what their REST twins answer', async () => {
    const account = await system.seedAccount({ platforms: ['instagram'] });
    const client = await connectMcp(account.apiKey);
    const { tools } = await client.listTools();
    const exportTool = tools.find((t) => t.name === 'svc_export_automation_template')!;
    const importTool = tools.find((t) => t.name === 'svc_import_automation_template')!;
    expect(exportTool.annotations?.readOnlyHint).toBe(true);
    expect(importTool.inputSchema.properties).toHaveProperty('template');
    expect(importTool._meta?.['postbus/rest']).toContain('PUT /api/v1/automation/template');

    const empty = await client.callTool({ name: 'svc_export_automation_template', arguments: {} });
    expect(empty.structuredContent).toEqual({ version: 1, enabled: true, rules: [], revision: 0, updatedAt: null });

    const template = { version: 1, rules: [priceRule] };
    const dry = await client.callTool({
      name: 'svc_import_automation_template',
      arguments: { template, dryRun: true },
    });
    expect(dry.isError).toBeFalsy();
    expect(dry.structuredContent).toMatchObject({ dryRun: true, changed: true, revision: 1 });
    expect((await api(TEMPLATE, { key: account.apiKey })).body.revision).toBe(0);

    const done = await client.callTool({ name: 'svc_import_automation_template', arguments: { template } });
    expect(done.structuredContent).toMatchObject({ dryRun: false, changed: true, revision: 1 });
    const exported = await client.callTool({ name: 'svc_export_automation_template', arguments: {} });
    expect(exported.structuredContent).toEqual((await api(TEMPLATE, { key: account.apiKey })).body);
    await client.close();
  });

  test('when an agent imports an invalid template, then the error comes back in-band with every problem', async () => {
    const account = await system.seedAccount({ platforms: ['instagram'] });
    const client = await connectMcp(account.apiKey);
    const res = await client.callTool({
      name: 'svc_import_automation_template',
      arguments: {
        template: { version: 1, rules: [{ ...priceRule, id: 'has space', action: { type: 'shout', text: 'x' } }] },
      },
    });

    expect(res.isError).toBe(true);
    const body = JSON.parse((res.content as { text: string }[])[0].text);
    expect(body.code).toBe('validation_error');
    expect(body.details.problems.map((p: { path: string }) => p.path)).toEqual(['rules[0].id', 'rules[0].action.type']);
    expect((await api(TEMPLATE, { key: account.apiKey })).body.revision).toBe(0);
    await client.close();
  });

  test('when a key lacks automation:write, then the import tool answers 403 insufficient_scope', async () => {
    const account = await system.seedAccount({ platforms: ['instagram'] });
    const key = await keyFor(account, ['automation:read']);
    const res = await fetch(`${system.baseUrl}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${key}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'svc_import_automation_template', arguments: { template: { version: 1, rules: [] } } },
      }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('scope="automation:write"');
  });
});

describe('when automation is down', () => {
  test('when the automation service stops, then its routes and the webhook path answer 503 service_unavailable', async () => {
    const account = await system.seedAccount({ platforms: ['instagram'] });
    await system.stopService('automation');

    const read = await api(TEMPLATE, { key: account.apiKey });
    expect(read.status).toBe(503);
    expect(read.body.code).toBe('service_unavailable');
    const hook = await api('/webhooks/meta?hub.mode=subscribe&hub.challenge=1&hub.verify_token=x');
    expect(hook.status).toBe(503);
    expect(hook.body.code).toBe('service_unavailable');
  });
});
