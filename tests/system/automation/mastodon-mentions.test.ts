import { Rpc } from '@postbus/contracts';
import { callSandbox, waitFor, type SeededAccount } from '@postbus/testing';
import { useSystem } from '../support/use-system';
import { apiClient, settledActivity } from './harness';

const ctx = useSystem('automation_mastodon', {
  env: { AUTOMATION_POLL_MS: '150', AUTOMATION_RETRY_DELAYS_MS: '100,200' },
  db: true,
});
let api: ReturnType<typeof apiClient>;
beforeAll(() => {
  api = apiClient(ctx.system);
});

const sandbox = (method: string, path: string, body?: unknown) =>
  callSandbox<any>(ctx.system.sandboxUrl, method, path, body);

/** An account with a Mastodon profile, a status of its own and the template given. */
async function aMastodonAccountWith(rules: unknown[], opts: { enabled?: boolean } = {}) {
  const account = await ctx.system.seedAccount({ platforms: ['mastodon'] });
  const [profile] = account.profiles;
  const creds = await ctx.system.bus.rpc.call(Rpc.connectionsGetCredentials, {
    profileId: profile.id,
    accountId: account.accountId,
  });
  const [userId, instance] = creds.platformUserId.split('@');
  // https://docs.joinmastodon.org/methods/statuses/#create: the profile's own status, answered below.
  const posted = await fetch(`${ctx.system.sandboxUrl}/mastodon/${instance}/api/v1/statuses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${creds.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'New prints are in the shop' }),
  });
  const status = (await posted.json()) as { id: string };
  const res = await api('/api/v1/automation/template', {
    method: 'PUT',
    key: account.apiKey,
    body: { version: 1, enabled: opts.enabled, rules },
  });
  if (res.status !== 200) throw new Error(`template refused: ${JSON.stringify(res.body)}`);
  return { account, profile, userId, statusId: status.id };
}

const mention = async (userId: string, text: string, opts: { replyTo?: boolean; statusId?: string } = {}) => {
  const res = await sandbox('POST', '/mastodon/mentions', { userId, text, ...opts, from: { username: 'ana' } });
  if (res.status !== 201) throw new Error(`the sandbox refused a mention: ${JSON.stringify(res.body)}`);
  return res.body as { notificationId: string; statusId: string };
};
const repliesTo = async (statusId: string) =>
  (await sandbox('GET', `/mastodon/replies?statusId=${statusId}`)).body as { id: string; text: string }[];
const cursorOf = async (profileId: string) =>
  (await ctx.db.query('SELECT * FROM automation.poll_cursors WHERE profile_id = $1', [profileId])).rows[0];
const activityOf = async (account: SeededAccount, commentId: string) =>
  (await api(`/api/v1/automation/activity?commentId=${commentId}`, { key: account.apiKey })).body.data;

const priceRule = {
  id: 'price',
  platforms: ['mastodon'],
  trigger: { match: 'any', keywords: ['price'] },
  action: { type: 'reply', text: 'Hi {name}, prices are on the shop page.' },
};

describe('Mastodon mentions read by polling', () => {
  test('when a mention answers the profile’s status, then the template’s reply is posted under it once', async () => {
    const { account, profile, userId } = await aMastodonAccountWith([priceRule]);
    const m = await mention(userId, 'what is the price?');
    const entry = await settledActivity(api, account.apiKey, m.statusId, 'the mention to be answered');
    expect(entry).toMatchObject({
      profileId: profile.id,
      platform: 'mastodon',
      outcome: 'replied',
      reason: 'matched',
      commenter: expect.objectContaining({ name: 'ana@elsewhere.example' }),
      replyText: 'Hi ana@elsewhere.example, prices are on the shop page.',
    });
    const replies = await repliesTo(m.statusId);
    expect(replies).toEqual([expect.objectContaining({ id: entry.replyId, text: entry.replyText })]);
    // Later reads move past the mention: it is stored once and answered once.
    const polledAt = (await cursorOf(profile.id)).polled_at as Date;
    await waitFor(async () => ((await cursorOf(profile.id)).polled_at > polledAt ? true : undefined), {
      timeoutMs: 10_000,
      what: 'another read of the profile',
    });
    expect(await repliesTo(m.statusId)).toHaveLength(1);
    expect(
      Number(
        (await ctx.db.query('SELECT count(*) FROM automation.comments WHERE comment_id = $1', [m.statusId])).rows[0]
          .count,
      ),
    ).toBe(1);
    expect(await activityOf(account, m.statusId)).toHaveLength(1);
  });

  test('when a mention answers no status of the profile, then it is not stored and nothing replies', async () => {
    const { account, profile, userId } = await aMastodonAccountWith([priceRule]);
    const ignored = await mention(userId, 'price? just saying hi', { replyTo: false });
    // A reply in another account's thread that mentions the profile answers none of its statuses.
    const elsewhere = await aMastodonAccountWith([], { enabled: false });
    const inOtherThread = await mention(userId, 'price? over here', { statusId: elsewhere.statusId });
    const answered = await mention(userId, 'and the price?');
    await settledActivity(api, account.apiKey, answered.statusId, 'the later reply to be answered');
    expect((await cursorOf(profile.id)).cursor).not.toBeNull();
    expect(await activityOf(account, ignored.statusId)).toEqual([]);
    expect(await activityOf(account, inOtherThread.statusId)).toEqual([]);
    expect(await repliesTo(inOtherThread.statusId)).toEqual([]);
    expect(await repliesTo(ignored.statusId)).toEqual([]);
    expect(
      Number(
        (await ctx.db.query('SELECT count(*) FROM automation.comments WHERE comment_id = $1', [ignored.statusId]))
          .rows[0].count,
      ),
    ).toBe(0);
  });

  test('when the profile’s token is revoked, then its mentions are not read and the reason is recorded', async () => {
    const { account, profile, userId } = await aMastodonAccountWith([priceRule]);
    const revoked = await sandbox('POST', `/users/${userId}/revoke`);
    expect(revoked.status).toBe(200);
    const m = await mention(userId, 'price please');
    const row = await waitFor(
      async () => {
        const r = await cursorOf(profile.id);
        return r?.skipped_reason ? r : undefined;
      },
      { timeoutMs: 10_000, what: 'the revoked token to be recorded' },
    );
    expect(row).toMatchObject({ skipped_reason: 'token_revoked', platform: 'mastodon' });
    expect(row.skipped_detail).toMatch(/refused the access token/);
    expect(await activityOf(account, m.statusId)).toEqual([]);
  });

  test('when the template is disabled, then the profile is not read', async () => {
    const { account, profile, userId } = await aMastodonAccountWith([priceRule], { enabled: false });
    const unread = await mention(userId, 'price?');
    // A second account read after this one shows a tick went by.
    const other = await aMastodonAccountWith([priceRule]);
    const m = await mention(other.userId, 'price?');
    await settledActivity(api, other.account.apiKey, m.statusId, 'the other account to be answered');
    expect(await cursorOf(profile.id)).toBeUndefined();
    expect(await activityOf(account, unread.statusId)).toEqual([]);
  });

  test('when the instance throttles a read, then that profile rests until the time it names and says why', async () => {
    await aMastodonAccountWith([priceRule]);
    const queued = await sandbox('POST', '/faults', { platform: 'mastodon', mode: 'throttle', operation: 'read' });
    expect(queued.status).toBeLessThan(300);
    const row = await waitFor(
      async () =>
        (await ctx.db.query("SELECT * FROM automation.poll_cursors WHERE skipped_reason = 'rate_limited'")).rows[0] as
          Record<string, any> | undefined,
      { timeoutMs: 10_000, what: 'a throttled read to be recorded' },
    );
    expect(row.skipped_detail).toMatch(/rate limiting/);
    // The sandbox names a reset five minutes on: the profile is not read before then.
    expect(row.backoff_until.getTime() - row.polled_at.getTime()).toBeGreaterThan(60_000);
    // Other profiles are still read: a later account's mention is answered meanwhile.
    const later = await aMastodonAccountWith([priceRule]);
    const m = await mention(later.userId, 'price?');
    await settledActivity(api, later.account.apiKey, m.statusId, 'a later account to be answered');
    const again = (
      await ctx.db.query('SELECT polled_at FROM automation.poll_cursors WHERE profile_id = $1', [row.profile_id])
    ).rows[0];
    expect(again.polled_at).toEqual(row.polled_at);
  });
});
