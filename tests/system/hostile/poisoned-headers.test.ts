import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { startLinkOrigin, type LinkOrigin } from './link-origin';
import { callTool } from '../support/mcp-client';
import { call, SystemHoldings, type Answer } from './support';

/**
 * Files whose first bytes are crafted to make a type detector loop or read past them: the
 * 64-byte ASF header of declared size 0 that once pinned media at 100 % CPU for good (it made
 * file-type 16.5.4 loop on the event loop), and headers that declare sizes past their end. They
 * arrive by every way in (multipart upload, link import, the agent's base64 tool), are refused
 * with 400 unsupported_media_type, leave no row and no object, and media answers as before.
 */

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let origin: LinkOrigin;
let holdings: SystemHoldings;
const mediaDir = join(tmpdir(), `postbus-poisoned-headers-${randomBytes(4).toString('hex')}`);

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
/** The ASF header object GUID, then zeros: its declared size is 0. */
const ASF_ZERO_SIZE = Buffer.concat([hex('3026b275 8e66cf11 a6d900aa 0062ce6c'), Buffer.alloc(48)]);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const POISONED: [string, Buffer][] = [
  ['an ASF header object of declared size 0', ASF_ZERO_SIZE],
  [
    'an ASF header object of declared size 0 followed by a megabyte',
    Buffer.concat([ASF_ZERO_SIZE, randomBytes(1024 * 1024)]),
  ],
  [
    'an EBML header whose elements declare sizes far past the file',
    hex('1a45dfa3 01ffffffffffff00 4282 01fffffffffffff0 7765626d 00000000'),
  ],
  ['an EBML header of unknown size', hex('1a45dfa3 ff 4286 81 01 4282 ff 7765626d')],
  [
    'an ftyp box of declared size 0',
    Buffer.concat([hex('00000000 66747970 69736f6d 00000200 69736f6d'), Buffer.alloc(64)]),
  ],
  ['a Matroska header (EBML, DocType "matroska")', hex('1a45dfa3 93 4286 81 01 4282 88 6d6174726f736b61 4287 81 04')],
];

beforeAll(async () => {
  env = await createTestEnv('hostile_poisoned_headers');
  system = await startSystem(env, {
    RATE_LIMIT_PER_MINUTE: '0',
    SCHEDULER_TICK_MS: '3600000',
    MEDIA_LOCAL_DIR: mediaDir,
  });
  account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
  origin = await startLinkOrigin({
    '/clip.mp4': { type: 'video/mp4', body: ASF_ZERO_SIZE },
    '/clip.asf': { type: 'video/x-ms-asf', body: ASF_ZERO_SIZE },
  });
  holdings = await SystemHoldings.open(env.databaseUrl, mediaDir);
});
afterAll(async () => {
  await holdings?.close();
  await origin?.close();
  await system?.stop();
  await env?.drop();
  await rm(mediaDir, { recursive: true, force: true });
});

/** POST /api/v1/media as a browser form sends it, claiming the type and name given. */
async function upload(bytes: Buffer, name: string, type: string): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const res = await fetch(`${system.baseUrl}/api/v1/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.apiKey}` },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
}

/** Media still takes files and serves them, and the health report says so. */
async function expectMediaAnswers(): Promise<void> {
  // A tail after IEND makes the file new, so it is stored rather than deduplicated.
  const png = Buffer.concat([PNG, randomBytes(16)]);
  const stored = await upload(png, 'after.png', 'image/png');
  expect({ status: stored.status, mediaId: stored.body.mediaId }).toEqual({
    status: 201,
    mediaId: expect.stringMatching(/^med_/),
  });
  const served = await fetch(stored.body.url);
  expect({ status: served.status, same: Buffer.from(await served.arrayBuffer()).equals(png) }).toEqual({
    status: 200,
    same: true,
  });
  const health = await call(system.baseUrl, 'get', '/api/health');
  expect(health.body.services.media).toBe('ok');
}

describe('poisoned media headers', () => {
  test('when the 64-byte ASF header is uploaded as clip.mp4, then 400 unsupported_media_type, nothing is stored, and media still answers', async () => {
    const before = await holdings.take();
    const answer = await upload(ASF_ZERO_SIZE, 'clip.mp4', 'video/mp4');
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: { error: expect.stringContaining('not of an accepted type'), code: 'unsupported_media_type' },
    });
    await holdings.expectNothingStoredSince(before);
    await expectMediaAnswers();
  });

  test('when a link to the 64-byte ASF header is imported, then 400 unsupported_media_type, nothing is stored, and media still answers', async () => {
    for (const path of ['/clip.mp4', '/clip.asf']) {
      const before = await holdings.take();
      const hits = origin.hits();
      const answer = await call(system.baseUrl, 'post', '/api/v1/media/from-url', {
        key: account.apiKey,
        body: { url: `${origin.url}${path}` },
      });
      expect({ path, status: answer.status, code: answer.body?.code }).toEqual({
        path,
        status: 400,
        code: 'unsupported_media_type',
      });
      // The file was downloaded (so its bytes were sniffed), not refused before.
      expect(origin.hits()).toBeGreaterThan(hits);
      await holdings.expectNothingStoredSince(before);
    }
    await expectMediaAnswers();
  });

  test('when an agent uploads the 64-byte ASF header with svc_upload_media, then the tool answers unsupported_media_type, nothing is stored, and media still answers', async () => {
    const before = await holdings.take();
    const answer = await callTool(
      system.baseUrl,
      'svc_upload_media',
      { content: ASF_ZERO_SIZE.toString('base64'), filename: 'clip.mp4' },
      account.apiKey,
    );
    expect({ status: answer.status, code: answer.error?.code }).toEqual({
      status: 200,
      code: 'unsupported_media_type',
    });
    await holdings.expectNothingStoredSince(before);
    await expectMediaAnswers();
  });

  test.each(POISONED)(
    'when %s is uploaded, then 400 unsupported_media_type and nothing is stored',
    async (_what, bytes) => {
      const before = await holdings.take();
      const answer = await upload(bytes, 'clip.webm', 'video/webm');
      expect({ status: answer.status, code: answer.body.code }).toEqual({
        status: 400,
        code: 'unsupported_media_type',
      });
      await holdings.expectNothingStoredSince(before);
    },
  );

  test('when every poisoned header has been sent by every way in, then media still answers', async () => {
    for (const [, bytes] of POISONED) {
      await upload(bytes, 'clip.mp4', 'video/mp4');
      await callTool(
        system.baseUrl,
        'svc_upload_media',
        { content: bytes.subarray(0, 64 * 1024).toString('base64') },
        account.apiKey,
      );
    }
    await call(system.baseUrl, 'post', '/api/v1/media/from-url', {
      key: account.apiKey,
      body: { url: `${origin.url}/clip.mp4` },
    });
    await expectMediaAnswers();
  });
});
