import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Rpc } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let client: Client;

const QUOTA = 6;

beforeAll(async () => {
  env = await createTestEnv('mcp_posts_tools');
  system = await startSystem(env, { QUOTA_TRIAL_POSTS: String(QUOTA) });
  account = await system.seedAccount({ platforms: ['threads', 'facebook'] });
  client = await connect(account.apiKey);
});
afterAll(async () => {
  await client?.close();
  await system?.stop();
  await env?.drop();
});

async function connect(key: string): Promise<Client> {
  const c = new Client({ name: 'posts-tools-test', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${system.baseUrl}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return c;
}

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

async function call(
  name: string,
  args: Record<string, unknown>,
  c = client,
): Promise<{ ok: true; data: any } | { ok: false; error: string; code: string }> {
  const r = await c.callTool({ name, arguments: args });
  if (r.isError) return { ok: false, ...JSON.parse((r.content as { text: string }[])[0].text) };
  return { ok: true, data: r.structuredContent };
}

async function codeOf(name: string, args: Record<string, unknown>, c = client): Promise<string> {
  const r = await call(name, args, c);
  return r.ok ? 'ok' : r.code;
}

describe('post tools answer the REST error codes in-band', () => {
  test('when the payload breaks a posting rule, then each rule has its code', async () => {
    const threads = account.profiles.find((p) => p.platform === 'threads')!.id;
    const facebook = account.profiles.find((p) => p.platform === 'facebook')!.id;
    expect(await codeOf('svc_schedule_post', { caption: 'x' })).toBe('missing_platforms');
    expect(await codeOf('svc_schedule_post', { platforms: ['myspace'], caption: 'x' })).toBe('unsupported_platform');
    expect(await codeOf('svc_schedule_post', { platforms: ['threads'] })).toBe('missing_content');
    expect(
      await codeOf('svc_schedule_post', { platforms: ['threads'], caption: 'x', scheduledTime: '2030-01-01T10:00:00' }),
    ).toBe('invalid_scheduled_time');
    expect(
      await codeOf('svc_schedule_post', {
        platforms: ['threads'],
        caption: 'x',
        scheduledTime: '2020-01-01T10:00:00Z',
      }),
    ).toBe('scheduled_time_in_past');
    expect(await codeOf('svc_schedule_post', { platforms: ['threads'], caption: 'y'.repeat(501) })).toBe(
      'validation_error',
    );
    expect(await codeOf('svc_schedule_post', { platforms: ['threads'], caption: 'x', profileIds: [facebook] })).toBe(
      'invalid_profile_ids',
    );
    expect(
      await codeOf('svc_schedule_post', { platforms: ['threads'], caption: 'x', profileIds: ['prf_unknown'] }),
    ).toBe('invalid_profile_ids');
    expect(
      await codeOf('svc_schedule_post', { platforms: ['threads'], mediaId: 'med_unknown', profileIds: [threads] }),
    ).toBe('media_not_found');
    expect(await codeOf('svc_draft_post', { caption: 'x' })).toBe('missing_platforms');
    const check = await call('svc_validate_post_policy', {
      platforms: ['tiktok', 'threads'],
      caption: 'z'.repeat(600),
    });
    expect(check.ok).toBe(true);
    const problems = (check as { data: { valid: boolean; problems: { code: string; platform?: string }[] } }).data;
    expect(problems.valid).toBe(false);
    expect(problems.problems.some((p) => p.platform === 'tiktok')).toBe(true);
    expect(problems.problems.some((p) => p.platform === 'threads')).toBe(true);
  });

  test('when a key is restricted to one profile, then another profile is profile_scope_denied', async () => {
    const threads = account.profiles.find((p) => p.platform === 'threads')!.id;
    const facebook = account.profiles.find((p) => p.platform === 'facebook')!.id;
    const { key } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'restricted',
      scopes: ['post:write', 'post:read'],
      profileIds: [threads],
    });
    const restricted = await connect(key);
    expect(
      await codeOf('svc_schedule_post', { platforms: ['facebook'], caption: 'x', profileIds: [facebook] }, restricted),
    ).toBe('profile_scope_denied');
    expect(
      await codeOf(
        'svc_schedule_post',
        { platforms: ['threads'], caption: 'x', profileIds: [threads], scheduledTime: inHours(5) },
        restricted,
      ),
    ).toBe('ok');
    await restricted.close();
  });

  test('when an externalId is reused with another payload, then external_id_conflict; with the same payload, the same ids', async () => {
    const first = await call('svc_schedule_post', {
      platforms: ['threads'],
      caption: 'once',
      externalId: 'ext-mcp-1',
      scheduledTime: inHours(2),
    });
    expect(first.ok).toBe(true);
    const again = await call('svc_schedule_post', {
      platforms: ['threads'],
      caption: 'once',
      externalId: 'ext-mcp-1',
      scheduledTime: (first as { data: { scheduledTime: string } }).data.scheduledTime,
    });
    expect(again).toEqual(first);
    expect(
      await codeOf('svc_schedule_post', {
        platforms: ['threads'],
        caption: 'different',
        externalId: 'ext-mcp-1',
        scheduledTime: inHours(2),
      }),
    ).toBe('external_id_conflict');
  });

  test('when a post is missing, cancelled or another account’s, then post_not_found or post_not_editable', async () => {
    expect(await codeOf('svc_get_post_status', { postId: 'pst_nope' })).toBe('post_not_found');
    const created = await call('svc_schedule_post', {
      platforms: ['threads'],
      caption: 'to cancel',
      scheduledTime: inHours(3),
    });
    const [postId] = (created as { data: { postIds: string[] } }).data.postIds;
    const cancelled = await call('svc_delete_scheduled_post', { postId });
    expect(cancelled).toMatchObject({ ok: true, data: { id: postId, status: 'cancelled' } });
    expect(await codeOf('svc_update_scheduled_post', { postId, caption: 'too late' })).toBe('post_not_editable');
    expect(await codeOf('svc_delete_scheduled_post', { postId })).toBe('post_not_editable');
    const other = await system.seedAccount({ platforms: ['threads'] });
    const otherClient = await connect(other.apiKey);
    expect(await codeOf('svc_get_post_status', { postId }, otherClient)).toBe('post_not_found');
    expect(await codeOf('svc_update_scheduled_post', { postId, caption: 'mine now' }, otherClient)).toBe(
      'post_not_found',
    );
    await otherClient.close();
  });

  test('when drafts go through approval tools, then the approval link and its state come back', async () => {
    const draft = await call('svc_draft_post', { platforms: ['threads'], caption: 'for review' });
    expect(draft.ok).toBe(true);
    const [postId] = (draft as { data: { postIds: string[] } }).data.postIds;
    const requested = await call('svc_request_post_approval', { postId });
    expect(requested).toMatchObject({
      ok: true,
      data: { approvalUrl: expect.stringContaining(`${system.baseUrl}/approvals/`) },
    });
    const state = await call('svc_get_post_approval_status', { postId });
    expect(state).toMatchObject({ ok: true });
    const listed = await call('svc_list_scheduled_posts', { status: ['pending_approval'] });
    expect(listed).toMatchObject({ ok: true });
    expect((listed as { data: { data: { id: string }[] } }).data.data.map((p) => p.id)).toContain(postId);
  });

  test('when the plan’s scheduling quota is used up, then quota_exceeded and nothing more is stored', async () => {
    const fresh = await system.seedAccount({ platforms: ['threads'] });
    const c = await connect(fresh.apiKey);
    for (let i = 0; i < QUOTA; i++)
      expect(
        await codeOf('svc_schedule_post', { platforms: ['threads'], caption: `n${i}`, scheduledTime: inHours(4) }, c),
      ).toBe('ok');
    expect(
      await codeOf(
        'svc_schedule_post',
        { platforms: ['threads'], caption: 'one too many', scheduledTime: inHours(4) },
        c,
      ),
    ).toBe('quota_exceeded');
    const listed = await call('svc_list_scheduled_posts', { limit: 100 }, c);
    expect((listed as { data: { data: unknown[] } }).data.data).toHaveLength(QUOTA);
    await c.close();
  });
});

describe('create tools take an idempotencyKey, as REST takes Idempotency-Key', () => {
  test('when svc_schedule_post is retried with the same key and arguments, then one post is stored and the same postIds come back', async () => {
    const fresh = await system.seedAccount({ platforms: ['threads'] });
    const c = await connect(fresh.apiKey);
    const args = {
      platforms: ['threads'],
      caption: 'retried',
      scheduledTime: inHours(6),
      idempotencyKey: 'retry-key-1',
    };
    const first = await call('svc_schedule_post', args, c);
    expect(first.ok).toBe(true);
    const again = await call('svc_schedule_post', args, c);
    expect(again).toEqual(first);
    const listed = await call('svc_list_scheduled_posts', { limit: 100 }, c);
    expect((listed as { data: { data: { id: string }[] } }).data.data.map((p) => p.id)).toEqual(
      (first as { data: { postIds: string[] } }).data.postIds,
    );
    await c.close();
  });

  test('when the same key comes with different arguments, then idempotency_conflict and nothing more is stored', async () => {
    const fresh = await system.seedAccount({ platforms: ['threads'] });
    const c = await connect(fresh.apiKey);
    expect(
      await codeOf(
        'svc_schedule_post',
        { platforms: ['threads'], caption: 'first', scheduledTime: inHours(6), idempotencyKey: 'retry-key-2' },
        c,
      ),
    ).toBe('ok');
    expect(
      await codeOf(
        'svc_schedule_post',
        { platforms: ['threads'], caption: 'second', scheduledTime: inHours(6), idempotencyKey: 'retry-key-2' },
        c,
      ),
    ).toBe('idempotency_conflict');
    expect(
      await codeOf('svc_draft_post', { platforms: ['threads'], caption: 'draft', idempotencyKey: 'retry-key-3' }, c),
    ).toBe('ok');
    expect(
      await codeOf('svc_draft_post', { platforms: ['threads'], caption: 'draft', idempotencyKey: 'retry-key-3' }, c),
    ).toBe('ok');
    expect(
      await codeOf(
        'svc_draft_post',
        { platforms: ['threads'], caption: 'other draft', idempotencyKey: 'retry-key-3' },
        c,
      ),
    ).toBe('idempotency_conflict');
    const listed = await call('svc_list_scheduled_posts', { limit: 100 }, c);
    expect((listed as { data: { data: unknown[] } }).data.data).toHaveLength(2);
    await c.close();
  });

  test('when the key is empty or longer than 255 characters, then validation_error', async () => {
    expect(await codeOf('svc_schedule_post', { platforms: ['threads'], caption: 'x', idempotencyKey: '' })).toBe(
      'validation_error',
    );
    expect(
      await codeOf('svc_draft_post', { platforms: ['threads'], caption: 'x', idempotencyKey: 'k'.repeat(256) }),
    ).toBe('validation_error');
  });

  test('when tools are listed, then the create tools describe idempotencyKey', async () => {
    const { tools } = await client.listTools();
    for (const name of ['svc_schedule_post', 'svc_draft_post']) {
      const key = (
        tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, { description: string }>
      ).idempotencyKey;
      expect(key.description).toContain('same key when retrying');
    }
  });
});
