import {
  createLinkedInPost,
  finalizeLinkedInVideo,
  getLinkedInAssetStatus,
  initializeLinkedInUpload,
  isPlatformError,
  putLinkedInPart,
  type LinkedInApiOptions,
} from '@postbus/platforms';
import { startSandbox, type RunningSandbox } from '../src/main';
import { control } from './emulator-client';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

async function member(handle: string): Promise<{ userId: string; api: LinkedInApiOptions; author: string }> {
  const res = await control(sandbox, 'POST', '/users', { platform: 'linkedin', handle });
  const { userId, accessToken } = res.body as { userId: string; accessToken: string };
  return {
    userId,
    author: `urn:li:person:${userId}`,
    api: { baseUrl: `${sandbox.url}/linkedin`, accessToken, version: '202610' },
  };
}

const bytes = (n: number) => new Blob([new Uint8Array(n)]).stream() as ReadableStream<Uint8Array>;
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (err: unknown) => {
      if (!isPlatformError(err)) throw err;
      return { status: err.status, code: err.code, message: err.message };
    },
  );

async function uploadedImage(m: { api: LinkedInApiOptions; author: string }, owner = m.author): Promise<string> {
  const upload = await initializeLinkedInUpload(m.api, 'image', owner, 10);
  await putLinkedInPart(m.api, { ...upload.parts[0], contentType: 'image/png', body: bytes(10) }, {});
  return upload.urn;
}

describe('the LinkedIn emulator', () => {
  test('when a /rest call lacks LinkedIn-Version or names a retired one, or lacks Rest.li 2.0, then it is refused as LinkedIn refuses it', async () => {
    const m = await member('versions');
    const post = (headers: Record<string, string>) =>
      fetch(`${sandbox.url}/linkedin/rest/posts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${m.api.accessToken}`, 'content-type': 'application/json', ...headers },
        body: '{}',
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

    expect(await post({ 'x-restli-protocol-version': '2.0.0' })).toMatchObject({
      status: 400,
      body: { code: 'VERSION_MISSING' },
    });
    expect(await post({ 'x-restli-protocol-version': '2.0.0', 'linkedin-version': '202201' })).toMatchObject({
      status: 426,
      body: { status: 426, code: 'NONEXISTENT_VERSION' },
    });
    expect(await post({ 'linkedin-version': '202610' })).toMatchObject({
      status: 400,
      body: { code: 'PROTOCOL_VERSION_MISSING' },
    });
    expect(
      await refusal(
        createLinkedInPost({ ...m.api, version: '202201' }, { author: m.author, text: 'x', content: { kind: 'none' } }),
      ),
    ).toMatchObject({
      status: 426,
      code: 'version_retired',
    });
  });

  test('when commentary has an unescaped reserved character or is over 3,000 characters, then the post is refused; escaped text with hashtags passes', async () => {
    const m = await member('little');
    const raw = await fetch(`${sandbox.url}/linkedin/rest/posts`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${m.api.accessToken}`,
        'content-type': 'application/json',
        'linkedin-version': '202610',
        'x-restli-protocol-version': '2.0.0',
      },
      body: JSON.stringify({
        author: m.author,
        commentary: 'Hello (world)',
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED' },
        lifecycleState: 'PUBLISHED',
      }),
    });
    expect(raw.status).toBe(422);
    expect(await raw.json()).toMatchObject({ code: 'INVALID_LITTLE_TEXT' });
    expect(
      await refusal(createLinkedInPost(m.api, { author: m.author, text: 'y'.repeat(3001), content: { kind: 'none' } })),
    ).toMatchObject({
      status: 422,
    });
    const ok = await createLinkedInPost(m.api, {
      author: m.author,
      text: 'Hello (world) #launch @you * _ ~ <b> [x] {y} | \\',
      content: { kind: 'none' },
    });
    expect(ok.urn).toMatch(/^urn:li:share:\d+$/);
  });

  test('when a multiImage has one image, an image belongs to another author, or a document has no title, then each is refused', async () => {
    const m = await member('contents');
    const other = await member('someone_else');
    const mine = await uploadedImage(m);
    const theirs = await uploadedImage(other);

    expect(
      await refusal(
        createLinkedInPost(m.api, {
          author: m.author,
          text: 'one',
          content: { kind: 'image', images: [{ urn: mine }, { urn: theirs }] },
        }),
      ),
    ).toMatchObject({ status: 422 });
    const doc = await initializeLinkedInUpload(m.api, 'document', m.author, 20);
    await putLinkedInPart(m.api, { ...doc.parts[0], contentType: 'application/pdf', body: bytes(20) }, {});
    expect(
      await refusal(
        createLinkedInPost(m.api, { author: m.author, text: 'deck', content: { kind: 'document', urn: doc.urn } }),
      ),
    ).toMatchObject({
      status: 422,
      message: expect.stringMatching(/title/),
    });
    const single = await fetch(`${sandbox.url}/linkedin/rest/posts`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${m.api.accessToken}`,
        'content-type': 'application/json',
        'linkedin-version': '202610',
        'x-restli-protocol-version': '2.0.0',
      },
      body: JSON.stringify({
        author: m.author,
        commentary: 'one',
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED' },
        lifecycleState: 'PUBLISHED',
        content: { multiImage: { images: [{ id: mine }] } },
      }),
    });
    expect(single.status).toBe(422);
  });

  test('when a video is finalized without every ETag in order, then it is refused; with them it becomes AVAILABLE', async () => {
    const m = await member('videos');
    sandbox.state.linkedin.limits.videoPartBytes = 100_000;
    try {
      const upload = await initializeLinkedInUpload(m.api, 'video', m.author, 150_000);
      expect(upload.parts.map((p) => [p.firstByte, p.lastByte])).toEqual([
        [0, 99_999],
        [100_000, 149_999],
      ]);
      const etags: string[] = [];
      for (const part of upload.parts)
        etags.push(
          await putLinkedInPart(
            m.api,
            { ...part, contentType: 'application/octet-stream', body: bytes(part.lastByte - part.firstByte + 1) },
            {},
          ),
        );
      expect(
        await refusal(finalizeLinkedInVideo(m.api, upload.urn, upload.uploadToken, [...etags].reverse())),
      ).toMatchObject({ status: 400 });
      expect(await getLinkedInAssetStatus(m.api, 'video', upload.urn)).toBe('WAITING_UPLOAD');
      await finalizeLinkedInVideo(m.api, upload.urn, upload.uploadToken, etags);
      expect(await getLinkedInAssetStatus(m.api, 'video', upload.urn)).toBe('AVAILABLE');
      expect(await refusal(initializeLinkedInUpload(m.api, 'video', m.author, 10))).toMatchObject({ status: 422 });
    } finally {
      sandbox.state.linkedin.limits.videoPartBytes = 4_194_304;
    }
  });

  test('when the token is unknown, the author is an organization the member does not administer, or the same post is sent twice, then LinkedIn answers as documented', async () => {
    const m = await member('errors');
    expect(
      await refusal(
        createLinkedInPost(
          { ...m.api, accessToken: 'AQVnope' },
          { author: m.author, text: 'x', content: { kind: 'none' } },
        ),
      ),
    ).toMatchObject({
      status: 401,
      code: 'token_rejected',
    });
    const org = (await control(sandbox, 'POST', '/linkedin/organizations', { name: 'Not Mine', roles: {} })).body as {
      urn: string;
    };
    expect(
      await refusal(createLinkedInPost(m.api, { author: org.urn, text: 'x', content: { kind: 'none' } })),
    ).toMatchObject({
      status: 403,
      message: expect.stringMatching(/ADMINISTRATOR/),
    });
    const sentAt = new Date();
    const first = await createLinkedInPost(m.api, { author: m.author, text: 'same words', content: { kind: 'none' } });
    expect(
      await refusal(createLinkedInPost(m.api, { author: m.author, text: 'same words', content: { kind: 'none' } })),
    ).toMatchObject({ code: 'duplicate_content', message: expect.stringContaining(first.urn) });
    const resent = await createLinkedInPost(
      m.api,
      { author: m.author, text: 'same words', content: { kind: 'none' } },
      { firstSentAt: sentAt },
    );
    expect(resent).toEqual(first);
    expect(
      sandbox.state.published.list({ platform: 'linkedin', userId: m.userId }).filter((p) => p.text === 'same words'),
    ).toHaveLength(1);
  });
});
