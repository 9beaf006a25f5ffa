import { Rpc, SCOPES, WebhookRoutes, type RouteDef } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { callTool, type ToolAnswer } from '../support/mcp-client';
import { fillPath, missingId, pathParams } from '../hostile/support';
import { api, inHours, type ApiAnswer } from '../support/posts-api';

/**
 * A key limited to one profile sees that profile's posts and nothing of the others': another
 * profile's post answers exactly like a post that does not exist (reads and writes, REST and
 * tools), no list, cursor, count or figure shows it, and account-wide webhooks are refused.
 */

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let limitedKey: string;
let mine: string;
let theirs: string;
let theirDraft: string;
let webhookId: string;

const profileOf = (platform: string) => account.profiles.find((p) => p.platform === platform)!.id;
const cursorAfter = (postId: string) => Buffer.from(JSON.stringify({ v: 1, after: postId })).toString('base64url');
const codeOf = (a: ApiAnswer) => `${a.status} ${a.body?.code}`;
const toolOutcome = (t: ToolAnswer) => (t.error ? `error ${t.error.code}` : `ok`);
const tool = (name: string, args: Record<string, unknown>) => callTool(system.baseUrl, name, args, limitedKey);
const asLimited = (path: string, init: { method?: string; body?: unknown } = {}) =>
  api(system, path, { ...init, key: limitedKey });
const asOwner = (path: string, init: { method?: string; body?: unknown } = {}) =>
  api(system, path, { ...init, key: account.apiKey });

async function create(path: string, platform: string, caption: string, scheduled = true): Promise<string> {
  const r = await asOwner(path, {
    method: 'POST',
    body: {
      platforms: [platform],
      caption,
      profileIds: [profileOf(platform)],
      ...(scheduled && { scheduledTime: inHours(48) }),
    },
  });
  expect(r.status).toBe(201);
  return r.body.postIds[0];
}

beforeAll(async () => {
  env = await createTestEnv('profile_limited_keys');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0', SCHEDULER_TICK_MS: '3600000' });
  account = await system.seedAccount({ platforms: ['threads', 'facebook'], plan: 'pro' });
  mine = await create('/api/v1/posts', 'threads', 'on the allowed profile');
  theirs = await create('/api/v1/posts', 'facebook', 'on another profile');
  theirDraft = await create('/api/v1/posts/drafts', 'facebook', 'a draft on another profile', false);
  const hook = await asOwner('/api/v1/webhooks', {
    method: 'POST',
    body: { url: 'http://127.0.0.1:9/hook', events: ['post.published'] },
  });
  expect(hook.status).toBe(201);
  webhookId = hook.body.id;
  ({ key: limitedKey } = await system.bus.rpc.call(Rpc.authIssueKey, {
    accountId: account.accountId,
    userId: account.userId,
    name: 'threads only',
    scopes: [...SCOPES],
    profileIds: [profileOf('threads')],
  }));
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

describe('REST: another profile of the same account', () => {
  test("when the key reads, changes, cancels or sends for approval another profile's post, then 404 post_not_found exactly as for a missing post, and the post is unchanged", async () => {
    const missing = missingId('pst');
    const attempts: [string, (id: string) => Promise<ApiAnswer>][] = [
      ['GET', (id) => asLimited(`/api/v1/posts/${id}`)],
      ['PATCH', (id) => asLimited(`/api/v1/posts/${id}`, { method: 'PATCH', body: { caption: 'taken over' } })],
      ['DELETE', (id) => asLimited(`/api/v1/posts/${id}`, { method: 'DELETE' })],
      ['POST approval', (id) => asLimited(`/api/v1/posts/${id}/approval`, { method: 'POST' })],
      ['GET approval', (id) => asLimited(`/api/v1/posts/${id}/approval`)],
    ];
    for (const [what, send] of attempts) {
      const target = what.includes('approval') ? theirDraft : theirs;
      const [other, none] = [await send(target), await send(missing)];
      expect({ what, answer: codeOf(other) }).toEqual({ what, answer: '404 post_not_found' });
      expect({ what, answer: codeOf(other), message: other.body.error.split(target).join('<id>') }).toEqual({
        what,
        answer: codeOf(none),
        message: none.body.error.split(missing).join('<id>'),
      });
    }
    expect((await asOwner(`/api/v1/posts/${theirs}`)).body).toMatchObject({
      status: 'scheduled',
      caption: 'on another profile',
    });
    expect((await asOwner(`/api/v1/posts/${theirDraft}`)).body).toMatchObject({ status: 'draft' });
    expect((await asLimited(`/api/v1/posts/${mine}`)).body).toMatchObject({
      id: mine,
      caption: 'on the allowed profile',
    });
  });

  test("when the key lists posts, page by page and with every filter, then another profile's posts never appear", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiAnswer = await asLimited(`/api/v1/posts?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((p: { id: string }) => p.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([mine]);
    for (const query of [
      'status=scheduled',
      'status=draft',
      'platform=facebook',
      'platform=threads,facebook',
      `from=${encodeURIComponent(inHours(1))}`,
    ]) {
      const r = await asLimited(`/api/v1/posts?${query}`);
      expect({
        query,
        status: r.status,
        ids: r.body.data.map((p: { id: string }) => p.id).filter((id: string) => id !== mine),
      }).toEqual({ query, status: 200, ids: [] });
    }
    const named = await asLimited(`/api/v1/posts?profileId=${profileOf('facebook')}`);
    expect(codeOf(named)).toBe('403 profile_scope_denied');
  });

  test("when the key pages on from a cursor naming another profile's post, then the answer is the one for a post that does not exist", async () => {
    const [other, none] = [
      await asLimited(`/api/v1/posts?cursor=${cursorAfter(theirs)}`),
      await asLimited(`/api/v1/posts?cursor=${cursorAfter(missingId('pst'))}`),
    ];
    expect(other.status).toBe(200);
    expect(other.body).toEqual(none.body);
  });

  test("when the key reads the account summary and analytics, then only its profile's posts are counted", async () => {
    const summary = await asLimited('/api/v1/account');
    expect(summary.status).toBe(200);
    expect(summary.body.posts).toMatchObject({
      total: 1,
      byStatus: expect.objectContaining({ scheduled: 1, draft: 0 }),
    });
    expect((await asOwner('/api/v1/account')).body.posts.total).toBe(3);

    const range = `from=${encodeURIComponent(inHours(-1))}&to=${encodeURIComponent(inHours(72))}`;
    const figures = await asLimited(`/api/v1/analytics?${range}&groupBy=profile`);
    expect(figures.status).toBe(200);
    expect(figures.body.totals.scheduled).toBe(1);
    expect(figures.body.groups.map((g: { key: string }) => g.key)).toEqual([profileOf('threads')]);
    expect((await asOwner(`/api/v1/analytics?${range}`)).body.totals.scheduled).toBe(2);
  });

  test("when the key calls any webhook route, then 403 profile_scope_denied (webhooks carry every profile's events), and nothing changes", async () => {
    const values: Record<string, string> = { id: webhookId, deliveryId: missingId('msg') };
    const samples: Record<string, unknown> = {
      createWebhook: { url: 'http://127.0.0.1:9/other', events: ['post.failed'] },
      updateWebhook: { description: 'taken over' },
    };
    for (const route of Object.values(WebhookRoutes) as RouteDef[]) {
      const path = fillPath(route, Object.fromEntries(pathParams(route).map((p) => [p, values[p]])));
      const r = await asLimited(path, { method: route.method.toUpperCase(), body: samples[route.id] });
      expect({ route: route.id, answer: codeOf(r) }).toEqual({ route: route.id, answer: '403 profile_scope_denied' });
    }
    const hooks = await asOwner('/api/v1/webhooks');
    expect(hooks.body.data).toEqual([expect.objectContaining({ id: webhookId, description: null, status: 'enabled' })]);
  });
});

describe('tools: another profile of the same account', () => {
  test("when the key reads, changes, cancels or sends for approval another profile's post, then post_not_found exactly as for a missing post", async () => {
    const missing = missingId('pst');
    const calls: [string, Record<string, unknown>, string][] = [
      ['svc_get_post_status', {}, theirs],
      ['svc_update_scheduled_post', { caption: 'taken over' }, theirs],
      ['svc_delete_scheduled_post', {}, theirs],
      ['svc_request_post_approval', {}, theirDraft],
      ['svc_get_post_approval_status', {}, theirDraft],
    ];
    for (const [name, args, target] of calls) {
      const [other, none] = [
        await tool(name, { ...args, postId: target }),
        await tool(name, { ...args, postId: missing }),
      ];
      expect({ name, outcome: toolOutcome(other) }).toEqual({ name, outcome: 'error post_not_found' });
      expect({ name, outcome: toolOutcome(other) }).toEqual({ name, outcome: toolOutcome(none) });
    }
    expect((await asOwner(`/api/v1/posts/${theirs}`)).body).toMatchObject({
      status: 'scheduled',
      caption: 'on another profile',
    });
    expect((await asOwner(`/api/v1/posts/${theirDraft}`)).body).toMatchObject({ status: 'draft' });
  });

  test("when the key lists posts, reads the account summary or analytics, then another profile's posts are neither listed nor counted", async () => {
    const listed = await tool('svc_list_scheduled_posts', {});
    expect(listed.message.result.structuredContent.data.map((p: { id: string }) => p.id)).toEqual([mine]);
    const named = await tool('svc_list_scheduled_posts', { profileId: profileOf('facebook') });
    expect(toolOutcome(named)).toBe('error profile_scope_denied');
    const summary = await tool('svc_get_account_summary', {});
    expect(summary.message.result.structuredContent.posts.total).toBe(1);
    const figures = await tool('svc_get_analytics', { from: inHours(-1), to: inHours(72) });
    expect(figures.message.result.structuredContent.totals.scheduled).toBe(1);
  });
});
