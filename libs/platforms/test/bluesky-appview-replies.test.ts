import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import {
  blueskyReplyKey,
  createBlueskyPost,
  createBlueskySession,
  newTid,
  readBlueskyReplies,
  replyOnBluesky,
  type BlueskyApiOptions,
  type BlueskySession,
  type StrongRef,
} from '../src';
import { ATPROTO } from './support/reference-pds';

/**
 * Against Bluesky's whole reference network (@atproto/dev-env TestNetwork: PLC, the PDS and the bsky
 * AppView, on the Node.js 22 of tests/atproto): replies to an account's post are read from its
 * notifications through its PDS (which proxies listNotifications to the AppView), and the answer
 * reads back from the AppView in the comment's thread.
 */
let env: TestEnv;
let network: ChildProcess;
let lines: Interface;
let pdsUrl: string;
let appViewUrl: string;
let alice: BlueskySession;
let bob: BlueskySession;

beforeAll(async () => {
  const prepared = spawnSync(process.execPath, [`${ATPROTO}/prepare.mjs`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (prepared.status !== 0) throw new Error('tests/atproto/prepare.mjs failed (see above)');
  env = await createTestEnv('bsky_appview_replies');
  network = spawn(prepared.stdout.trim(), [`${ATPROTO}/appview-server.mjs`, env.databaseUrl, 'alice', 'bob'], {
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
  [alice, bob] = await Promise.all(
    started.accounts.map((a) => createBlueskySession({ serviceUrl: pdsUrl }, a.handle, a.appPassword)),
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

/** Waits until the AppView indexed everything the PDS wrote. */
async function synced(): Promise<void> {
  network.stdin!.write('sync\n');
  expect(JSON.parse(await nextLine())).toEqual({ synced: true });
}

const apiOf = (s: BlueskySession): BlueskyApiOptions => ({
  serviceUrl: pdsUrl,
  accessJwt: s.accessJwt,
  timeoutMs: 10_000,
});
const postBy = (s: BlueskySession, text: string, reply?: { root: StrongRef; parent: StrongRef }) =>
  createBlueskyPost(apiOf(s), s.did, newTid(), { text, ...(reply && { reply }) });

interface ThreadView {
  post: { uri: string; record: { text: string; reply?: { root: StrongRef; parent: StrongRef } } };
  replies?: ThreadView[];
}

test('when another account replies to a post, then its notification is read through the PDS, the answer lands in its thread once, and the next reading stops at the mark', async () => {
  const since = new Date(Date.now() - 1000).toISOString();
  const post = await postBy(alice, 'New prints are in');
  // The AppView notifies the author of a post it already holds: the post is indexed before the reply comes.
  await synced();
  const root = { uri: post.uri, cid: post.cid };
  const comment = await postBy(bob, 'what is the price?', { root, parent: root });
  await postBy(alice, 'a note of my own', { root, parent: root });
  await synced();

  const first = await readBlueskyReplies(apiOf(alice), alice.did, {}, since);
  expect(first.done).toBe(true);
  expect(first.replies).toEqual([
    expect.objectContaining({
      uri: comment.uri,
      cid: comment.cid,
      parentUri: post.uri,
      root,
      text: 'what is the price?',
      authorDid: bob.did,
      authorHandle: bob.handle,
    }),
  ]);
  expect(first.next.mark).toEqual({ at: expect.any(String), uri: comment.uri });

  const ref = { uri: comment.uri, cid: comment.cid, root };
  const answer = await replyOnBluesky(apiOf(alice), alice.did, ref, 'Hi, prices are on the shop page.');
  // The same answer again: the PDS refuses the key already taken, and the record under it is the answer.
  const again = await replyOnBluesky(apiOf(alice), alice.did, ref, 'Hi, prices are on the shop page.');
  expect(answer).toEqual({ id: `at://${alice.did}/app.bsky.feed.post/${blueskyReplyKey(comment.uri)}` });
  expect(again).toEqual(answer);
  await synced();

  // https://docs.bsky.app/docs/api/app-bsky-feed-get-post-thread
  const res = await fetch(`${appViewUrl}/xrpc/app.bsky.feed.getPostThread?uri=${encodeURIComponent(post.uri)}`);
  const { thread } = (await res.json()) as { thread: ThreadView };
  const under = thread.replies?.find((r) => r.post.uri === comment.uri);
  expect(under?.replies?.map((r) => [r.post.uri, r.post.record.text, r.post.record.reply])).toEqual([
    [answer.id, 'Hi, prices are on the shop page.', { root, parent: { uri: comment.uri, cid: comment.cid } }],
  ]);

  // Bob's notification of the answer is his; alice's own answer notifies her of nothing new.
  const next = await readBlueskyReplies(apiOf(alice), alice.did, first.next);
  expect(next).toEqual({ replies: [], next: first.next, done: true });
});
