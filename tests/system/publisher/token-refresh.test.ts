import { calls, callSandbox, FAST_PUBLISHER_ENV, waitFor } from '@postbus/testing';
import { auditTikTok, useSystem } from '../support/use-system';
import { connectProfile, platformAccepts } from '../support/handoff';

const ctx = useSystem('pub_token_refresh', {
  env: { ...FAST_PUBLISHER_ENV, TOKEN_REFRESH_DEDUP_MS: '0', TOKEN_REFRESH_INTERVAL_MS: '3600000' },
  // An audited TikTok client: these posts ask for PUBLIC_TO_EVERYONE.
  prepare: auditTikTok,
  account: { platforms: [] },
  mediaServer: true,
  db: true,
});

const sandbox = async (method: string, path: string, body?: unknown) =>
  (await callSandbox<any>(ctx.system.sandboxUrl, method, path, body)).body;

/** A TikTok profile connected through OAuth whose access token has already expired at TikTok (its refresh token is fine). */
async function profileWithExpiredToken(handle: string): Promise<{ profileId: string; userId: string }> {
  await sandbox('POST', '/oauth/settings', { platform: 'tiktok', accessTokenTtlSec: 1 });
  let profileId: string;
  try {
    ({ profileId } = await connectProfile(ctx.system, ctx.account.apiKey, 'tiktok', { handle }));
  } finally {
    await sandbox('POST', '/oauth/settings', { platform: 'tiktok', accessTokenTtlSec: 7200 });
  }
  const { token } = (await sandbox('GET', '/oauth/tokens?platform=tiktok')).tokens
    .filter((t: { kind: string }) => t.kind === 'access')
    .at(-1);
  await waitFor(async () => ((await platformAccepts(ctx.system, 'tiktok', token)) ? undefined : true), {
    what: 'the token to expire',
  });
  const userId = (await sandbox('GET', '/oauth/tokens?platform=tiktok')).tokens.at(-1).userId;
  return { profileId: profileId!, userId };
}

async function accessTokensIssuedTo(userId: string): Promise<number> {
  return (await sandbox('GET', '/oauth/tokens?platform=tiktok')).tokens.filter(
    (t: { kind: string; userId: string }) => t.kind === 'access' && t.userId === userId,
  ).length;
}

async function publishAndWait(profileId: string): Promise<{ status: string; failedReason: string | null; id: string }> {
  const res = await fetch(`${ctx.system.baseUrl}/api/v1/publish`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.account.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      platforms: ['tiktok'],
      profileIds: [profileId],
      title: 'Refreshed',
      caption: 'Token refresh',
      mediaUrls: [ctx.media.link('v.mp4', 2000)],
      platformMeta: { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
    }),
  });
  const created = (await res.json()) as { postIds: string[] };
  if (res.status !== 201) throw new Error(`publish answered ${res.status}: ${JSON.stringify(created)}`);
  return waitFor(
    async () => {
      const post = (await (
        await fetch(`${ctx.system.baseUrl}/api/v1/posts/${created.postIds[0]}`, {
          headers: { authorization: `Bearer ${ctx.account.apiKey}` },
        })
      ).json()) as { status: string; failedReason: string | null; id: string };
      return post.status === 'scheduled' ? undefined : post;
    },
    { timeoutMs: 20_000, what: 'the post to leave scheduled' },
  );
}

const lastSeq = async (): Promise<number> =>
  ((await sandbox('GET', '/requests')) as { seq: number }[]).at(-1)?.seq ?? 0;

describe('an access token the platform refuses', () => {
  test('when the token has expired, then it is refreshed once through connections and the call is tried again: posted', async () => {
    const { profileId, userId } = await profileWithExpiredToken('refresh_ok');
    const issued = await accessTokensIssuedTo(userId);
    const since = await lastSeq();

    const post = await publishAndWait(profileId);

    expect(post).toMatchObject({ status: 'posted', failedReason: null });
    expect(await accessTokensIssuedTo(userId)).toBe(issued + 1);
    const { lines } = await calls({ url: ctx.system.sandboxUrl }, 'tiktok', userId, since);
    expect(lines.filter((l) => l.endsWith('/creator_info/query/'))).toHaveLength(2);
    const [attempt] = (
      await ctx.db.query('SELECT tries, refreshed FROM publisher.attempts WHERE post_id = $1', [post.id])
    ).rows;
    expect(attempt).toEqual({ tries: 1, refreshed: true });
  });

  test('when connections cannot refresh it (the refresh token is refused), then the post fails saying to reconnect, without another call', async () => {
    const { profileId, userId } = await profileWithExpiredToken('refresh_refused');
    await sandbox('POST', '/oauth/faults', {
      platform: 'tiktok',
      operation: 'token',
      status: 400,
      error: 'invalid_grant',
    });
    const since = await lastSeq();

    const post = await publishAndWait(profileId);

    expect(post).toMatchObject({
      status: 'failed',
      failedReason: 'The TikTok access token is invalid or expired; reconnect the profile.',
    });
    const { lines } = await calls({ url: ctx.system.sandboxUrl }, 'tiktok', userId, since);
    expect(lines.filter((l) => l.endsWith('/creator_info/query/'))).toHaveLength(1);
  });

  test('when the refreshed token is refused as well, then there is no second refresh and the post fails', async () => {
    const { profileId, userId } = await profileWithExpiredToken('refresh_twice');
    const issued = await accessTokensIssuedTo(userId);
    // the fresh token works for the refresh itself, but the next creator_info is refused again
    await sandbox('POST', '/faults', {
      platform: 'tiktok',
      mode: 'error',
      operation: 'read',
      status: 401,
      reason: 'access_token_invalid',
    });

    const post = await publishAndWait(profileId);

    expect(post).toMatchObject({
      status: 'failed',
      failedReason: 'The TikTok access token is invalid or expired; reconnect the profile.',
    });
    expect(await accessTokensIssuedTo(userId)).toBe(issued + 1);
  });
});
