import { calls, lastRequestSeq } from '@postbus/testing';
import { blueskyProfile } from './support/bluesky-profile';
import { sandboxControl, startPublisherHarness, type PublisherHarness } from './support/harness';
import { collectFollowUps, type FollowUpEvents } from './support/follow-up-events';

let h: PublisherHarness;
let followUps: FollowUpEvents;

beforeAll(async () => {
  h = await startPublisherHarness('pub_bsky_replies', { env: { PLATFORM_REQUEST_TIMEOUT_MS: '1500' } });
  followUps = await collectFollowUps(h.bus, 'bsky-replies');
});
afterAll(async () => {
  await followUps?.stop();
  await h?.stop();
});

const announced = (name: string, postId: string) => followUps.announced(name, postId);
/** The account's records on the sandbox's PDS, oldest first. */
const recordsOf = (did: string) =>
  [...h.sandbox.state.bluesky.records.values()].filter((r) => r.uri.startsWith(`at://${did}/`));
const PERMALINK = /^https:\/\/bsky\.app\/profile\/[^/]+\/post\/[234567a-z]{13}$/;

describe('Bluesky first comments and reply chains', () => {
  test('when a post has a first comment and a thread, then each is a reply under the post, each part answering the one before', async () => {
    const bs = await blueskyProfile(h, 'chain_sky');
    const job = h.due(bs, { caption: 'Part one', firstComment: 'First!', thread: ['Part two', 'Part three'] });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);
    const thread = await announced('post.thread', job.postId);

    expect(outcome.name).toBe('post.published');
    expect((await announced('post.first_comment', job.postId)).data.firstComment).toMatchObject({
      text: 'First!',
      status: 'posted',
      permalink: expect.stringMatching(PERMALINK),
    });
    expect(thread.data.thread).toEqual([
      { text: 'Part two', status: 'posted', permalink: expect.stringMatching(PERMALINK), failedReason: null },
      { text: 'Part three', status: 'posted', permalink: expect.stringMatching(PERMALINK), failedReason: null },
    ]);
    const [post, first, two, three] = recordsOf(bs.did);
    const ref = (r: { uri: string; cid: string }) => ({ uri: r.uri, cid: r.cid });
    expect(post).toMatchObject({ uri: outcome.data.platformPostId, value: { text: 'Part one' } });
    expect(post.value.reply).toBeUndefined();
    expect([first, two, three].map((r) => [r.value.text, r.value.reply])).toEqual([
      ['First!', { root: ref(post), parent: ref(post) }],
      ['Part two', { root: ref(post), parent: ref(post) }],
      ['Part three', { root: ref(post), parent: ref(two) }],
    ]);
    expect(thread.data.thread[1].permalink).toBe(`https://bsky.app/profile/${bs.handle}/post/${three.rkey}`);
  });

  test('when the answer to a reply is lost, then the reply is found under its key and not written twice', async () => {
    const bs = await blueskyProfile(h, 'lossy_reply_sky');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'bluesky',
      mode: 'timeout',
      operation: 'comment',
      applied: true,
    });
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(bs, { caption: 'Root', thread: ['second', 'third'] });

    await h.publish(job);
    const thread = await announced('post.thread', job.postId);

    expect(thread.data.thread.map((p: { status: string }) => p.status)).toEqual(['posted', 'posted']);
    const records = recordsOf(bs.did);
    expect(records.map((r) => r.value.text)).toEqual(['Root', 'second', 'third']);
    const { lines } = await calls(h.sandbox, 'bluesky', bs.userId, since);
    expect(lines).toContain(
      `GET /bluesky/xrpc/com.atproto.repo.getRecord?repo=${bs.did}&collection=app.bsky.feed.post&rkey=${records[1].rkey}`,
    );
    expect(lines.filter((l) => l === 'POST /bluesky/xrpc/com.atproto.repo.createRecord')).toHaveLength(3);
  });
});
