import { aJpeg, anMp4 } from '@postbus/testing';
import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

const xrpc = (nsid: string, query = '') => `${sandbox.url}/bluesky/xrpc/${nsid}${query}`;
let tidCounter = 0;
/** A fresh, valid record key (https://atproto.com/specs/tid). */
const aTid = () =>
  `3l${(Date.now() * 10 + tidCounter++).toString(32).replace(/[01]/g, '2').replace(/[89]/g, 'a').padStart(11, 'a').slice(-11)}`;

async function signIn(handle: string) {
  const user = await newUser(sandbox, 'bluesky', handle);
  const session = await call(xrpc('com.atproto.server.createSession'), {
    json: { identifier: user.handle, password: user.accessToken },
  });
  expect(session.status).toBe(200);
  return { user, ...(session.body as { did: string; handle: string; accessJwt: string; refreshJwt: string }) };
}

const post = (s: { did: string; accessJwt: string }, record: Record<string, unknown>, rkey = aTid()) =>
  call(xrpc('com.atproto.repo.createRecord'), {
    token: s.accessJwt,
    json: {
      repo: s.did,
      collection: 'app.bsky.feed.post',
      rkey,
      record: { $type: 'app.bsky.feed.post', createdAt: '2026-11-25T10:00:00.000Z', ...record },
    },
  });

describe('sessions', () => {
  test('when an account signs in with its handle and app password, then it gets a DID, a domain handle and session JWTs that refresh; the app password itself is no bearer token', async () => {
    const s = await signIn('sky_writer');
    expect(s).toMatchObject({
      did: expect.stringMatching(/^did:plc:[a-z2-7]{24}$/),
      handle: 'sky-writer.bsky.social',
      accessJwt: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
    });

    const refreshed = await call(xrpc('com.atproto.server.refreshSession'), { method: 'POST', token: s.refreshJwt });
    expect(refreshed).toMatchObject({ status: 200, body: { did: s.did, handle: s.handle } });
    expect(refreshed.body.refreshJwt).not.toBe(s.refreshJwt);
    const withPassword = await call(xrpc('com.atproto.repo.uploadBlob'), {
      token: s.user.accessToken,
      body: aJpeg(2048),
      headers: { 'content-type': 'image/jpeg' },
    });
    const accessAsRefresh = await call(xrpc('com.atproto.server.refreshSession'), {
      method: 'POST',
      token: s.accessJwt,
    });
    const wrong = await call(xrpc('com.atproto.server.createSession'), {
      json: { identifier: s.handle, password: 'aaaa-bbbb-cccc-dddd' },
    });
    expect(withPassword).toMatchObject({ status: 401, body: { error: 'InvalidToken' } });
    expect(accessAsRefresh).toMatchObject({
      status: 400,
      body: { error: 'InvalidToken', message: 'Invalid token type' },
    });
    expect(wrong).toMatchObject({
      status: 401,
      body: { error: 'AuthenticationRequired', message: 'Invalid identifier or password' },
    });
  });

  test('when a handle is resolved, then the DID answers; an unknown handle does not resolve', async () => {
    const s = await signIn('resolvable');
    expect(await call(xrpc('com.atproto.identity.resolveHandle', `?handle=${s.handle}`))).toMatchObject({
      status: 200,
      body: { did: s.did },
    });
    expect(await call(xrpc('com.atproto.identity.resolveHandle', '?handle=nobody.bsky.social'))).toMatchObject({
      status: 400,
      body: { error: 'InvalidRequest', message: 'Unable to resolve handle' },
    });
  });
});

describe('records', () => {
  test('when a post with two images is written under a key, then it reads back as sent, lists, is published with its permalink, and the requests were received as sent', async () => {
    const s = await signIn('photo_sky');
    const since = (await control(sandbox, 'GET', '/requests?platform=bluesky')).body.at(-1)?.seq ?? 0;
    const bytes = aJpeg(4000);
    const upload = await call(xrpc('com.atproto.repo.uploadBlob'), {
      token: s.accessJwt,
      body: bytes,
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(upload).toMatchObject({
      status: 200,
      body: {
        blob: {
          $type: 'blob',
          ref: { $link: expect.stringMatching(/^bafkrei[a-z2-7]+$/) },
          mimeType: 'image/jpeg',
          size: 4000,
        },
      },
    });
    const blob = upload.body.blob;
    const rkey = aTid();
    const record = {
      text: 'two views #sky',
      embed: {
        $type: 'app.bsky.embed.images',
        images: [
          { image: blob, alt: 'North' },
          { image: blob, alt: '' },
        ],
      },
      langs: ['en'],
    };
    const created = await post(s, record, rkey);
    expect(created).toMatchObject({
      status: 200,
      body: {
        uri: `at://${s.did}/app.bsky.feed.post/${rkey}`,
        cid: expect.stringMatching(/^bafyrei/),
        validationStatus: 'valid',
      },
    });

    const got = await call(
      xrpc('com.atproto.repo.getRecord', `?repo=${s.did}&collection=app.bsky.feed.post&rkey=${rkey}`),
    );
    const listed = await call(xrpc('com.atproto.repo.listRecords', `?repo=${s.handle}&collection=app.bsky.feed.post`));
    const publishedList = await control(sandbox, 'GET', '/published?platform=bluesky');
    const received = (await control(sandbox, 'GET', `/requests?platform=bluesky&since=${since}`)).body;
    expect(got.body).toEqual({
      uri: created.body.uri,
      cid: created.body.cid,
      value: { $type: 'app.bsky.feed.post', createdAt: '2026-11-25T10:00:00.000Z', ...record },
    });
    expect(listed.body.records).toEqual([got.body]);
    expect(publishedList.body.find((p: { id: string }) => p.id === created.body.uri)).toMatchObject({
      platform: 'bluesky',
      text: 'two views #sky',
      handle: s.handle,
      mediaType: 'images',
      permalink: `https://bsky.app/profile/${s.handle}/post/${rkey}`,
      details: { rkey, alts: ['North', ''] },
    });
    expect(
      received.map((r: { method: string; path: string; authScheme: string | null; bodyBytes: number | null }) => [
        r.method,
        r.path,
        r.authScheme,
        r.bodyBytes,
      ]),
    ).toEqual([
      ['POST', '/bluesky/xrpc/com.atproto.repo.uploadBlob', 'Bearer', 4000],
      ['POST', '/bluesky/xrpc/com.atproto.repo.createRecord', 'Bearer', null],
      ['GET', '/bluesky/xrpc/com.atproto.repo.getRecord', null, null],
      ['GET', '/bluesky/xrpc/com.atproto.repo.listRecords', null, null],
    ]);
    expect(received[1].body).toEqual({
      repo: s.did,
      collection: 'app.bsky.feed.post',
      rkey,
      record: { $type: 'app.bsky.feed.post', createdAt: '2026-11-25T10:00:00.000Z', ...record },
    });
  });

  test("when a write breaks the lexicon or the PDS's rules, then each is refused as the PDS refuses it and nothing is stored", async () => {
    const s = await signIn('strict_sky');
    const other = await signIn('other_sky');
    const blob = (
      await call(xrpc('com.atproto.repo.uploadBlob'), {
        token: s.accessJwt,
        body: aJpeg(500),
        headers: { 'content-type': 'image/jpeg' },
      })
    ).body.blob;
    const foreign = (
      await call(xrpc('com.atproto.repo.uploadBlob'), {
        token: other.accessJwt,
        body: aJpeg(600),
        headers: { 'content-type': 'image/jpeg' },
      })
    ).body.blob;
    const image = (alt?: string, b = blob) => ({ image: b, ...(alt !== undefined && { alt }) });
    const upload = async (body: Buffer, type: string) =>
      (await call(xrpc('com.atproto.repo.uploadBlob'), { token: s.accessJwt, body, headers: { 'content-type': type } }))
        .body.blob;
    const [bigJpeg, clip] = [await upload(aJpeg(1_000_001), 'image/jpeg'), await upload(anMp4(4000), 'video/mp4')];
    const card = (thumb: unknown) => ({
      $type: 'app.bsky.embed.external',
      external: { uri: 'https://example.com/', title: 't', description: 'd', thumb },
    });
    const taken = aTid();
    expect((await post(s, { text: 'first' }, taken)).status).toBe(200);

    const cases: [string, Promise<{ status: number; body: any }>, number, string, RegExp | string][] = [
      [
        '301 graphemes',
        post(s, { text: '👍🏽'.repeat(301) }),
        400,
        'InvalidRequest',
        'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes',
      ],
      [
        'over 3000 bytes',
        post(s, { text: 'ü'.repeat(1501) }),
        400,
        'InvalidRequest',
        /Record\/text must not be longer than 3000 characters/,
      ],
      [
        '5 images',
        post(s, {
          text: 'x',
          embed: { $type: 'app.bsky.embed.images', images: [1, 2, 3, 4, 5].map(() => image('a')) },
        }),
        400,
        'InvalidRequest',
        /Record\/embed\/images must not have more than 4 elements/,
      ],
      [
        'an image without alt',
        post(s, { text: 'x', embed: { $type: 'app.bsky.embed.images', images: [image()] } }),
        400,
        'InvalidRequest',
        /Record\/embed\/images\/0 must have the property "alt"/,
      ],
      [
        'a blob it does not hold',
        post(s, { text: 'x', embed: { $type: 'app.bsky.embed.images', images: [image('a', foreign)] } }),
        400,
        'BlobNotFound',
        `Could not find blob: ${foreign.ref.$link}`,
      ],
      [
        'a blob of another type',
        post(s, {
          text: 'x',
          embed: { $type: 'app.bsky.embed.images', images: [image('a', { ...blob, mimeType: 'image/png' })] },
        }),
        400,
        'InvalidMimeType',
        /Referenced Mimetype does not match/,
      ],
      [
        'a link card thumb over 1,000,000 bytes',
        post(s, { text: 'x', embed: card(bigJpeg) }),
        400,
        'InvalidRequest',
        'Invalid app.bsky.feed.post record: blob too big (maximum 1000000, got 1000001) at $.record.embed.external.thumb',
      ],
      [
        'a link card thumb that is a video',
        post(s, { text: 'x', embed: card(clip) }),
        400,
        'InvalidRequest',
        'Invalid app.bsky.feed.post record: Expected "image/*" (got "video/mp4") at $.record.embed.external.thumb.mimeType',
      ],
      ['a taken key', post(s, { text: 'second' }, taken), 500, 'InternalServerError', 'Internal Server Error'],
      ['a key that is not a TID', post(s, { text: 'x' }, 'self'), 400, 'InvalidRequest', /Invalid record key/],
      [
        'no createdAt',
        call(xrpc('com.atproto.repo.createRecord'), {
          token: s.accessJwt,
          json: { repo: s.did, collection: 'app.bsky.feed.post', record: { $type: 'app.bsky.feed.post', text: 'x' } },
        }),
        400,
        'InvalidRequest',
        /Record must have the property "createdAt"/,
      ],
      [
        "another account's repo",
        post({ did: other.did, accessJwt: s.accessJwt }, { text: 'x' }),
        401,
        'AuthenticationRequired',
        'Authentication Required',
      ],
      [
        'no session',
        call(xrpc('com.atproto.repo.createRecord'), {
          json: { repo: s.did, collection: 'app.bsky.feed.post', record: {} },
        }),
        401,
        'AuthenticationRequired',
        'Authentication Required',
      ],
    ];
    for (const [what, answer, status, error, message] of cases) {
      const res = await answer;
      expect({ what, status: res.status, error: res.body?.error }).toEqual({ what, status, error });
      expect(res.body.message).toMatch(message);
    }
    const listed = await call(xrpc('com.atproto.repo.listRecords', `?repo=${s.did}&collection=app.bsky.feed.post`));
    expect(listed.body.records.map((r: { value: { text: string } }) => r.value.text)).toEqual(['first']);
    expect(
      await call(xrpc('com.atproto.repo.getRecord', `?repo=${s.did}&collection=app.bsky.feed.post&rkey=${aTid()}`)),
    ).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } });
  });

  test('when a createRecord answer is lost to a timeout fault, then the post exists under its key and a second write of that key is refused', async () => {
    const s = await signIn('lossy_sky');
    await control(sandbox, 'POST', '/faults', { platform: 'bluesky', mode: 'timeout', operation: 'publish', count: 1 });
    const rkey = aTid();
    const lost = await Promise.race([
      post(s, { text: 'lost answer' }, rkey).then(() => 'answered'),
      waitForRecord(s.did, rkey).then(() => 'stored'),
    ]);
    expect(lost).toBe('stored');
    await control(sandbox, 'POST', '/faults', {
      platform: 'bluesky',
      mode: 'throttle',
      operation: 'publish',
      count: 1,
    });
    const throttled = await post(s, { text: 'later' });
    expect(throttled).toMatchObject({ status: 429, body: { error: 'RateLimitExceeded' } });
    expect(Number(throttled.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect((await post(s, { text: 'lost answer' }, rkey)).status).toBe(500);
  });
});

async function waitForRecord(did: string, rkey: string): Promise<void> {
  for (;;) {
    const got = await call(
      xrpc('com.atproto.repo.getRecord', `?repo=${did}&collection=app.bsky.feed.post&rkey=${rkey}`),
    );
    if (got.status === 200) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
