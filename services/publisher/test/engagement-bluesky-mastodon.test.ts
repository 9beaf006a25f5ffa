import type { Credentials } from '@postbus/contracts';
import {
  createBlueskyPost,
  createBlueskySession,
  createMastodonStatus,
  getBlueskyEngagement,
  getMastodonEngagement,
  isPlatformError,
  mastodonUserId,
  newTid,
  type PlatformError,
} from '@postbus/platforms';
import { startSandbox, type RunningSandbox } from '@postbus/sandbox';
import { callSandbox } from '@postbus/testing';
import { readEngagement, type CollectPorts } from '../src/insights/collect-engagement.use-case';
import type { DueCollection } from '../src/insights/engagement.repository';
import { fediverseReaders } from './support/fediverse-readers';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0 });
});
afterAll(async () => {
  await sandbox?.close();
});

const control = async (method: string, path: string, body?: unknown) =>
  (await callSandbox<any>(sandbox.url, method, path, body)).body;

const readers = () =>
  fediverseReaders({
    blueskyAppViewUrl: `${sandbox.url}/bluesky`,
    mastodonInstanceUrl: `${sandbox.url}/mastodon/{instance}`,
    timeoutMs: 5_000,
  });

interface Received {
  method: string;
  path: string;
  query: Record<string, string>;
  authScheme: string | null;
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: unknown) => err as PlatformError,
  );

/** A Bluesky post published on the sandbox's PDS, and the account's credentials as connections keeps them. */
async function blueskyPost(handle: string): Promise<{ uri: string; creds: Credentials }> {
  const user = await control('POST', '/users', { platform: 'bluesky', handle });
  const pds = { serviceUrl: `${sandbox.url}/bluesky` };
  const session = await createBlueskySession(pds, user.handle, user.accessToken);
  const { uri } = await createBlueskyPost({ ...pds, accessJwt: session.accessJwt }, session.did, newTid(), {
    text: 'Counting on it',
  });
  const creds = {
    profileId: 'prf_sky',
    platform: 'bluesky',
    platformUserId: session.did,
    handle: session.handle,
    accessToken: session.accessJwt,
    status: 'active',
  } as Credentials;
  return { uri, creds };
}

/** A Mastodon status published on one of the sandbox's instances, and the profile's credentials. */
async function mastodonStatus(handle: string, instance: string): Promise<{ id: string; creds: Credentials }> {
  const user = await control('POST', '/users', { platform: 'mastodon', handle, instance });
  const api = {
    instances: { baseUrlTemplate: `${sandbox.url}/mastodon/{instance}` },
    instance,
    accessToken: user.accessToken,
  };
  const status = await createMastodonStatus(api, `key-${handle}`, { status: 'Counting on it' });
  const creds = {
    profileId: 'prf_toot',
    platform: 'mastodon',
    platformUserId: mastodonUserId(instance, user.userId),
    handle: user.handle,
    accessToken: user.accessToken,
    status: 'active',
  } as Credentials;
  return { id: status.id, creds };
}

describe('Bluesky engagement from the AppView', () => {
  test('when a post has likes, replies and reposts, then the reader answers them as likes, comments and shares, with no views', async () => {
    const { uri, creds } = await blueskyPost('sky_counted');
    await control('POST', '/insights', { platform: 'bluesky', id: uri, likes: 41, comments: 7, shares: 5 });

    expect(await readers().bluesky(creds, uri)).toEqual({ views: null, likes: 41, comments: 7, shares: 5 });
    const requests = (await control('GET', '/requests?platform=bluesky')) as Received[];
    const read = requests.filter((r) => r.path === '/bluesky/xrpc/app.bsky.feed.getPosts');
    expect(read.map((r) => [r.query.uris, r.authScheme])).toEqual([[uri, null]]);
  });

  test('when the post is not on the AppView any more, then the error is definitive and says it is not listed', async () => {
    const { uri } = await blueskyPost('sky_gone');
    const missing = uri.replace(/[^/]+$/, newTid());
    const err = await failure(getBlueskyEngagement({ appViewUrl: `${sandbox.url}/bluesky` }, missing));
    expect(isPlatformError(err)).toBe(true);
    expect(err).toMatchObject({ platform: 'bluesky', transient: false, code: 'not_listed' });
    expect(err!.message).toMatch(/not listed any more/);
  });

  test('when the AppView rate limits, then the error may pass and carries when to try again', async () => {
    const { uri } = await blueskyPost('sky_throttled');
    await control('POST', '/faults', { platform: 'bluesky', mode: 'throttle', operation: 'read', count: 1 });
    const err = await failure(getBlueskyEngagement({ appViewUrl: `${sandbox.url}/bluesky` }, uri));
    expect(err).toMatchObject({ platform: 'bluesky', transient: true, status: 429 });
    expect(err!.retryAfterMs).toBeGreaterThan(0);
  });

  test('when more than 25 posts or no posts are asked for, then the AppView refuses the call', async () => {
    const url = `${sandbox.url}/bluesky/xrpc/app.bsky.feed.getPosts`;
    const many = new URLSearchParams(
      Array.from({ length: 26 }, (_, i): [string, string] => ['uris', `at://did:plc:x/app.bsky.feed.post/${i}`]),
    );
    const none = await fetch(url);
    const tooMany = await fetch(`${url}?${many.toString()}`);
    expect([none.status, tooMany.status]).toEqual([400, 400]);
    expect(((await tooMany.json()) as { error: string }).error).toBe('InvalidRequest');
  });
});

describe("Mastodon engagement from the account's instance", () => {
  test('when a status has favourites, replies and boosts, then the reader answers them as likes, comments and shares, with no views', async () => {
    const { id, creds } = await mastodonStatus('toot_counted', 'counts.example');
    await control('POST', '/insights', { platform: 'mastodon', id, likes: 12, comments: 3, shares: 9 });

    expect(await readers().mastodon(creds, id)).toEqual({ views: null, likes: 12, comments: 3, shares: 9 });
    const requests = (await control('GET', '/requests?platform=mastodon')) as Received[];
    const read = requests.filter((r) => r.path === `/mastodon/counts.example/api/v1/statuses/${id}`);
    expect(read.map((r) => [r.method, r.authScheme])).toEqual([['GET', 'Bearer']]);
  });

  test('when the status is gone, then the error is definitive and says it is not listed', async () => {
    const { creds } = await mastodonStatus('toot_gone', 'gone.example');
    const err = await failure(readers().mastodon(creds, '999999'));
    expect(err).toMatchObject({ platform: 'mastodon', transient: false, code: 'not_listed' });
  });

  test('when the token is not valid any more, then the error says the token was refused', async () => {
    const { id, creds } = await mastodonStatus('toot_revoked', 'revoked.example');
    const err = await failure(readers().mastodon({ ...creds, accessToken: 'not-a-token' }, id));
    expect(err).toMatchObject({ platform: 'mastodon', transient: false, tokenRejected: true });
  });

  test('when the instance rate limits, then the error may pass and carries when to try again', async () => {
    const { id } = await mastodonStatus('toot_throttled', 'throttled.example');
    await control('POST', '/faults', { platform: 'mastodon', mode: 'throttle', operation: 'read', count: 1 });
    const api = { instances: { baseUrlTemplate: `${sandbox.url}/mastodon/{instance}` }, instance: 'throttled.example' };
    const err = await failure(getMastodonEngagement(api, id));
    expect(err).toMatchObject({ platform: 'mastodon', transient: true, status: 429 });
    expect(err!.retryAfterMs).toBeGreaterThan(0);
  });
});

describe('the collector over these readers', () => {
  const due = (platform: string, platformPostId: string): DueCollection => ({
    postId: 'pst_1',
    accountId: 'acc_1',
    profileId: 'prf_1',
    platform,
    platformPostId,
    stage: 0,
  });
  const ports = (creds: Credentials): CollectPorts =>
    ({
      readers: readers(),
      credentials: async () => creds,
      logger: undefined,
      engagement: undefined,
    }) as unknown as CollectPorts;

  test('when a read is rate limited, then it is retried; when the item is gone, then that is kept as the outcome', async () => {
    const { uri, creds } = await blueskyPost('sky_collected');
    await control('POST', '/faults', { platform: 'bluesky', mode: 'throttle', operation: 'read', count: 1 });
    const throttled = await readEngagement(ports(creds), due('bluesky', uri));
    const read = await readEngagement(ports(creds), due('bluesky', uri));
    const gone = await readEngagement(ports(creds), due('bluesky', uri.replace(/[^/]+$/, newTid())));

    expect(throttled).toEqual({ retry: expect.stringMatching(/rate limiting/) });
    expect(read).toEqual({ figures: expect.objectContaining({ views: null }) });
    expect(gone).toEqual({ error: expect.stringMatching(/not listed any more/) });
  });
});
