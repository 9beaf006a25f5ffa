import { Rpc } from '@postbus/contracts';
import { bodiesOf, calls, lastRequestSeq, startMediaServer, type MediaServer } from '@postbus/testing';
import {
  publishedOn,
  sandboxControl,
  startPublisherHarness,
  type PublisherHarness,
  type SandboxProfile,
} from './support/harness';

let h: PublisherHarness;
let media: MediaServer;

beforeAll(async () => {
  media = await startMediaServer();
  h = await startPublisherHarness('pub_linkedin', { env: { PLATFORM_REQUEST_TIMEOUT_MS: '1500' } });
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});
afterEach(() => h.sandbox.state.linkedin.clear());

/** A LinkedIn member as connections holds one: its author URN as platformUserId; or one of its organizations. */
async function linkedInProfile(name: string, organization?: string): Promise<SandboxProfile & { author: string }> {
  const user = (await sandboxControl(h.sandbox, 'POST', '/users', { platform: 'linkedin', handle: name })).body as {
    userId: string;
    accessToken: string;
  };
  let author = `urn:li:person:${user.userId}`;
  if (organization) {
    const org = await sandboxControl(h.sandbox, 'POST', '/linkedin/organizations', {
      name: organization,
      roles: { [user.userId]: 'ADMINISTRATOR' },
    });
    author = (org.body as { urn: string }).urn;
  }
  const profile = await h.bus.rpc.call(Rpc.connectionsSeedProfile, {
    accountId: h.accountId,
    platform: 'linkedin',
    platformUserId: author,
    handle: organization ?? name,
    accessToken: user.accessToken,
  });
  return {
    profileId: profile.id,
    userId: user.userId,
    accessToken: user.accessToken,
    handle: name,
    platform: 'linkedin',
    author,
  };
}

const mine = async (p: { userId: string }) =>
  (await publishedOn(h.sandbox, 'linkedin')).filter((item) => item.userId === p.userId);
const lines = async (p: { userId: string }, since: number) =>
  (await calls(h.sandbox, 'linkedin', p.userId, since)).lines.map((l) =>
    l.replace(/urn(:|%3A)li(:|%3A)\w+(:|%3A)[\w-]+/g, '{urn}').replace(/dms-uploads\/\w+/, 'dms-uploads/{key}'),
  );

describe('publishing to LinkedIn', () => {
  test('when a text post is due, then one post is created by the member with escaped commentary and the versioned headers', async () => {
    const m = await linkedInProfile('text_member');
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(m, {
      caption: 'Launch (beta) #news @team',
      platformMeta: { linkedin: { visibility: 'CONNECTIONS' } },
    });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { requests } = await calls(h.sandbox, 'linkedin', m.userId, since);
    const [item] = await mine(m);
    expect(await lines(m, since)).toEqual(['POST /linkedin/rest/posts']);
    expect(bodiesOf(requests, 'POST', '/rest/posts')).toEqual([
      {
        author: m.author,
        commentary: 'Launch \\(beta\\) #news \\@team',
        visibility: 'CONNECTIONS',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
      },
    ]);
    expect(requests[0].headers).toMatchObject({ 'linkedin-version': '202610', 'x-restli-protocol-version': '2.0.0' });
    expect(item.text).toBe('Launch (beta) #news @team');
    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { platformPostId: item.id, permalink: `https://www.linkedin.com/feed/update/${item.id}/` },
    });
  });

  test('when a post has three images with alt texts, then each is initialized, uploaded and the post is a multiImage', async () => {
    const m = await linkedInProfile('gallery_member');
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(m, {
      caption: 'Three views',
      mediaUrls: [media.link('a.jpg', 3000), media.link('b.png', 2000), media.link('c.jpg', 1000)],
      platformMeta: { linkedin: { altTexts: ['Harbour', '', 'Hills'] } },
    });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { requests } = await calls(h.sandbox, 'linkedin', m.userId, since);
    const [item] = await mine(m);
    const trio = ['POST /linkedin/rest/images?action=initializeUpload', 'PUT /linkedin/dms-uploads/{key}'];
    expect((await lines(m, since)).filter((l) => !l.startsWith('GET'))).toEqual([
      ...trio,
      ...trio,
      ...trio,
      'POST /linkedin/rest/posts',
    ]);
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.bodyBytes)).toEqual([3000, 2000, 1000]);
    const [post] = bodiesOf(requests, 'POST', '/rest/posts');
    const images = (post.content as { multiImage: { images: { id: string; altText?: string }[] } }).multiImage.images;
    expect(images.map((i) => i.altText)).toEqual(['Harbour', undefined, 'Hills']);
    expect(item).toMatchObject({ mediaType: 'multiImage', bytes: 6000 });
    expect(outcome.name).toBe('post.published');
  });

  test('when a post has one image that LinkedIn is still processing, then the post waits until it is AVAILABLE and carries it as media', async () => {
    const m = await linkedInProfile('photo_member');
    h.sandbox.state.linkedin.limits.processingMs = 300;
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(m, { caption: 'One view', mediaUrls: [media.link('one.jpg', 1500)] });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { requests } = await calls(h.sandbox, 'linkedin', m.userId, since);
    expect((await lines(m, since)).filter((l) => l.startsWith('GET /linkedin/rest/images/')).length).toBeGreaterThan(0);
    const [post] = bodiesOf(requests, 'POST', '/rest/posts');
    expect(post.content).toEqual({ media: { id: expect.stringMatching(/^urn:li:image:/) } });
    expect(outcome.name).toBe('post.published');
  });

  test('when a video is due, then it is uploaded in the parts LinkedIn cut and finalized with their ETags in order', async () => {
    const m = await linkedInProfile('video_member');
    h.sandbox.state.linkedin.limits.videoPartBytes = 100_000;
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(m, {
      caption: 'Watch',
      mediaUrls: [media.link('clip.mp4', 250_000)],
      platformMeta: { linkedin: { title: 'Demo' } },
    });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { requests } = await calls(h.sandbox, 'linkedin', m.userId, since);
    expect((await lines(m, since)).filter((l) => !l.startsWith('GET'))).toEqual([
      'POST /linkedin/rest/videos?action=initializeUpload',
      'PUT /linkedin/dms-uploads/{key}',
      'PUT /linkedin/dms-uploads/{key}',
      'PUT /linkedin/dms-uploads/{key}',
      'POST /linkedin/rest/videos?action=finalizeUpload',
      'POST /linkedin/rest/posts',
    ]);
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.bodyBytes)).toEqual([100_000, 100_000, 50_000]);
    const [init] = bodiesOf(requests, 'POST', '/rest/videos').filter((b) => 'initializeUploadRequest' in b);
    expect(init).toEqual({
      initializeUploadRequest: {
        owner: m.author,
        fileSizeBytes: 250_000,
        uploadCaptions: false,
        uploadThumbnail: false,
      },
    });
    const video = h.sandbox.state.linkedin.assets.get(
      String((bodiesOf(requests, 'POST', '/rest/posts')[0].content as any).media.id),
    )!;
    const [finalize] = bodiesOf(requests, 'POST', '/rest/videos').filter((b) => 'finalizeUploadRequest' in b);
    expect((finalize.finalizeUploadRequest as { uploadedPartIds: string[] }).uploadedPartIds).toEqual(
      video.parts.map((p) => p.etag),
    );
    expect(bodiesOf(requests, 'POST', '/rest/posts')[0].content).toEqual({ media: { id: video.urn, title: 'Demo' } });
    expect(outcome.name).toBe('post.published');
  });

  test('when a PDF is due, then it goes through the Documents API and the post carries its title', async () => {
    const m = await linkedInProfile('deck_member');
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(m, {
      caption: 'Our deck',
      mediaUrls: [media.link('deck.pdf', 4000, { type: 'application/pdf' })],
    });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { requests } = await calls(h.sandbox, 'linkedin', m.userId, since);
    expect((await lines(m, since)).filter((l) => !l.startsWith('GET'))).toEqual([
      'POST /linkedin/rest/documents?action=initializeUpload',
      'PUT /linkedin/dms-uploads/{key}',
      'POST /linkedin/rest/posts',
    ]);
    expect(requests.find((r) => r.method === 'PUT')?.headers['content-type']).toBe('application/pdf');
    expect(bodiesOf(requests, 'POST', '/rest/posts')[0].content).toEqual({
      media: { id: expect.stringMatching(/^urn:li:document:/), title: 'Document' },
    });
    expect(outcome.name).toBe('post.published');
  });

  test('when the profile is an organization the member administers, then the organization owns the image and authors the post', async () => {
    const m = await linkedInProfile('org_admin', 'Acme Corp');
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(m, { caption: 'From the company', mediaUrls: [media.link('logo.png', 800)] });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { requests } = await calls(h.sandbox, 'linkedin', m.userId, since);
    expect(m.author).toMatch(/^urn:li:organization:\d+$/);
    expect(bodiesOf(requests, 'POST', '/rest/images')).toEqual([{ initializeUploadRequest: { owner: m.author } }]);
    expect(bodiesOf(requests, 'POST', '/rest/posts')[0]).toMatchObject({ author: m.author });
    expect(outcome.name).toBe('post.published');
  });
});

describe('LinkedIn errors', () => {
  test('when the answer to the post is lost, then the resend is refused as a duplicate naming the first post: one post, published with its URN', async () => {
    const m = await linkedInProfile('lossy_member');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'linkedin',
      mode: 'timeout',
      operation: 'publish',
      applied: true,
    });
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(m, { caption: 'answer lost' });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const items = await mine(m);
    expect(items).toHaveLength(1);
    expect(await lines(m, since)).toEqual([
      'POST /linkedin/rest/posts',
      'POST /linkedin/rest/posts',
      'GET /linkedin/rest/posts/{urn}',
    ]);
    expect(outcome).toMatchObject({ name: 'post.published', data: { platformPostId: items[0].id } });
  });

  test('when the author already posted the same content, then the post fails as a duplicate naming the first post', async () => {
    const m = await linkedInProfile('repeating_member');
    const first = h.due(m, { caption: 'same words' });
    await h.publish(first);
    await h.outcome(first.postId);
    const since = lastRequestSeq(h.sandbox);
    const again = h.due(m, { caption: 'same words' });

    await h.publish(again);
    const outcome = await h.outcome(again.postId);

    const [item] = await mine(m);
    expect(outcome).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(new RegExp(`duplicate: the author already posted it .*${item.id}`)) },
    });
    expect(await lines(m, since)).toEqual(['POST /linkedin/rest/posts']);
    expect(await mine(m)).toHaveLength(1);
  });

  test('when a resend after a lost request is refused naming a post from before the first send, then the post fails as a duplicate', async () => {
    const m = await linkedInProfile('older_twin_member');
    const first = h.due(m, { caption: 'twice told' });
    await h.publish(first);
    await h.outcome(first.postId);
    h.sandbox.state.linkedin.posts.forEach((p) => (p.createdAt -= 10 * 60_000));
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'linkedin',
      mode: 'timeout',
      operation: 'publish',
      applied: false,
    });
    const again = h.due(m, { caption: 'twice told' });

    await h.publish(again);
    const outcome = await h.outcome(again.postId);

    expect(outcome).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(/duplicate: the author already posted it on \d{4}-/) },
    });
    expect(await mine(m)).toHaveLength(1);
  });

  test('when a resend is refused naming a post the author deleted, then the post fails saying so, not posted', async () => {
    const m = await linkedInProfile('deleting_member');
    const first = h.due(m, { caption: 'said and unsaid' });
    await h.publish(first);
    await h.outcome(first.postId);
    const [item] = await mine(m);
    const deleted = await fetch(`${h.sandbox.url}/linkedin/rest/posts/${encodeURIComponent(item.id)}`, {
      method: 'DELETE',
      headers: {
        authorization: `Bearer ${m.accessToken}`,
        'linkedin-version': h.sandbox.state.linkedin.limits.newestVersion,
        'x-restli-protocol-version': '2.0.0',
      },
    });
    expect(deleted.status).toBe(204);
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'linkedin',
      mode: 'timeout',
      operation: 'publish',
      applied: false,
    });
    const since = lastRequestSeq(h.sandbox);
    const again = h.due(m, { caption: 'said and unsaid' });

    await h.publish(again);
    const outcome = await h.outcome(again.postId);

    expect(outcome).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(/posted it before and deleted it/) },
    });
    expect(await lines(m, since)).toEqual([
      'POST /linkedin/rest/posts',
      'POST /linkedin/rest/posts',
      'GET /linkedin/rest/posts/{urn}',
    ]);
  });

  test('when LinkedIn fails with a 500 once, then the retry publishes', async () => {
    const m = await linkedInProfile('flaky_member');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'linkedin',
      mode: 'error',
      operation: 'create',
      status: 503,
    });
    const job = h.due(m, { caption: 'after a hiccup', mediaUrls: [media.link('x.jpg', 900)] });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome.name).toBe('post.published');
    expect(await mine(m)).toHaveLength(1);
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 2 });
  });

  test('when LinkedIn answers 429, then the post is deferred, not failed, and publishes afterwards', async () => {
    const m = await linkedInProfile('busy_member');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'linkedin',
      mode: 'throttle',
      operation: 'publish',
    });
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(m, { caption: 'after the limit' });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const attempt = await h.attempt(job.postId);
    expect(outcome.name).toBe('post.published');
    expect(attempt).toMatchObject({ state: 'published', tries: 1 });
    expect(await lines(m, since)).toEqual(['POST /linkedin/rest/posts', 'POST /linkedin/rest/posts']);
  });

  test('when the member revoked the token, then the post fails asking for a reconnect and nothing is posted', async () => {
    const m = await linkedInProfile('revoked_member');
    await sandboxControl(h.sandbox, 'POST', `/users/${m.userId}/revoke`);
    const job = h.due(m, { caption: 'after revoking' });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome).toMatchObject({ name: 'post.failed', data: { reason: expect.stringMatching(/reconnect/i) } });
    expect(await mine(m)).toEqual([]);
  });

  test('when the member lost the organization role, then the post fails with the roles needed and nothing is posted', async () => {
    const m = await linkedInProfile('former_admin', 'Gone Corp');
    h.sandbox.state.linkedin.organizations.forEach((o) => o.roles.set(m.userId, 'ANALYST'));
    const job = h.due(m, { caption: 'should not post' });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(/ADMINISTRATOR, CONTENT_ADMIN/) },
    });
    expect(await mine(m)).toEqual([]);
  });

  test('when the text is over 3,000 characters or an organization asks for CONNECTIONS, then the post fails before any call', async () => {
    const m = await linkedInProfile('long_member', 'Loud Corp');
    const since = lastRequestSeq(h.sandbox);
    const long = h.due(m, { caption: 'x'.repeat(3001) });
    const connections = h.due(m, { caption: 'hi', platformMeta: { linkedin: { visibility: 'CONNECTIONS' } } });

    await h.publish(long, connections);

    expect(await h.outcome(long.postId)).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(/3000 characters; this text is 3001/) },
    });
    expect(await h.outcome(connections.postId)).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(/no connections/) },
    });
    expect(await lines(m, since)).toEqual([]);
  });

  test('when LinkedIn cannot process the image, then the post fails naming the file and nothing is posted', async () => {
    const m = await linkedInProfile('broken_member');
    h.sandbox.state.linkedin.limits.processingFails = true;
    const job = h.due(m, { caption: 'broken', mediaUrls: [media.link('bad.jpg', 100)] });

    await h.publish(job);

    expect(await h.outcome(job.postId)).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(/could not process the image/) },
    });
    expect(await mine(m)).toEqual([]);
  });

  test('when a post mixes a video and an image, then it fails naming what LinkedIn takes', async () => {
    const m = await linkedInProfile('mixed_member');
    const job = h.due(m, { caption: 'mix', mediaUrls: [media.link('a.mp4', 80_000), media.link('b.jpg', 100)] });

    await h.publish(job);

    expect(await h.outcome(job.postId)).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(/not a mix/) },
    });
  });
});
