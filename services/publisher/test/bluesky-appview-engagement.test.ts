import type { Credentials } from '@postbus/contracts';
import { callXrpc, createBlueskyPost, createBlueskySession, newTid, type BlueskySession } from '@postbus/platforms';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { fediverseReaders } from './support/fediverse-readers';
import { startReferenceAppView, type ReferenceAppView } from './support/reference-appview';

/**
 * Against Bluesky's whole reference network (@atproto/dev-env TestNetwork: the PDS and the bsky
 * AppView, on the Node.js 22 of tests/atproto, the AppView's database in our test PostgreSQL): the
 * counts the publisher's Bluesky reader reads back from the AppView after another account acted.
 */
let env: TestEnv;
let network: ReferenceAppView;
let alice: BlueskySession;
let bob: BlueskySession;

beforeAll(async () => {
  env = await createTestEnv('bsky_engagement');
  network = await startReferenceAppView(env.databaseUrl, ['alice', 'bob']);
  [alice, bob] = await Promise.all(
    network.accounts.map((a) => createBlueskySession({ serviceUrl: network.pdsUrl }, a.handle, a.appPassword)),
  );
}, 600_000);

afterAll(async () => {
  await network?.stop();
  await env?.drop();
});

async function synced(): Promise<void> {
  expect(await network.sync()).toEqual({ synced: true });
}

const pds = (s: BlueskySession) => ({ serviceUrl: network.pdsUrl, accessJwt: s.accessJwt });

/** One record of `collection` in the account's repo (https://docs.bsky.app/docs/api/com-atproto-repo-create-record). */
const write = (s: BlueskySession, collection: string, record: Record<string, unknown>) =>
  callXrpc(pds(s), {
    method: 'POST',
    nsid: 'com.atproto.repo.createRecord',
    body: { repo: s.did, collection, record: { $type: collection, createdAt: new Date().toISOString(), ...record } },
  });

const reader = () =>
  fediverseReaders({
    blueskyAppViewUrl: network.appViewUrl,
    mastodonInstanceUrl: 'https://{instance}',
    timeoutMs: 10_000,
  }).bluesky;

const credsOf = (s: BlueskySession) =>
  ({
    profileId: 'prf_x',
    platform: 'bluesky',
    platformUserId: s.did,
    handle: s.handle,
    accessToken: s.accessJwt,
    status: 'active',
  }) as Credentials;

test('when another account likes, reposts, replies to and quotes a post, then the reader reads those counts back from the AppView', async () => {
  const post = await createBlueskyPost(pds(alice), alice.did, newTid(), { text: 'Counted by the AppView' });
  const subject = { uri: post.uri, cid: post.cid };
  await write(bob, 'app.bsky.feed.like', { subject });
  await write(bob, 'app.bsky.feed.repost', { subject });
  await write(bob, 'app.bsky.feed.post', { text: 'A reply', reply: { root: subject, parent: subject } });
  await write(bob, 'app.bsky.feed.post', {
    text: 'A quote',
    embed: { $type: 'app.bsky.embed.record', record: subject },
  });
  await synced();

  expect(await reader()(credsOf(alice), post.uri)).toEqual({ views: null, likes: 1, comments: 1, shares: 2 });
});

test('when the post was deleted, then the AppView leaves it out and the reader says it is not listed any more', async () => {
  const post = await createBlueskyPost(pds(alice), alice.did, newTid(), { text: 'Soon gone' });
  await synced();
  expect(await reader()(credsOf(alice), post.uri)).toEqual({ views: null, likes: 0, comments: 0, shares: 0 });

  // https://docs.bsky.app/docs/api/com-atproto-repo-delete-record
  await callXrpc(pds(alice), {
    method: 'POST',
    nsid: 'com.atproto.repo.deleteRecord',
    body: { repo: alice.did, collection: 'app.bsky.feed.post', rkey: post.rkey },
  });
  await synced();

  await expect(reader()(credsOf(alice), post.uri)).rejects.toMatchObject({
    platform: 'bluesky',
    transient: false,
    code: 'not_listed',
  });
});
