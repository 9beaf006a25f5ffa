import { Client } from '@xdevplatform/xdk';
import { aJpeg } from '@postbus/testing';
import { startSandbox, type RunningSandbox } from '../src/main';
import { control, newUser } from './emulator-client';

/**
 * X's own TypeScript SDK (@xdevplatform/xdk, https://docs.x.com/xdks/typescript/overview) against
 * the emulator: it sends uploads and appends as JSON with the bytes in base64 and camelCase turned
 * into X's snake_case names. Postbus's client sends multipart; the emulator must take both as X does.
 */
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

const received = async (since: number) =>
  (
    (await control(sandbox, 'GET', `/requests?platform=x&since=${since}`)).body as {
      method: string;
      path: string;
      query: Record<string, string>;
      bodyBytes: number | null;
    }[]
  ).map((r) => `${r.method} ${r.path}${r.query.command ? `?command=${r.query.command}` : ''}`);

describe("X's official SDK against the emulated X API", () => {
  test('when the SDK reads the user, uploads an image and a chunked video, and posts a reply with media, then every call succeeds with the answers X gives', async () => {
    const user = await newUser(sandbox, 'x', 'x_sdk');
    const client = new Client({ baseUrl: `${sandbox.url}/x`, accessToken: user.accessToken });
    const since = ((await control(sandbox, 'GET', '/requests')).body as { seq: number }[]).at(-1)?.seq ?? 0;

    const me = await client.users.getMe();
    const image = await client.media.upload({
      media: aJpeg(3000).toString('base64'),
      mediaCategory: 'tweet_image',
    });
    const video = await client.media.initializeUpload({
      mediaType: 'video/mp4',
      totalBytes: 6,
      mediaCategory: 'tweet_video',
    });
    await client.media.appendUpload(video.data!.id, {
      media: Buffer.from('abcdef').toString('base64'),
      segmentIndex: 0,
    });
    const finalized = await client.media.finalizeUpload(video.data!.id);
    const status = await client.media.getUploadStatus(video.data!.id, { command: 'STATUS' });
    const root = await client.posts.create({ text: 'From the SDK', media: { mediaIds: [image.data!.id] } });
    const reply = await client.posts.create({
      text: 'A reply with the clip',
      media: { mediaIds: [video.data!.id] },
      reply: { inReplyToTweetId: root.data!.id },
    });

    expect(me.data).toMatchObject({ id: user.userId, username: 'x_sdk' });
    expect(finalized.data).toMatchObject({ id: video.data!.id, processingInfo: { state: 'succeeded' } });
    expect(status.data).toMatchObject({ processingInfo: { state: 'succeeded' } });
    expect(reply.data).toMatchObject({ id: expect.stringMatching(/^\d+$/), text: 'A reply with the clip' });
    const published = sandbox.state.x.posts.get(reply.data!.id);
    expect(published).toMatchObject({ inReplyTo: root.data!.id, mediaIds: [video.data!.id] });
    expect(sandbox.state.x.media.get(image.data!.id)).toMatchObject({ totalBytes: 3000, category: 'tweet_image' });
    expect(await received(since)).toEqual([
      'GET /x/2/users/me',
      'POST /x/2/media/upload',
      'POST /x/2/media/upload/initialize',
      `POST /x/2/media/upload/${video.data!.id}/append`,
      `POST /x/2/media/upload/${video.data!.id}/finalize`,
      'GET /x/2/media/upload?command=STATUS',
      'POST /x/2/tweets',
      'POST /x/2/tweets',
    ]);
  });

  test('when the SDK posts a text longer than X allows, then it gets the problem answer X sends', async () => {
    const user = await newUser(sandbox, 'x', 'x_sdk_long');
    const client = new Client({ baseUrl: `${sandbox.url}/x`, accessToken: user.accessToken });

    await expect(client.posts.create({ text: 'y'.repeat(281) })).rejects.toMatchObject({
      status: 400,
      data: { title: 'Invalid Request', type: 'https://api.twitter.com/2/problems/invalid-request' },
    });
  });
});
