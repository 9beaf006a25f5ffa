import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { aJpeg, anMp4 } from '@postbus/testing';
import { PlatformError } from '../src/errors';
import { callXrpc } from '../src/bluesky/api';
import {
  createBlueskyPost,
  createBlueskySession,
  getBlueskyPost,
  newTid,
  publishBlueskyThread,
  refreshBlueskySession,
  uploadBlueskyBlob,
  type BlueskySession,
} from '../src/bluesky/publish';
import { facetsOf, findLinks, findTags, graphemeLength } from '../src/bluesky/text';
import { readLinkPreview } from '../src/bluesky/link-card';
import { blueskyStrongRef } from '../src/bluesky/replies';
import { ATPROTO, startReferencePds, type PdsAccount, type ReferencePds } from './support/reference-pds';

/**
 * Against Bluesky's own reference PDS (@atproto/pds with a local PLC, run by @atproto/dev-env on
 * the Node.js 22 of tests/atproto): what we write must read back from the PDS exactly as sent.
 */
let reference: ReferencePds;
let node22: string;
let pdsUrl: string;
let alice: PdsAccount;
let bob: PdsAccount;
let session: BlueskySession;

beforeAll(async () => {
  reference = await startReferencePds(['alice', 'bob']);
  node22 = reference.node22;
  pdsUrl = reference.pdsUrl;
  [alice, bob] = reference.accounts;
  session = await createBlueskySession({ serviceUrl: pdsUrl }, alice.handle, alice.appPassword);
}, 600_000);

afterAll(async () => {
  await reference?.stop();
});

const api = () => ({ serviceUrl: pdsUrl, accessJwt: session.accessJwt });
const read = (rkey: string) => getBlueskyPost(api(), session.did, rkey);

describe('sessions with an app password', () => {
  test("when signing in with the app password, then the session is the account's, and it can be refreshed", async () => {
    expect(session).toMatchObject({ did: alice.did, handle: alice.handle });
    const refreshed = await refreshBlueskySession({ serviceUrl: pdsUrl }, session.refreshJwt);
    expect(refreshed).toMatchObject({ did: alice.did, handle: alice.handle });
    session = refreshed;
  });

  test("when the password is wrong or the token is not the account's, then the error says the session was refused", async () => {
    const wrong = await createBlueskySession({ serviceUrl: pdsUrl }, alice.handle, 'aaaa-bbbb-cccc-dddd').catch(
      (e: unknown) => e,
    );
    expect(wrong).toBeInstanceOf(PlatformError);
    expect(wrong).toMatchObject({ transient: false, tokenRejected: true, status: 401 });
    const forged = await createBlueskyPost({ serviceUrl: pdsUrl, accessJwt: 'not-a-jwt' }, session.did, newTid(), {
      text: 'x',
    }).catch((e: unknown) => e);
    expect(forged).toMatchObject({ tokenRejected: true });
  });
});

describe('posts written to the PDS read back exactly as sent', () => {
  test('when a text has a link, a hashtag, a mention and multi-byte characters, then the record carries facets at UTF-8 byte offsets', async () => {
    const text = `Grüße 👋🏽 to @${bob.handle}! Notes at https://example.com/launch?a=1. #LaunchDay ✨`;
    const facets = await facetsOf(text, async (h) => (h === bob.handle ? bob.did : undefined));
    const rkey = newTid();
    const created = await createBlueskyPost(api(), session.did, rkey, {
      text,
      langs: ['de', 'en'],
      createdAt: '2027-01-02T03:04:05.000Z',
    });
    expect(created.uri).toBe(`at://${session.did}/app.bsky.feed.post/${rkey}`);
    const stored = await read(rkey);
    expect(stored).toEqual({
      uri: created.uri,
      cid: created.cid,
      value: { $type: 'app.bsky.feed.post', text, facets, langs: ['de', 'en'], createdAt: '2027-01-02T03:04:05.000Z' },
    });
    const bytes = Buffer.from(text);
    expect(facets.map((f) => bytes.subarray(f.index.byteStart, f.index.byteEnd).toString())).toEqual([
      `@${bob.handle}`,
      'https://example.com/launch?a=1',
      '#LaunchDay',
    ]);
  });

  test('when the official client reads the same texts, then it finds the same graphemes, links and tags', async () => {
    const texts = [
      'plain',
      'a 👨‍👩‍👧‍👦 family and flags 🇩🇪🇯🇵',
      'see example.com/x, (https://a.b/c) and #tag. #123 #ünï',
      'link at end https://bsky.app/profile/x.',
      '＃fullwidth and #a_b-c!',
    ];
    const official = spawnSync(node22, [join(ATPROTO, 'rich-text.mjs')], {
      cwd: ATPROTO,
      input: JSON.stringify(texts),
      encoding: 'utf8',
    });
    expect(official.status).toBe(0);
    const theirs = JSON.parse(official.stdout) as {
      graphemes: number;
      facets: { index: unknown; features: { $type: string }[] }[];
    }[];
    texts.forEach((text, i) => {
      const ours = [...findLinks(text), ...findTags(text)].sort((a, b) => a.index.byteStart - b.index.byteStart);
      const expected = theirs[i].facets.filter((f) => f.features[0].$type !== 'app.bsky.richtext.facet#mention');
      expect({ text, graphemes: graphemeLength(text), facets: ours }).toEqual({
        text,
        graphemes: theirs[i].graphemes,
        facets: expected,
      });
    });
  });

  test('when a post carries images with alt text, then the embed reads back as sent and each blob returns its bytes', async () => {
    const files = [aJpeg(3000), aJpeg(5000)];
    const blobs = await Promise.all(files.map((f) => uploadBlueskyBlob(api(), f, 'image/jpeg')));
    const rkey = newTid();
    const images = blobs.map((blob, i) => ({
      blob,
      alt: `Photo ${i + 1}: a test card`,
      aspectRatio: { width: 16, height: 16 },
    }));
    await createBlueskyPost(api(), session.did, rkey, { text: 'two photos', images });
    const stored = await read(rkey);
    expect(stored?.value.embed).toEqual({
      $type: 'app.bsky.embed.images',
      images: images.map((i) => ({ image: i.blob, alt: i.alt, aspectRatio: i.aspectRatio })),
    });
    for (const [i, blob] of blobs.entries()) {
      const res = await fetch(`${pdsUrl}/xrpc/com.atproto.sync.getBlob?did=${session.did}&cid=${blob.ref.$link}`);
      expect(Buffer.from(await res.arrayBuffer()).equals(files[i])).toBe(true);
    }
  });

  test('when a post carries a video or a link card, then its embed reads back as sent', async () => {
    const video = await uploadBlueskyBlob(api(), anMp4(8000), 'video/mp4');
    const withVideo = newTid();
    await createBlueskyPost(api(), session.did, withVideo, {
      text: 'a clip',
      video: { blob: video, alt: 'A short clip' },
    });
    expect((await read(withVideo))?.value.embed).toEqual({ $type: 'app.bsky.embed.video', video, alt: 'A short clip' });
    const withCard = newTid();
    const external = { uri: 'https://example.com/launch', title: 'Launch', description: 'What we shipped' };
    await createBlueskyPost(api(), session.did, withCard, { text: 'read this', external });
    expect((await read(withCard))?.value.embed).toEqual({ $type: 'app.bsky.embed.external', external });
  });

  test('when a thread is published, then each part replies to the one before under the first; published again, nothing is duplicated', async () => {
    const parts = ['1/3 the start', '2/3 the middle', '3/3 the end'].map((text) => ({
      rkey: newTid(),
      record: { text },
    }));
    const first = await publishBlueskyThread(api(), session.did, parts);
    const again = await publishBlueskyThread(api(), session.did, parts);
    expect(again).toEqual(first);
    const stored = await Promise.all(parts.map((p) => read(p.rkey)));
    expect(stored[0]?.value.reply).toBeUndefined();
    expect(stored[1]?.value.reply).toEqual({
      root: { uri: first[0].uri, cid: first[0].cid },
      parent: { uri: first[0].uri, cid: first[0].cid },
    });
    expect(stored[2]?.value.reply).toEqual({
      root: { uri: first[0].uri, cid: first[0].cid },
      parent: { uri: first[1].uri, cid: first[1].cid },
    });
  });

  test('when a reply names its root and parent, then their strong refs are read from the PDS; a post that is gone cannot be answered', async () => {
    const rootKey = newTid();
    const root = await createBlueskyPost(api(), session.did, rootKey, { text: 'the root' });
    const ref = await blueskyStrongRef(api(), root.uri);
    expect(ref).toEqual({ uri: root.uri, cid: root.cid });
    const replyKey = newTid();
    await createBlueskyPost(api(), session.did, replyKey, { text: 'a reply', reply: { root: ref, parent: ref } });
    expect((await read(replyKey))?.value.reply).toEqual({ root: ref, parent: ref });

    const gone = await blueskyStrongRef(api(), `at://${session.did}/app.bsky.feed.post/${newTid()}`).catch(
      (e: unknown) => e,
    );
    const notAPost = await blueskyStrongRef(api(), `at://${session.did}/app.bsky.actor.profile/self`).catch(
      (e: unknown) => e,
    );
    expect([gone, notAPost]).toEqual([
      expect.objectContaining({ code: 'reply_parent_missing', transient: false }),
      expect.objectContaining({ code: 'reply_parent_missing', transient: false }),
    ]);
  });

  test('when the same record key is written twice, then the PDS refuses the second and the first is found by its key', async () => {
    const rkey = newTid();
    await createBlueskyPost(api(), session.did, rkey, { text: 'only once' });
    const second = await createBlueskyPost(api(), session.did, rkey, { text: 'only once' }).catch((e: unknown) => e);
    // The reference PDS answers 500 for a key already taken: never a second record.
    expect(second).toBeInstanceOf(PlatformError);
    expect(await read(rkey)).toMatchObject({ value: { text: 'only once' } });
    const list = await callXrpc<{ records: { value: { text: string } }[] }>(api(), {
      method: 'GET',
      nsid: 'com.atproto.repo.listRecords',
      query: { repo: session.did, collection: 'app.bsky.feed.post', limit: '100' },
    });
    expect(list.records.filter((r) => r.value.text === 'only once')).toHaveLength(1);
  });

  test('when a text is 300 graphemes of many bytes, then it is accepted; at 301 it is refused before any call', async () => {
    const rkey = newTid();
    await createBlueskyPost(api(), session.did, rkey, { text: '👍🏽'.repeat(300) });
    expect((await read(rkey))?.value.text).toBe('👍🏽'.repeat(300));
    const tooLong = await createBlueskyPost(
      { serviceUrl: 'http://127.0.0.1:9', accessJwt: 'unused' },
      session.did,
      newTid(),
      { text: '👍🏽'.repeat(301) },
    ).catch((e: unknown) => e);
    expect(tooLong).toMatchObject({ code: 'text_too_long', transient: false });
  });
});

describe('link cards read from the linked page', () => {
  const thumb = aJpeg(40_000);
  let site: Server;
  let siteUrl: string;

  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/launch')
        return void res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<html><head><meta property="og:title" content="Launch day 🚀"><meta property="og:description" content="What we shipped &amp; why"><meta property="og:image" content="/card.jpg"></head><body></body></html>`,
          );
      if (req.url === '/card.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(thumb);
      if (req.url === '/big.jpg')
        return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(aJpeg(1_000_001));
      const image = { '/big': ['Big', '/big.jpg'], '/not-image': ['Not an image', '/launch'] }[req.url ?? ''];
      if (image)
        return void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<title>${image[0]}</title><meta property="og:image" content="${image[1]}">`);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => site.close(resolve)));

  test('when a post links a page with Open Graph tags, then the card and its thumb read back from the PDS exactly as the page gave them', async () => {
    const preview = await readLinkPreview(`${siteUrl}/launch`, { access: { allowLoopback: true } });
    expect(preview).toMatchObject({ title: 'Launch day 🚀', description: 'What we shipped & why' });
    const blob = await uploadBlueskyBlob(api(), preview.image!.bytes, preview.image!.contentType);
    const rkey = newTid();
    const external = { uri: preview.uri, title: preview.title, description: preview.description, thumb: blob };
    await createBlueskyPost(api(), session.did, rkey, { text: `Read ${siteUrl}/launch`, external });

    expect((await read(rkey))?.value.embed).toEqual({ $type: 'app.bsky.embed.external', external });
    expect(blob).toMatchObject({ mimeType: 'image/jpeg', size: thumb.length });
    const res = await fetch(`${pdsUrl}/xrpc/com.atproto.sync.getBlob?did=${session.did}&cid=${blob.ref.$link}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(thumb)).toBe(true);
  });

  test('when a thumb is over 1,000,000 bytes or not an image, then the PDS refuses the record', async () => {
    const card = { uri: 'https://example.com/', title: 't', description: 'd' };
    const big = await uploadBlueskyBlob(api(), aJpeg(1_000_001), 'image/jpeg');
    const video = await uploadBlueskyBlob(api(), anMp4(4000), 'video/mp4');
    const refused = await Promise.all(
      [big, video].map((thumb) =>
        createBlueskyPost(api(), session.did, newTid(), { text: 'card', external: { ...card, thumb } }).catch(
          (e: unknown) => e,
        ),
      ),
    );
    expect(refused.map((e) => [(e as PlatformError).code, (e as PlatformError).status, (e as Error).message])).toEqual([
      [
        'InvalidRequest',
        400,
        'Bluesky refused com.atproto.repo.createRecord (InvalidRequest: Invalid app.bsky.feed.post record: blob too big (maximum 1000000, got 1000001) at $.record.embed.external.thumb).',
      ],
      [
        'InvalidRequest',
        400,
        'Bluesky refused com.atproto.repo.createRecord (InvalidRequest: Invalid app.bsky.feed.post record: Expected "image/*" (got "video/mp4") at $.record.embed.external.thumb.mimeType).',
      ],
    ]);
  });

  test('when the page names an image over 1,000,000 bytes or no image at all, then the card comes without a thumb and says why', async () => {
    const big = await readLinkPreview(`${siteUrl}/big`, { access: { allowLoopback: true } });
    const notImage = await readLinkPreview(`${siteUrl}/not-image`, { access: { allowLoopback: true } });
    expect([big, notImage]).toEqual([
      {
        uri: `${siteUrl}/big`,
        title: 'Big',
        description: '',
        imageSkipped: `${siteUrl}/big.jpg is larger than 1,000,000 bytes`,
      },
      {
        uri: `${siteUrl}/not-image`,
        title: 'Not an image',
        description: '',
        imageSkipped: `${siteUrl}/launch is not a JPEG, PNG, WebP or GIF image`,
      },
    ]);
  });

  test('when the page cannot be read or is no web page, then there is no card, with the reason', async () => {
    const missing = await readLinkPreview(`${siteUrl}/gone`, { access: { allowLoopback: true } }).catch(
      (e: unknown) => e,
    );
    const image = await readLinkPreview(`${siteUrl}/card.jpg`, { access: { allowLoopback: true } }).catch(
      (e: unknown) => e,
    );
    const closed = await readLinkPreview('http://127.0.0.1:9/', { access: { allowLoopback: true } }).catch(
      (e: unknown) => e,
    );
    const inside = await readLinkPreview(`${siteUrl}/launch`, { access: { allowLoopback: false } }).catch(
      (e: unknown) => e,
    );
    expect([missing, image, closed, inside].map((e) => [(e as Error).name, (e as Error).message])).toEqual([
      ['LinkPreviewUnavailable', `${siteUrl}/gone answered HTTP 404`],
      ['LinkPreviewUnavailable', `${siteUrl}/card.jpg is not a web page (image/jpeg)`],
      ['LinkPreviewUnavailable', expect.stringMatching(/^http:\/\/127\.0\.0\.1:9\/ could not be read/)],
      ['LinkPreviewUnavailable', expect.stringMatching(/could not be read/)],
    ]);
  });
});
