import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

let sandbox: RunningSandbox;
let page: { userId: string; accessToken: string; handle: string };
let graph: string;
// The sandbox's clock, moved by hand: a reel's processing ends when the test says, not when a loaded machine gets round to it.
let clock = Date.now();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 50, now: () => clock, facebook: { reelsPer24h: 1 } });
  graph = `${sandbox.url}/facebook/v26.0`;
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control(sandbox, 'POST', '/reset');
  page = await newUser(sandbox, 'facebook', 'the.page');
});

const post = (path: string, form: Record<string, string>, base = graph) =>
  call(`${base}/${path}`, { token: page.accessToken, form });

async function startReel(): Promise<{ videoId: string; uploadUrl: string }> {
  const { body } = await post(`${page.userId}/video_reels`, { upload_phase: 'start' });
  return { videoId: body.video_id, uploadUrl: body.upload_url };
}

const upload = (url: string, bytes: number, offset = 0, size = bytes) =>
  call(url, {
    method: 'POST',
    token: page.accessToken,
    scheme: 'OAuth',
    headers: { offset: String(offset), file_size: String(size) },
    body: new Uint8Array(bytes),
  });

describe('the Facebook Pages emulator', () => {
  test('when a feed post with a link is made, then it is live with a permalink and recorded once', async () => {
    const res = await post(`${page.userId}/feed`, { message: 'Hello', link: 'https://example.com' });

    expect(res.body.id).toMatch(new RegExp(`^${page.userId}_\\d+$`));
    const read = await call(`${graph}/${res.body.id}?fields=permalink_url,message`, { token: page.accessToken });
    expect(read.body).toEqual({
      id: res.body.id,
      permalink_url: expect.stringMatching(/^https:\/\/www\.facebook\.com\/\d+\/posts\/\d+$/),
      message: 'Hello',
    });
    const published = (await control(sandbox, 'GET', '/published?platform=facebook')).body;
    expect(published).toEqual([
      expect.objectContaining({
        id: res.body.id,
        mediaType: 'LINK',
        text: 'Hello',
        details: { link: 'https://example.com' },
      }),
    ]);
  });

  test('when a feed post has neither message, link nor media, then it is refused with code 100', async () => {
    expect((await post(`${page.userId}/feed`, {})).body.error.code).toBe(100);
  });

  test('when unpublished photos are attached to a feed post, then one album post goes live and the photos cannot be reused', async () => {
    const a = await post(`${page.userId}/photos`, { url: 'https://cdn/a.jpg', published: 'false' });
    expect(a.body.post_id).toBeUndefined();
    const feed = await post(`${page.userId}/feed`, {
      message: 'Album',
      'attached_media[0]': JSON.stringify({ media_fbid: a.body.id }),
    });
    expect(feed.status).toBe(200);
    expect(
      (
        await post(`${page.userId}/feed`, {
          message: 'Again',
          'attached_media[0]': JSON.stringify({ media_fbid: a.body.id }),
        })
      ).body.error.code,
    ).toBe(100);
  });

  test('when a reel is started, uploaded in two parts and finished, then its status moves through processing to published', async () => {
    const { videoId, uploadUrl } = await startReel();
    expect(uploadUrl).toBe(`${sandbox.url}/rupload/video-upload/v26.0/${videoId}`);
    expect(
      (
        await post(`${page.userId}/video_reels`, {
          upload_phase: 'finish',
          video_id: videoId,
          video_state: 'PUBLISHED',
        })
      ).body.error.message,
    ).toMatch(/upload is not complete/);

    expect((await upload(uploadUrl, 600, 0, 1000)).body).toEqual({ success: true });
    expect((await upload(uploadUrl, 400, 0, 1000)).body.error.message).toMatch(/continue at offset 600/);
    expect((await upload(uploadUrl, 400, 600, 1000)).body).toEqual({ success: true });
    expect(
      (
        await post(`${page.userId}/video_reels`, {
          upload_phase: 'finish',
          video_id: videoId,
          video_state: 'PUBLISHED',
          description: 'Reel',
        })
      ).body,
    ).toEqual({ success: true });

    const status = async () =>
      (await call(`${graph}/${videoId}?fields=status`, { token: page.accessToken })).body.status;
    expect(await status()).toMatchObject({
      uploading_phase: { status: 'complete', bytes_transferred: 1000 },
      processing_phase: { status: 'in_progress' },
      publishing_phase: { status: 'in_progress' },
    });
    clock += 70;
    expect(await status()).toMatchObject({
      video_status: 'ready',
      publishing_phase: { status: 'complete', publish_status: 'published' },
    });
    expect((await control(sandbox, 'GET', '/published?platform=facebook')).body).toEqual([
      expect.objectContaining({ id: videoId, mediaType: 'REELS', bytes: 1000, text: 'Reel' }),
    ]);
  });

  test('when the Page has used its reels for the day, then finishing another answers code 9', async () => {
    for (const expected of [200, 400]) {
      const { videoId, uploadUrl } = await startReel();
      await upload(uploadUrl, 10);
      const res = await post(`${page.userId}/video_reels`, {
        upload_phase: 'finish',
        video_id: videoId,
        video_state: 'PUBLISHED',
      });
      expect(res.status).toBe(expected);
      if (expected === 400) expect(res.body.error.code).toBe(9);
    }
  });

  test('when a Page video is posted by file_url to graph.facebook.com, then it is live at once', async () => {
    const res = await post(`${page.userId}/videos`, { file_url: 'https://cdn/v.mp4', description: 'D', title: 'T' });

    expect(res.body.id).toMatch(/^\d+$/);
    expect((await control(sandbox, 'GET', '/published?platform=facebook')).body).toEqual([
      expect.objectContaining({ mediaType: 'VIDEO', title: 'T', mediaUrls: ['https://cdn/v.mp4'] }),
    ]);
  });

  test('when a Page video goes to the retired graph-video host, then Graph refuses it and nothing is published; relaxed, it is accepted', async () => {
    const videoHost = `${sandbox.url}/facebook-video/v26.0`;
    const refused = await post(`${page.userId}/videos`, { file_url: 'https://cdn/v.mp4' }, videoHost);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 100,
      type: 'OAuthException',
      message: expect.stringMatching(/graph-video\.facebook\.com is retired/),
    });
    expect((await control(sandbox, 'GET', '/published?platform=facebook')).body).toEqual([]);

    sandbox.state.graphRules.refuseGraphVideoHost = false;
    expect((await post(`${page.userId}/videos`, { file_url: 'https://cdn/v.mp4' }, videoHost)).body.id).toMatch(
      /^\d+$/,
    );
  });

  test('when a call names a Graph version Meta no longer serves, then code 2635 refuses it on Facebook and Instagram; relaxed, it is served', async () => {
    const ig = await newUser(sandbox, 'instagram', 'ig.user');
    const old = await post(`${page.userId}/feed`, { message: 'Old' }, `${sandbox.url}/facebook/v20.0`);
    expect(old.status).toBe(400);
    expect(old.body.error).toMatchObject({
      code: 2635,
      type: 'OAuthException',
      message: expect.stringMatching(/deprecated version.*v20\.0/),
    });
    const igOld = await call(`${sandbox.url}/instagram/v19.0/${ig.userId}/content_publishing_limit`, {
      token: ig.accessToken,
    });
    expect(igOld.body.error.code).toBe(2635);
    expect(
      (await call(`${sandbox.url}/instagram/v21.0/${ig.userId}/content_publishing_limit`, { token: ig.accessToken }))
        .status,
    ).toBe(200);
    expect((await control(sandbox, 'GET', '/published?platform=facebook')).body).toEqual([]);

    sandbox.state.graphRules.oldestVersion = null;
    expect((await post(`${page.userId}/feed`, { message: 'Old' }, `${sandbox.url}/facebook/v20.0`)).status).toBe(200);
  });

  test.each([
    ['form body', true],
    ['query string', false],
  ])(
    'when a reel is finished with a 2,000-character caption in the %s, then it is published with the whole caption',
    async (_where, inBody) => {
      const caption = 'Reel caption. '.repeat(143).slice(0, 2000);
      const { videoId, uploadUrl } = await startReel();
      await upload(uploadUrl, 10);
      const fields = { upload_phase: 'finish', video_id: videoId, video_state: 'PUBLISHED', description: caption };
      const res = inBody
        ? await post(`${page.userId}/video_reels`, fields)
        : await call(`${graph}/${page.userId}/video_reels?${new URLSearchParams(fields).toString()}`, {
            method: 'POST',
            token: page.accessToken,
          });
      expect(res.body).toEqual({ success: true });
      expect((await control(sandbox, 'GET', '/published?platform=facebook')).body).toEqual([
        expect.objectContaining({ id: videoId, text: caption }),
      ]);
    },
  );
});

describe("a Page video's thumb", () => {
  /** `POST /{page}/videos` as a multipart call: the text parameters and a `thumb` file. */
  const withThumb = (thumb: Buffer) => {
    const boundary = 'fbthumb9';
    const text = (name: string, value: string) =>
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    const body = Buffer.concat([
      text('file_url', 'https://cdn/v.mp4'),
      text('description', 'With a thumb'),
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="thumb"; filename="t.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`,
      ),
      thumb,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return call(`${graph}/${page.userId}/videos`, {
      token: page.accessToken,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: new Uint8Array(body),
    });
  };
  const png = (size: number) => {
    const bytes = Buffer.alloc(size);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
    return bytes;
  };

  test('when a video comes with an image as thumb, then it is published with that thumb, read from its bytes', async () => {
    const res = await withThumb(png(3000));

    expect(res.status).toBe(200);
    expect((await control(sandbox, 'GET', '/published?platform=facebook')).body).toEqual([
      expect.objectContaining({
        id: res.body.id,
        text: 'With a thumb',
        mediaType: 'VIDEO',
        details: { thumb: { contentType: 'image/png', size: 3000 } },
      }),
    ]);
  });

  test('when the thumb is not an image by its bytes or is over 10 MB, then the call is refused with code 100 and nothing is published', async () => {
    const notImage = await withThumb(Buffer.alloc(3000, 1));
    const tooLarge = await withThumb(png(10 * 1024 * 1024 + 1));

    expect(notImage).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    expect(tooLarge).toMatchObject({ status: 400, body: { error: { code: 100 } } });
    expect((await control(sandbox, 'GET', '/published?platform=facebook')).body).toEqual([]);
  });
});
