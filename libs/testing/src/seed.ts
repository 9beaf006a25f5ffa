import { Rpc, SCOPES } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';

export interface SeededAccount {
  accountId: string;
  userId: string;
  apiKey: string;
  keyId: string;
  profiles: { id: string; platform: string; handle: string }[];
}

/** Creates a sandbox user on the platform emulator and connects it to the account as a profile. */
export async function connectSandboxProfile(
  rpc: RpcClient,
  sandboxUrl: string,
  accountId: string,
  platform: string,
  handle: string,
) {
  const res = await fetch(`${sandboxUrl}/__sandbox/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform, handle }),
  });
  if (!res.ok) throw new Error(`sandbox refused a ${platform} user: ${res.status} ${await res.text()}`);
  const user = (await res.json()) as { userId: string; accessToken: string; handle: string };
  if (platform === 'bluesky') {
    // A Bluesky profile holds a session, not the app password: sign in as the handoff page does (com.atproto.server.createSession).
    const signIn = await fetch(`${sandboxUrl}/bluesky/xrpc/com.atproto.server.createSession`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: user.handle, password: user.accessToken }),
    });
    if (!signIn.ok) throw new Error(`sandbox refused a Bluesky session: ${signIn.status} ${await signIn.text()}`);
    const session = (await signIn.json()) as { did: string; handle: string; accessJwt: string };
    return rpc.call(Rpc.connectionsSeedProfile, {
      accountId,
      platform,
      platformUserId: session.did,
      handle: session.handle,
      accessToken: session.accessJwt,
    });
  }
  if (platform === 'mastodon') {
    // A Mastodon profile names its instance: the id is `{accountId}@{instance}`, the handle `username@instance` (a sandbox user without one lives on mastodon.example).
    const [username, instance = 'mastodon.example'] = user.handle.split('@');
    return rpc.call(Rpc.connectionsSeedProfile, {
      accountId,
      platform,
      platformUserId: `${user.userId}@${instance}`,
      handle: `${username}@${instance}`,
      accessToken: user.accessToken,
      profileUrl: `https://${instance}/@${username}`,
    });
  }
  if (platform === 'linkedin') {
    // A LinkedIn profile is the author URN it posts as: the member's `urn:li:person:{id}`.
    return rpc.call(Rpc.connectionsSeedProfile, {
      accountId,
      platform,
      platformUserId: `urn:li:person:${user.userId}`,
      handle: user.handle,
      accessToken: user.accessToken,
    });
  }
  return rpc.call(Rpc.connectionsSeedProfile, {
    accountId,
    platform,
    platformUserId: user.userId,
    handle: user.handle,
    accessToken: user.accessToken,
  });
}

/** An account with an all-scopes key and one sandbox profile per named platform: what `npm start` prints and tests use. */
export async function seedAccount(
  rpc: RpcClient,
  sandboxUrl: string,
  opts: { email: string; platforms?: string[]; scopes?: string[]; plan?: string; tester?: boolean },
): Promise<SeededAccount> {
  const { accountId, userId } = await rpc.call(Rpc.authCreateAccount, {
    email: opts.email,
    plan: opts.plan,
    tester: opts.tester,
  });
  const { key, keyId } = await rpc.call(Rpc.authIssueKey, {
    accountId,
    userId,
    name: 'development',
    scopes: opts.scopes ?? [...SCOPES],
  });
  const profiles = [];
  for (const platform of opts.platforms ?? ['threads']) {
    const p = await connectSandboxProfile(
      rpc,
      sandboxUrl,
      accountId,
      platform,
      `${platform}_${accountId.slice(-6).toLowerCase()}`,
    );
    profiles.push({ id: p.id, platform: p.platform, handle: p.handle });
  }
  return { accountId, userId, apiKey: key, keyId, profiles };
}
