import { Rpc } from '@postbus/contracts';
import { sandboxControl, type PublisherHarness, type SandboxProfile } from './harness';

/** A Bluesky profile as connections holds one: the account's DID and handle, and a session made with its app password on the sandbox's PDS. */
export async function blueskyProfile(h: PublisherHarness, handle: string): Promise<SandboxProfile & { did: string }> {
  const user = (await sandboxControl(h.sandbox, 'POST', '/users', { platform: 'bluesky', handle })).body as {
    userId: string;
    accessToken: string;
  };
  const res = await fetch(`${h.sandbox.url}/bluesky/xrpc/com.atproto.server.createSession`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: handle, password: user.accessToken }),
  });
  const session = (await res.json()) as { did: string; handle: string; accessJwt: string };
  const profile = await h.bus.rpc.call(Rpc.connectionsSeedProfile, {
    accountId: h.accountId,
    platform: 'bluesky',
    platformUserId: session.did,
    handle: session.handle,
    accessToken: session.accessJwt,
  });
  return {
    profileId: profile.id,
    userId: user.userId,
    accessToken: session.accessJwt,
    handle: session.handle,
    platform: 'bluesky',
    did: session.did,
  };
}
