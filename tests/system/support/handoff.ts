import { Rpc } from '@postbus/contracts';
import { callSandbox, hiddenFields, Visitor, type SeededAccount } from '@postbus/testing';
import { api, type ApiAnswer } from './posts-api';
import type { RunningSystem } from './system';

/** What the connections tests share: the REST API, the sandbox's controls, and the handoff walked over plain HTTP. */

export { api, hiddenFields, Visitor, type ApiAnswer };

export function sandboxControl(
  system: RunningSystem,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiAnswer> {
  return callSandbox<any>(system.sandboxUrl, method, path, body);
}

/** A user on the emulated platform (a Page on Facebook, a channel on YouTube). */
export async function platformUser(
  system: RunningSystem,
  platform: string,
  handle: string,
): Promise<{ userId: string; accessToken: string; handle: string }> {
  const res = await sandboxControl(system, 'POST', '/users', { platform, handle });
  if (res.status !== 201) throw new Error(`sandbox user: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function newConnectUrl(
  system: RunningSystem,
  key: string,
  platform: string,
): Promise<{ requestId: string; connectUrl: string; expiresAt: string }> {
  const res = await api(system, '/api/v1/connections', { method: 'POST', key, body: { platform } });
  if (res.status !== 201) throw new Error(`connection request: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A new sandbox Bluesky account connected through the handoff page with its app password: the profile connections stores. */
export async function connectBlueskyAppPassword(
  system: RunningSystem,
  key: string,
  handle: string,
): Promise<{ id: string; handle: string }> {
  const user = await platformUser(system, 'bluesky', handle);
  const link = await newConnectUrl(system, key, 'bluesky');
  const visitor = new Visitor();
  const landing = await visitor.get(link.connectUrl);
  const answer = await visitor.post(link.connectUrl, {
    ...hiddenFields(landing.html),
    // The sandbox's Bluesky handles are `{name}.bsky.social`, underscores as hyphens.
    identifier: `${handle.replace(/_/g, '-')}.bsky.social`,
    appPassword: user.accessToken,
  });
  const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key });
  if (answer.status !== 200 || state.body.status !== 'completed')
    throw new Error(`Bluesky connection did not complete: ${answer.status} ${JSON.stringify(state.body)}`);
  const listed = await api(system, '/api/v1/connections', { key });
  const profile = (listed.body.accounts as { id: string; handle: string }[]).find((a) => a.id === state.body.profileId);
  return { id: state.body.profileId, handle: profile!.handle };
}

export interface HandoffChoice {
  /** Sandbox user ids to grant, or 'new' (with `handle`). */
  accounts?: string[];
  handle?: string;
  decision?: 'approve' | 'deny';
  /** With several accounts granted: the platform user id picked on the choice page. */
  choose?: string;
  /** The scopes the person grants, when fewer than the app asked for (the consent form's `scope`). */
  scope?: string;
}

/**
 * Opens the link, continues to the platform, answers its consent page and follows the redirect
 * back, like a browser. Answers the final page, and the callback URL for replay tests.
 */
export async function walkHandoff(
  connectUrl: string,
  choice: HandoffChoice = {},
  visitor = new Visitor(),
): Promise<{ status: number; html: string; callbackUrl: string; visitor: Visitor }> {
  const landing = await visitor.get(connectUrl);
  if (landing.status !== 200) throw new Error(`landing page answered ${landing.status}: ${landing.html}`);
  const go = await visitor.post(connectUrl, hiddenFields(landing.html));
  if (go.status !== 303 || !go.location) throw new Error(`continue answered ${go.status}: ${go.html}`);
  const consent = await visitor.get(go.location);
  const fields: Record<string, string | string[]> = {
    ...hiddenFields(consent.html),
    account: choice.accounts ?? ['new'],
    handle: choice.handle ?? `acct_${Math.random().toString(36).slice(2, 8)}`,
    decision: choice.decision ?? 'approve',
    ...(choice.scope !== undefined && { scope: choice.scope }),
  };
  const decided = await visitor.post(go.location, fields);
  if (decided.status !== 303 || !decided.location)
    throw new Error(`consent answered ${decided.status}: ${decided.html}`);
  let final = await visitor.get(decided.location);
  if (choice.choose) {
    const form = hiddenFields(final.html);
    final = await visitor.post(
      new URL(`${new URL(decided.location).pathname.split('/').pop()}/choose`, decided.location).toString(),
      { ...form, account: choice.choose },
    );
  }
  return { status: final.status, html: final.html, callbackUrl: decided.location, visitor };
}

/** Every token the sandbox's authorization servers handed out. */
export async function issuedTokens(system: RunningSystem): Promise<string[]> {
  const res = await sandboxControl(system, 'GET', '/oauth/tokens');
  return (res.body.tokens as { token: string }[]).map((t) => t.token);
}

/** Whether the platform (its emulator in the sandbox) accepts this access token for a read of its user. */
export async function platformAccepts(system: RunningSystem, platform: string, token: string): Promise<boolean> {
  const paths: Record<string, string> = {
    tiktok: '/tiktok/v2/user/info/?fields=open_id',
    youtube: '/youtube/v3/channels?part=snippet&mine=true',
    threads: '/threads/v1.0/me?fields=id',
    instagram: '/instagram/me?fields=user_id',
  };
  const res = await fetch(`${system.sandboxUrl}${paths[platform]}`, { headers: { authorization: `Bearer ${token}` } });
  return res.status === 200;
}

/** Connects a profile through the whole handoff; answers its id and the final page. */
export async function connectProfile(
  system: RunningSystem,
  key: string,
  platform: string,
  choice: HandoffChoice = {},
): Promise<{ profileId: string; html: string }> {
  const link = await newConnectUrl(system, key, platform);
  const page = await walkHandoff(link.connectUrl, choice);
  const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key });
  if (state.body.status !== 'completed')
    throw new Error(`connection did not complete: ${JSON.stringify(state.body)} ${page.html}`);
  return { profileId: state.body.profileId, html: page.html };
}

/**
 * The calls on one account's profiles the connections tests make, bound to the account of `ctx` (read
 * when called, so `ctx` may be filled in later, as useSystem does).
 */
export function profileCalls(ctx: { system: RunningSystem; account: SeededAccount }) {
  return {
    refresh: (profileId: string) => refreshCredentials(ctx.system, ctx.account, profileId),
    credentials: (profileId: string) => credentialsOf(ctx.system, ctx.account, profileId),
    listed: (profileId: string) => listedProfile(ctx.system, ctx.account, profileId),
  };
}

/** A forced refresh of a profile's token, as publisher asks for it. */
export function refreshCredentials(system: RunningSystem, account: SeededAccount, profileId: string) {
  return system.bus.rpc.call(Rpc.connectionsRefreshCredentials, { profileId, accountId: account.accountId });
}

/** A profile's credentials, as publisher reads them. */
export function credentialsOf(system: RunningSystem, account: SeededAccount, profileId: string) {
  return system.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId: account.accountId });
}

/** A profile's entry in the account's connection list (GET /api/v1/connections). */
export async function listedProfile(system: RunningSystem, account: SeededAccount, profileId: string) {
  const res = await api(system, '/api/v1/connections', { key: account.apiKey });
  return res.body.accounts.find((a: { id: string }) => a.id === profileId);
}
