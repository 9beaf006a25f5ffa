import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser, sleep } from './emulator-client';

let sandbox: RunningSandbox;
let user: { userId: string; accessToken: string; handle: string };
let api: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    processingDelayMs: 40,
    tiktok: {
      minChunkBytes: 100,
      maxChunkBytes: 1000,
      maxLastChunkBytes: 2000,
      rpm: { creatorInfo: 3, init: 6, status: 30 },
      verifiedUrlPrefixes: ['https://verified.example/'],
    },
  });
  api = `${sandbox.url}/tiktok/v2/post/publish`;
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control(sandbox, 'POST', '/reset');
  sandbox.state.tiktok.audit.unaudited = false;
  user = await newUser(sandbox, 'tiktok', 'tt.sandbox');
});

const tiktok = (path: string, json: unknown, token = user.accessToken) => call(`${api}${path}`, { token, json });
const fileInit = (source: Record<string, unknown>, privacy = 'PUBLIC_TO_EVERYONE') =>
  tiktok('/video/init/', {
    post_info: { title: 'T', privacy_level: privacy },
    source_info: { source: 'FILE_UPLOAD', ...source },
  });
const put = (url: string, range: string, bytes: number) =>
  call(url, {
    method: 'PUT',
    headers: { 'content-type': 'video/mp4', 'content-range': range },
    body: new Uint8Array(bytes),
  });

describe('the TikTok Content Posting emulator', () => {
  test('when creator_info is asked, then it answers the envelope with the options, and the per-token limit answers 429 beyond it', async () => {
    const first = await tiktok('/creator_info/query/', {});
    expect(first.body).toEqual({
      data: expect.objectContaining({
        creator_username: 'tt.sandbox',
        privacy_level_options: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
        max_video_post_duration_sec: 600,
      }),
      error: { code: 'ok', message: '', log_id: expect.any(String) },
    });
    await tiktok('/creator_info/query/', {});
    await tiktok('/creator_info/query/', {});
    const limited = await tiktok('/creator_info/query/', {});
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limit_exceeded');
  });

  test.each([
    [{ video_size: 2500, chunk_size: 1000, total_chunk_count: 3 }, /floor/],
    [{ video_size: 2500, chunk_size: 50, total_chunk_count: 50 }, /chunk_size must be between/],
    [{ video_size: 50, chunk_size: 10, total_chunk_count: 5 }, /uploaded whole/],
    [{ video_size: 5000, chunk_size: 1000, total_chunk_count: 5, extra: 1 }, null],
  ])('when FILE_UPLOAD init says %j, then the chunk math is checked', async (source, refusal) => {
    const res = await fileInit(source);
    if (refusal) {
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_param', message: expect.stringMatching(refusal) });
    } else {
      expect(res.body.data).toEqual({
        publish_id: expect.stringMatching(/^v_pub_file~v2-1\./),
        upload_url: expect.stringContaining('/tiktok-upload/video/?upload_id='),
      });
    }
  });

  test('when chunks are PUT in order, then 206 until the last answers 201, and the status moves to PUBLISH_COMPLETE, with a public id once moderation (one check) is over', async () => {
    const init = await fileInit({ video_size: 2500, chunk_size: 1000, total_chunk_count: 2 });
    const { publish_id: publishId, upload_url: url } = init.body.data;

    expect((await put(url, 'bytes 1000-1999/2500', 1000)).body.error.message).toMatch(/must be bytes 0-999/);
    expect((await put(url, 'bytes 0-999/2500', 1000)).status).toBe(206);
    expect((await tiktok('/status/fetch/', { publish_id: publishId })).body.data).toMatchObject({
      status: 'PROCESSING_UPLOAD',
      uploaded_bytes: 1000,
    });
    expect((await put(url, 'bytes 1000-2499/2500', 1500)).status).toBe(201);
    await sleep(60);
    expect((await tiktok('/status/fetch/', { publish_id: publishId })).body.data).toMatchObject({
      status: 'PUBLISH_COMPLETE',
      publicaly_available_post_id: [],
    });
    const done = (await tiktok('/status/fetch/', { publish_id: publishId })).body.data;
    expect(done).toMatchObject({
      status: 'PUBLISH_COMPLETE',
      publicaly_available_post_id: [expect.any(Number)],
      uploaded_bytes: 2500,
    });
    expect((await control(sandbox, 'GET', '/published?platform=tiktok')).body).toEqual([
      expect.objectContaining({ bytes: 2500, mediaType: 'VIDEO', containerId: publishId }),
    ]);
  });

  test('when a public post is complete, then its id is sent as the exact 19-digit JSON number, which a naive JSON.parse rounds', async () => {
    const init = await tiktok('/video/init/', {
      post_info: { title: 'T', privacy_level: 'PUBLIC_TO_EVERYONE' },
      source_info: { source: 'PULL_FROM_URL', video_url: 'https://verified.example/v.mp4' },
    });
    await sleep(60);
    await tiktok('/status/fetch/', { publish_id: init.body.data.publish_id }); // moderation withholds the id from the first check
    const res = await fetch(`${api}/status/fetch/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ publish_id: init.body.data.publish_id }),
    });
    const raw = await res.text();
    const [published] = (await control(sandbox, 'GET', '/published?platform=tiktok')).body as { id: string }[];
    expect(published.id).toMatch(/^\d{19}$/);
    expect(raw).toContain(`"publicaly_available_post_id":[${published.id}]`);
    expect(String(JSON.parse(raw).data.publicaly_available_post_id[0])).not.toBe(published.id);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  test('when a pull is from an unverified domain, then url_ownership_unverified; from a verified one, it is processed', async () => {
    const pull = (video_url: string) =>
      tiktok('/video/init/', {
        post_info: { title: '', privacy_level: 'SELF_ONLY' },
        source_info: { source: 'PULL_FROM_URL', video_url },
      });
    const refused = await pull('https://elsewhere.example/v.mp4');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('url_ownership_unverified');
    const ok = await pull('https://verified.example/v.mp4');
    expect((await tiktok('/status/fetch/', { publish_id: ok.body.data.publish_id })).body.data.status).toBe(
      'PROCESSING_DOWNLOAD',
    );
  });

  test('when a photo is a PNG, then TikTok pulls it and the status ends FAILED with file_format_check_failed; JPEG and WebP go live', async () => {
    const photos = (photo_images: string[]) =>
      tiktok('/content/init/', {
        media_type: 'PHOTO',
        post_mode: 'DIRECT_POST',
        post_info: { title: 'P', privacy_level: 'SELF_ONLY' },
        source_info: { source: 'PULL_FROM_URL', photo_images, photo_cover_index: 0 },
      });
    const png = await photos(['https://verified.example/a.jpg', 'https://verified.example/b.png']);
    const fine = await photos(['https://verified.example/a.jpeg', 'https://verified.example/b.webp']);
    await sleep(50);
    expect((await tiktok('/status/fetch/', { publish_id: png.body.data.publish_id })).body.data).toMatchObject({
      status: 'FAILED',
      fail_reason: 'file_format_check_failed',
    });
    expect((await tiktok('/status/fetch/', { publish_id: fine.body.data.publish_id })).body.data.status).toBe(
      'PUBLISH_COMPLETE',
    );
  });

  test("when the sandbox starts without prefixes, then only Postbus's development /files/ is verified; the limits control relaxes it, and a reset restores it", async () => {
    const strict = await startSandbox({ port: 0, tiktokAudit: { unaudited: false } });
    try {
      let who = await newUser(strict, 'tiktok', 'tt.strict');
      const pull = (video_url: string) =>
        call(`${strict.url}/tiktok/v2/post/publish/video/init/`, {
          token: who.accessToken,
          json: {
            post_info: { title: '', privacy_level: 'SELF_ONLY' },
            source_info: { source: 'PULL_FROM_URL', video_url },
          },
        });
      expect((await pull('https://cdn.example/v.mp4')).body.error.code).toBe('url_ownership_unverified');
      expect((await pull('http://localhost:3000/files/med_1?sig=x')).body.error.code).toBe('ok');

      expect((await control(strict, 'POST', '/tiktok/limits', { verifiedUrlPrefixes: null })).body).toEqual({
        verifiedUrlPrefixes: null,
      });
      expect((await pull('https://cdn.example/v.mp4')).body.error.code).toBe('ok');
      await control(strict, 'POST', '/reset');
      who = await newUser(strict, 'tiktok', 'tt.strict');
      expect((await pull('https://cdn.example/v2.mp4')).body.error.code).toBe('url_ownership_unverified');
    } finally {
      await strict.close();
    }
  });

  test('when the client is unaudited, then only SELF_ONLY is offered and anything else is refused with the audit error', async () => {
    sandbox.state.tiktok.audit.unaudited = true;
    expect((await tiktok('/creator_info/query/', {})).body.data.privacy_level_options).toEqual(['SELF_ONLY']);
    const res = await fileInit({ video_size: 50, chunk_size: 50, total_chunk_count: 1 }, 'PUBLIC_TO_EVERYONE');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('unaudited_client_can_only_post_to_private_accounts');
  });

  test('when a photo post pulls a failing image, then the status ends FAILED with photo_pull_failed', async () => {
    const res = await tiktok('/content/init/', {
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: { title: 'P', privacy_level: 'PUBLIC_TO_EVERYONE' },
      source_info: {
        source: 'PULL_FROM_URL',
        photo_images: ['https://verified.example/fail-processing.jpg'],
        photo_cover_index: 0,
      },
    });
    await sleep(50);
    expect((await tiktok('/status/fetch/', { publish_id: res.body.data.publish_id })).body.data).toMatchObject({
      status: 'FAILED',
      fail_reason: 'photo_pull_failed',
    });
    expect((await control(sandbox, 'GET', '/published?platform=tiktok')).body).toEqual([]);
  });

  test('when withholdPostIdPolls is 3, then a public post answers PUBLISH_COMPLETE without its id three times, and a SELF_ONLY one never has one', async () => {
    sandbox.state.tiktok.limits.withholdPostIdPolls = 3;
    try {
      const pull = (privacy: string) =>
        tiktok('/video/init/', {
          post_info: { title: 'T', privacy_level: privacy },
          source_info: { source: 'PULL_FROM_URL', video_url: 'https://verified.example/v.mp4' },
        });
      const [pub, own] = [await pull('PUBLIC_TO_EVERYONE'), await pull('SELF_ONLY')];
      await sleep(60);
      const ids = async (init: typeof pub) =>
        (await tiktok('/status/fetch/', { publish_id: init.body.data.publish_id })).body.data
          .publicaly_available_post_id.length;
      expect([await ids(pub), await ids(pub), await ids(pub), await ids(pub)]).toEqual([0, 0, 0, 1]);
      expect([await ids(own), await ids(own)]).toEqual([0, 0]);
    } finally {
      sandbox.state.tiktok.limits.withholdPostIdPolls = 1;
    }
  });

  test('when a pull fails with "-once", then only the first publish of that URL ends FAILED (internal) and a new init of it goes live', async () => {
    const pullPhoto = () =>
      tiktok('/content/init/', {
        media_type: 'PHOTO',
        post_mode: 'DIRECT_POST',
        post_info: { title: 'P', privacy_level: 'PUBLIC_TO_EVERYONE' },
        source_info: {
          source: 'PULL_FROM_URL',
          photo_images: ['https://verified.example/fail-processing-internal-once.jpg'],
          photo_cover_index: 0,
        },
      });
    const first = await pullPhoto();
    const second = await pullPhoto();
    await sleep(50);
    expect((await tiktok('/status/fetch/', { publish_id: first.body.data.publish_id })).body.data).toMatchObject({
      status: 'FAILED',
      fail_reason: 'internal',
    });
    expect((await tiktok('/status/fetch/', { publish_id: second.body.data.publish_id })).body.data.status).toBe(
      'PUBLISH_COMPLETE',
    );
    expect((await control(sandbox, 'GET', '/published?platform=tiktok')).body).toHaveLength(1);
  });

  test('when the token is unknown, then 401 access_token_invalid in the envelope', async () => {
    const res = await tiktok('/creator_info/query/', {}, 'act.nope');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      data: {},
      error: { code: 'access_token_invalid', message: expect.any(String), log_id: expect.any(String) },
    });
  });
});
