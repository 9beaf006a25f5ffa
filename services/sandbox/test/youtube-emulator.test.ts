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

const metadata = { snippet: { title: 'T', description: 'D' }, status: { privacyStatus: 'private' } };
const open = (size: number, json: unknown = metadata) =>
  call(`${base}/videos?uploadType=resumable&part=snippet,status`, { token: channel.accessToken, json, headers: { 'x-upload-content-length': String(size), 'x-upload-content-type': 'video/mp4' } });
const put = (session: string, range: string, bytes = 0) =>
  call(session, { method: 'PUT', token: channel.accessToken, headers: { 'content-range': range, 'content-type': 'video/mp4' }, ...(bytes && { body: new Uint8Array(bytes) }) });

describe('the YouTube resumable upload emulator', () => {
  test('when a session is opened and bytes sent in chunks, then 308 with Range until the last, which answers 201 with the video', async () => {
    const session = (await open(1000)).headers.get('location')!;
    expect(session).toMatch(/\/youtube\/upload\/youtube\/v3\/videos\?uploadType=resumable&upload_id=/);

    const probe0 = await put(session, 'bytes */1000');
    expect(probe0.status).toBe(308);
    expect(probe0.headers.get('range')).toBeNull();
    const first = await put(session, 'bytes 0-599/1000', 600);
    expect([first.status, first.headers.get('range')]).toEqual([308, 'bytes=0-599']);
    const last = await put(session, 'bytes 600-999/1000', 400);
    expect(last.status).toBe(201);
    expect(last.body).toMatchObject({ kind: 'youtube#video', id: expect.any(String), status: { uploadStatus: 'uploaded', privacyStatus: 'private' } });
    const probe = await put(session, 'bytes */1000');
    expect([probe.status, probe.body.id]).toEqual([200, last.body.id]);
  });

  test('when the server keeps part of a chunk, then Range tells where to resume', async () => {
    sandbox.state.youtube.limits.maxStoredBytesPerRequest = 250;
    try {
      const session = (await open(1000)).headers.get('location')!;
      const res = await put(session, 'bytes 0-599/1000', 600);
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
    [{ snippet: { title: 'T' }, status: { privacyStatus: 'public', publishAt: '2030-01-01T00:00:00Z' } }, 'invalidPublishAt'],
  ])('when the metadata is %j, then 400 %s', async (json, reason) => {
    const res = await open(10, json);
    expect([res.status, res.body.error.errors[0].reason]).toEqual([400, reason]);
  });

  test('when a thumbnail is set for the uploaded video, then it is recorded; an oversized one is refused', async () => {
    const session = (await open(10)).headers.get('location')!;
    const video = (await put(session, 'bytes 0-9/10', 10)).body;
    const thumb = (bytes: number) => call(`${base}/thumbnails/set?videoId=${video.id}`, { token: channel.accessToken, headers: { 'content-type': 'image/png' }, body: new Uint8Array(bytes) });

    expect((await thumb(100)).body.kind).toBe('youtube#thumbnailSetResponse');
    expect((await thumb(3 * 1024 * 1024)).body.error.errors[0].reason).toBe('invalidImage');
    expect((await control(sandbox, 'GET', '/published?platform=youtube')).body).toEqual([expect.objectContaining({ id: video.id, details: expect.objectContaining({ thumbnailBytes: 100 }) })]);
  });

  test('when the token is unknown, then 401 authError', async () => {
    const res = await call(`${base}/videos?uploadType=resumable&part=snippet,status`, { token: 'ya29.nope', json: metadata });
    expect([res.status, res.body.error.errors[0].reason]).toEqual([401, 'authError']);
  });
});
