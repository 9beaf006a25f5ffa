import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

let sandbox: RunningSandbox;
let channel: { userId: string; accessToken: string; handle: string };
let base: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  base = `${sandbox.url}/youtube/upload/youtube/v3`;
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control(sandbox, 'POST', '/reset');
  Object.assign(sandbox.state.youtube.limits, { quotaMode: 'buckets', dailyUnits: 10_000, channelUploadsPer24h: 100 });
  channel = await newUser(sandbox, 'youtube', 'yt.sandbox');
});

/** YouTube's chunk unit: 256 KiB. */
const CHUNK = 262_144;
const metadata = { snippet: { title: 'T', description: 'D' }, status: { privacyStatus: 'private' } };
const open = (size: number, json: unknown = metadata) =>
  call(`${base}/videos?uploadType=resumable&part=snippet,status`, {
    token: channel.accessToken,
    json,
    headers: { 'x-upload-content-length': String(size), 'x-upload-content-type': 'video/mp4' },
  });
const put = (session: string, range: string, bytes = 0) =>
  call(session, {
    method: 'PUT',
    token: channel.accessToken,
    headers: { 'content-range': range, 'content-type': 'video/mp4' },
    ...(bytes && { body: new Uint8Array(bytes) }),
  });

describe('the YouTube resumable upload emulator', () => {
  test('when a session is opened and bytes sent in chunks, then 308 with Range until the last, which answers 201 with the video', async () => {
    const total = CHUNK + 400;
    const session = (await open(total)).headers.get('location')!;
    expect(session).toMatch(/\/youtube\/upload\/youtube\/v3\/videos\?uploadType=resumable&upload_id=/);

    const probe0 = await put(session, `bytes */${total}`);
    expect(probe0.status).toBe(308);
    expect(probe0.headers.get('range')).toBeNull();
    const first = await put(session, `bytes 0-${CHUNK - 1}/${total}`, CHUNK);
    expect([first.status, first.headers.get('range')]).toEqual([308, `bytes=0-${CHUNK - 1}`]);
    const last = await put(session, `bytes ${CHUNK}-${total - 1}/${total}`, 400);
    expect(last.status).toBe(201);
    expect(last.body).toMatchObject({
      kind: 'youtube#video',
      id: expect.any(String),
      status: { uploadStatus: 'uploaded', privacyStatus: 'private' },
    });
    const probe = await put(session, `bytes */${total}`);
    expect([probe.status, probe.body.id]).toEqual([200, last.body.id]);
  });

  test('when a chunk before the final one is not a multiple of 256 KiB, then 400 and nothing is stored; an aligned one answers 308', async () => {
    const total = 3 * CHUNK + 10;
    const session = (await open(total)).headers.get('location')!;
    const unaligned = await put(session, `bytes 0-599/${total}`, 600);
    expect(unaligned.status).toBe(400);
    expect(unaligned.body.error.message).toMatch(
      /required to be equal or greater than 262144, except for the final request/,
    );
    expect((await put(session, `bytes */${total}`)).headers.get('range')).toBeNull();

    const aligned = await put(session, `bytes 0-${2 * CHUNK - 1}/${total}`, 2 * CHUNK);
    expect([aligned.status, aligned.headers.get('range')]).toEqual([308, `bytes=0-${2 * CHUNK - 1}`]);
    const overOne = await put(session, `bytes ${2 * CHUNK}-${3 * CHUNK}/${total}`, CHUNK + 1);
    expect(overOne.status).toBe(400);
    expect((await put(session, `bytes ${2 * CHUNK}-${total - 1}/${total}`, CHUNK + 10)).status).toBe(201);
  });

  test('when the chunk rule is relaxed, then a small chunk before the final one is accepted', async () => {
    sandbox.state.youtube.limits.chunkMultipleBytes = null;
    try {
      const session = (await open(1000)).headers.get('location')!;
      expect((await put(session, 'bytes 0-599/1000', 600)).status).toBe(308);
      expect((await put(session, 'bytes 600-999/1000', 400)).status).toBe(201);
    } finally {
      sandbox.state.youtube.limits.chunkMultipleBytes = CHUNK;
    }
  });

  test('when the project is unaudited (the default), then an upload asked public comes back private, and videos.list part=status says so too', async () => {
    const session = (await open(10, { ...metadata, status: { privacyStatus: 'public' } })).headers.get('location')!;
    const done = await put(session, 'bytes 0-9/10', 10);
    expect(done.body.status).toMatchObject({ uploadStatus: 'uploaded', privacyStatus: 'private' });
    const listed = await call(`${sandbox.url}/youtube/v3/videos?part=status&id=${done.body.id}`, {
      token: channel.accessToken,
    });
    expect(listed.body.items).toEqual([
      {
        kind: 'youtube#video',
        id: done.body.id,
        status: expect.objectContaining({ uploadStatus: 'uploaded', privacyStatus: 'private' }),
      },
    ]);

    sandbox.state.youtube.limits.unauditedProject = false;
    try {
      const audited = (await open(10, { ...metadata, status: { privacyStatus: 'public' } })).headers.get('location')!;
      expect((await put(audited, 'bytes 0-9/10', 10)).body.status.privacyStatus).toBe('public');
    } finally {
      sandbox.state.youtube.limits.unauditedProject = true;
    }
  });

  test('when the title carries rejected-duplicate, then the finished upload is rejected with that reason and nothing goes live', async () => {
    const session = (
      await open(10, { ...metadata, snippet: { title: 'Again rejected-duplicate', description: '' } })
    ).headers.get('location')!;
    const done = await put(session, 'bytes 0-9/10', 10);
    expect(done.body.status).toMatchObject({ uploadStatus: 'rejected', rejectionReason: 'duplicate' });
    expect((await control(sandbox, 'GET', '/published?platform=youtube')).body).toEqual([]);
    const listed = await call(`${sandbox.url}/youtube/v3/videos?part=status&id=${done.body.id}`, {
      token: channel.accessToken,
    });
    expect(listed.body.items[0].status).toMatchObject({ uploadStatus: 'rejected', rejectionReason: 'duplicate' });
  });

  test('when the server keeps part of a chunk, then Range tells where to resume', async () => {
    sandbox.state.youtube.limits.maxStoredBytesPerRequest = 250;
    try {
      const session = (await open(2 * CHUNK)).headers.get('location')!;
      const res = await put(session, `bytes 0-${CHUNK - 1}/${2 * CHUNK}`, CHUNK);
      expect(res.headers.get('range')).toBe('bytes=0-249');
    } finally {
      sandbox.state.youtube.limits.maxStoredBytesPerRequest = null;
    }
  });

  test('when the older 1600-unit accounting is on, then the seventh insert of the day answers 403 quotaExceeded', async () => {
    sandbox.state.youtube.limits.quotaMode = 'units';
    for (let i = 0; i < 6; i++) expect((await open(10)).status).toBe(200);
    const over = await open(10);
    expect(over.status).toBe(403);
    expect(over.body.error.errors[0]).toMatchObject({ reason: 'quotaExceeded', domain: 'youtube.quota' });
  });

  test("when the channel's own upload cap is reached, then 400 uploadLimitExceeded", async () => {
    sandbox.state.youtube.limits.channelUploadsPer24h = 1;
    expect((await open(10)).status).toBe(200);
    const over = await open(10);
    expect([over.status, over.body.error.errors[0].reason]).toEqual([400, 'uploadLimitExceeded']);
  });

  test.each([
    [{ snippet: { title: '' }, status: {} }, 'invalidTitle'],
    [{ snippet: { title: 'a>b' }, status: {} }, 'invalidTitle'],
    [{ snippet: { title: 'T', description: 'x'.repeat(5001) }, status: {} }, 'invalidDescription'],
    [
      { snippet: { title: 'T' }, status: { privacyStatus: 'public', publishAt: '2030-01-01T00:00:00Z' } },
      'invalidPublishAt',
    ],
  ])('when the metadata is %j, then 400 %s', async (json, reason) => {
    const res = await open(10, json);
    expect([res.status, res.body.error.errors[0].reason]).toEqual([400, reason]);
  });

  test('when a thumbnail is set for the uploaded video, then it is recorded; an oversized one is refused', async () => {
    const session = (await open(10)).headers.get('location')!;
    const video = (await put(session, 'bytes 0-9/10', 10)).body;
    const thumb = (bytes: number) =>
      call(`${base}/thumbnails/set?videoId=${video.id}`, {
        token: channel.accessToken,
        headers: { 'content-type': 'image/png' },
        body: image(PNG, bytes),
      });

    expect((await thumb(100)).body.kind).toBe('youtube#thumbnailSetResponse');
    expect((await thumb(3 * 1024 * 1024)).body.error.errors[0].reason).toBe('invalidImage');
    expect((await control(sandbox, 'GET', '/published?platform=youtube')).body).toEqual([
      expect.objectContaining({ id: video.id, details: expect.objectContaining({ thumbnailBytes: 100 }) }),
    ]);
  });

  test('when the thumbnail bytes are not a JPEG or PNG, then 400 invalidImage whatever the Content-Type says; a JPEG sent as octet-stream is taken', async () => {
    const session = (await open(10)).headers.get('location')!;
    const video = (await put(session, 'bytes 0-9/10', 10)).body;
    const thumb = (type: string, body: Uint8Array) =>
      call(`${base}/thumbnails/set?videoId=${video.id}`, {
        token: channel.accessToken,
        headers: { 'content-type': type },
        body,
      });

    const gif = await thumb('image/jpeg', image(Buffer.from('GIF89a'), 100));
    const noImage = await thumb('image/png', new Uint8Array(100));
    const webp = await thumb('image/png', image(Buffer.from('RIFF\0\0\0\0WEBP'), 100));
    const tooLarge = await thumb('image/jpeg', image(JPEG, 2 * 1024 * 1024 + 1));
    const jpeg = await thumb('application/octet-stream', image(JPEG, 2 * 1024 * 1024));

    for (const refused of [gif, noImage, webp, tooLarge])
      expect([refused.status, refused.body.error.errors[0].reason]).toEqual([400, 'invalidImage']);
    expect([jpeg.status, jpeg.body.kind]).toEqual([200, 'youtube#thumbnailSetResponse']);
    expect((await control(sandbox, 'GET', '/published?platform=youtube')).body).toEqual([
      expect.objectContaining({ id: video.id, details: expect.objectContaining({ thumbnailBytes: 2 * 1024 * 1024 }) }),
    ]);
  });

  test('when the token is unknown, then 401 authError', async () => {
    const res = await call(`${base}/videos?uploadType=resumable&part=snippet,status`, {
      token: 'ya29.nope',
      json: metadata,
    });
    expect([res.status, res.body.error.errors[0].reason]).toEqual([401, 'authError']);
  });
});

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** `size` bytes starting with an image signature. */
function image(signature: Buffer, size: number): Uint8Array {
  const bytes = Buffer.alloc(size);
  signature.copy(bytes);
  return bytes;
}
