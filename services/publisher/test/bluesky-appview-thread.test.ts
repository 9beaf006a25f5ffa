import { createBlueskySession, createBlueskyPost, newTid, type BlueskySession } from '@postbus/platforms';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import type { AdapterConfig } from '../src/publishing/adapters/adapter-config';
import type { FollowUpContext, FollowUpProgress } from '../src/publishing/adapters/platform-adapter';
import { blueskyFollowUps } from '../src/publishing/follow-ups/bluesky-follow-ups';
import { startReferenceAppView, type ReferenceAppView } from './support/reference-appview';

/**
 * Against Bluesky's whole reference network (@atproto/dev-env TestNetwork: the PDS and the bsky
 * AppView, on the Node.js 22 of tests/atproto, the AppView's database in our test PostgreSQL): a
 * first comment and a chain sent by the publisher read back as one thread from getPostThread.
 */
let env: TestEnv;
let network: ReferenceAppView;
let session: BlueskySession;

beforeAll(async () => {
  env = await createTestEnv('bsky_appview');
  network = await startReferenceAppView(env.databaseUrl, ['alice']);
  session = await createBlueskySession(
    { serviceUrl: network.pdsUrl },
    network.accounts[0].handle,
    network.accounts[0].appPassword,
  );
}, 600_000);

afterAll(async () => {
  await network?.stop();
  await env?.drop();
});

/** What run-follow-ups hands a sender for one step, its progress kept in memory. */
function stepContext(postId: string, parentId: string, text: string): FollowUpContext {
  const ctx: FollowUpContext = {
    creds: {
      profileId: 'prf_x',
      platform: 'bluesky',
      platformUserId: session.did,
      handle: session.handle,
      accessToken: session.accessJwt,
      status: 'active',
    },
    postId,
    parentId,
    text,
    progress: {},
    save: async (progress: FollowUpProgress) => void (ctx.progress = progress),
  };
  return ctx;
}

interface ThreadView {
  post: { uri: string; record: { text: string } };
  replies?: ThreadView[];
}

test('when a post gets a first comment and a two-part chain, then getPostThread reads them back as one thread under the post', async () => {
  const sender = blueskyFollowUps({ blueskyServiceUrl: network.pdsUrl, requestTimeoutMs: 10_000 } as AdapterConfig);
  const root = await createBlueskyPost(
    { serviceUrl: network.pdsUrl, accessJwt: session.accessJwt },
    session.did,
    newTid(),
    {
      text: 'The post',
    },
  );
  const comment = await sender.send(stepContext(root.uri, root.uri, 'First comment'));
  const two = await sender.send(stepContext(root.uri, root.uri, 'Part two'));
  const twoId = two.kind === 'sent' ? two.id : '';
  const three = await sender.send(stepContext(root.uri, twoId, 'Part three'));

  expect(await network.sync()).toEqual({ synced: true });
  // https://docs.bsky.app/docs/api/app-bsky-feed-get-post-thread
  const res = await fetch(`${network.appViewUrl}/xrpc/app.bsky.feed.getPostThread?uri=${encodeURIComponent(root.uri)}`);
  const { thread } = (await res.json()) as { thread: ThreadView };
  const shape = (t: ThreadView): unknown => [
    t.post.record.text,
    (t.replies ?? []).map(shape).sort((a, b) => String(a).localeCompare(String(b))),
  ];

  expect(res.status).toBe(200);
  expect(shape(thread)).toEqual([
    'The post',
    [
      ['First comment', []],
      ['Part two', [['Part three', []]]],
    ],
  ]);
  const ids = (t: ThreadView): string[] => [t.post.uri, ...(t.replies ?? []).flatMap(ids)];
  expect(new Set(ids(thread))).toEqual(
    new Set([root.uri, ...[comment, two, three].map((s) => (s.kind === 'sent' ? s.id : ''))]),
  );
});
