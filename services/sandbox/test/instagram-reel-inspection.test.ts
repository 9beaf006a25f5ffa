import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeTestMedia, waitFor, type TestMedia } from '@postbus/testing';
import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

let sandbox: RunningSandbox;
let files: TestMedia;
let host: Server;
let hostUrl: string;
let user: { userId: string; accessToken: string; handle: string };

/** Stands in for Postbus's media listener: stored files under /files/. */
beforeAll(async () => {
  [sandbox, files] = await Promise.all([startSandbox({ port: 0, processingDelayMs: 0 }), makeTestMedia()]);
  const served: Record<string, string> = {
    portrait: files.portraitMp4,
    short: files.hevcMov,
    wide: files.wideMp4,
    slow: files.slowMp4,
  };
  host = createServer((req, res) => {
    const name = /^\/files\/(\w+)/.exec(req.url ?? '')?.[1];
    const path = name && served[name];
    if (!path) return void res.writeHead(404).end();
    void readFile(path).then((bytes) =>
      res
        .writeHead(200, {
          'content-type': path.endsWith('.mov') ? 'video/quicktime' : 'video/mp4',
          'content-length': bytes.length,
        })
        .end(bytes),
    );
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
afterAll(async () => {
  host?.closeAllConnections();
  await new Promise((resolve) => (host ? host.close(resolve) : resolve(undefined)));
  await Promise.all([sandbox?.close(), files?.remove()]);
});
beforeEach(async () => {
  await control(sandbox, 'POST', '/reset');
  user = await newUser(sandbox, 'instagram', 'ig.reels');
});

const base = () => `${sandbox.url}/instagram/v21.0`;

/** Creates a reel container of a stored file and answers its status once processing ended. */
async function processedReel(name: string): Promise<{ status_code: string; status: string }> {
  const created = await call(`${base()}/${user.userId}/media`, {
    token: user.accessToken,
    form: { media_type: 'REELS', video_url: `${hostUrl}/files/${name}?sig=x`, caption: 'reel' },
  });
  expect(created.status).toBe(200);
  const { id, ...status } = await waitFor(
    async () => {
      const now: { id: string; status_code: string; status: string } = (
        await call(`${base()}/${created.body.id}?fields=status_code,status`, { token: user.accessToken })
      ).body;
      return now.status_code === 'IN_PROGRESS' ? undefined : now;
    },
    { what: 'the reel to be processed' },
  );
  expect(id).toBe(created.body.id);
  return status;
}

describe('the Instagram emulator reads a reel like Instagram', () => {
  test('when the reel is a 9:16 H.264 video of 4 s, then the container is FINISHED', async () => {
    expect((await processedReel('portrait')).status_code).toBe('FINISHED');
  });

  test('when the reel lasts 2 s (reels last at least 3 s), then the container ends in ERROR 2207026', async () => {
    expect(await processedReel('short')).toEqual({ status_code: 'ERROR', status: 'Error: 352/2207026' });
  });

  test('when the reel is 11:1 (reels take up to 10:1), then the container ends in ERROR 2207009', async () => {
    expect(await processedReel('wide')).toEqual({ status_code: 'ERROR', status: 'Error: -1/2207009' });
  });

  test('when the reel has 12 frames a second (reels take 23 to 60), then the container ends in ERROR 2207026', async () => {
    expect((await processedReel('slow')).status).toBe('Error: 352/2207026');
  });
});
