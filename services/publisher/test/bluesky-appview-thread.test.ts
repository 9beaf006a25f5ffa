import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { createBlueskySession, createBlueskyPost, newTid, type BlueskySession } from '@postbus/platforms';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import type { AdapterConfig } from '../src/publishing/adapters/adapter-config';
import type { FollowUpContext, FollowUpProgress } from '../src/publishing/adapters/platform-adapter';
import { blueskyFollowUps } from '../src/publishing/follow-ups/bluesky-follow-ups';

/**
 * Against Bluesky's whole reference network (@atproto/dev-env TestNetwork: the PDS and the bsky
 * AppView, on the Node.js 22 of tests/atproto, the AppView's database in our test PostgreSQL): a
 * first comment and a chain sent by the publisher read back as one thread from getPostThread.
 */
const ATPROTO = join(__dirname, '..', '..', '..', 'tests', 'atproto');

let env: TestEnv;
let network: ChildProcess;
let lines: Interface;
let pdsUrl: string;
let appViewUrl: string;
let session: BlueskySession;

beforeAll(async () => {
  const prepared = spawnSync(process.execPath, [join(ATPROTO, 'prepare.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (prepared.status !== 0) throw new Error('tests/atproto/prepare.mjs failed (see above)');
  env = await createTestEnv('bsky_appview');
  network = spawn(prepared.stdout.trim(), [join(ATPROTO, 'appview-server.mjs'), env.databaseUrl, 'alice'], {
    cwd: ATPROTO,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  lines = createInterface({ input: network.stdout! });
  const started = JSON.parse(await nextLine()) as {
    pdsUrl: string;
    appViewUrl: string;
    accounts: { handle: string; appPassword: string }[];
  };
  ({ pdsUrl, appViewUrl } = started);
  session = await createBlueskySession(
    { serviceUrl: pdsUrl },
    started.accounts[0].handle,
    started.accounts[0].appPassword,
  );
}, 600_000);

afterAll(async () => {
  if (network && network.exitCode === null) {
    const exited = new Promise((resolve) => network.once('exit', resolve));
    network.stdin?.end();
    await exited;
  }
  await env?.drop();
});

function nextLine(): Promise<string> {
  return new Promise((resolve, reject) => {
    lines.once('line', resolve);
    network.once('exit', (code) => reject(new Error(`the network exited (${code})`)));
  });
}

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
  const sender = blueskyFollowUps({ blueskyServiceUrl: pdsUrl, requestTimeoutMs: 10_000 } as AdapterConfig);
  const root = await createBlueskyPost({ serviceUrl: pdsUrl, accessJwt: session.accessJwt }, session.did, newTid(), {
    text: 'The post',
  });
  const comment = await sender.send(stepContext(root.uri, root.uri, 'First comment'));
  const two = await sender.send(stepContext(root.uri, root.uri, 'Part two'));
  const twoId = two.kind === 'sent' ? two.id : '';
  const three = await sender.send(stepContext(root.uri, twoId, 'Part three'));

  network.stdin!.write('sync\n');
  expect(JSON.parse(await nextLine())).toEqual({ synced: true });
  // https://docs.bsky.app/docs/api/app-bsky-feed-get-post-thread
  const res = await fetch(`${appViewUrl}/xrpc/app.bsky.feed.getPostThread?uri=${encodeURIComponent(root.uri)}`);
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
