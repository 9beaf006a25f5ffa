import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { aJpeg, bodiesOf, calls, lastRequestSeq } from '@postbus/testing';
import { blueskyProfile } from './support/bluesky-profile';
import { publishedOn, startPublisherHarness, type PublisherHarness } from './support/harness';

let h: PublisherHarness;
let site: Server;
let siteUrl: string;
const thumb = aJpeg(20_000);

/** A web site with Open Graph pages: /launch (an image), /huge (an image over Bluesky's 1,000,000 bytes), /other. */
beforeAll(async () => {
  site = createServer((req, res) => {
    const page = (title: string, image: string) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<head><meta property="og:title" content="${title}"><meta property="og:description" content="About ${title}"><meta property="og:image" content="${image}"></head>`,
        );
    if (req.url === '/launch') return page('Launch', '/thumb.jpg');
    if (req.url === '/huge') return page('Huge', '/huge.jpg');
    if (req.url === '/other') return page('Other', '/thumb.jpg');
    if (req.url === '/thumb.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(thumb);
    if (req.url === '/huge.jpg') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(aJpeg(1_000_001));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  h = await startPublisherHarness('pub_bsky_cards', { env: { PLATFORM_REQUEST_TIMEOUT_MS: '1500' } });
});
afterAll(async () => {
  await h?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

/** Publishes a post and answers its outcome, the Bluesky calls made and the record written. */
async function publish(handle: string, caption: string, platformMeta?: Record<string, unknown>) {
  const bs = await blueskyProfile(h, handle);
  const since = lastRequestSeq(h.sandbox);
  const job = h.due(bs, { caption, ...(platformMeta && { platformMeta: { bluesky: platformMeta } }) });
  await h.publish(job);
  const outcome = await h.outcome(job.postId);
  const { lines, requests } = await calls(h.sandbox, 'bluesky', bs.userId, since);
  const [body] = bodiesOf(requests, 'POST', '/com.atproto.repo.createRecord') as { record: Record<string, any> }[];
  const [item] = (await publishedOn(h.sandbox, 'bluesky')).filter((p) => p.userId === bs.userId);
  return { outcome, lines, record: body?.record, item };
}

describe('Bluesky link cards', () => {
  test("when a text post has a link, then the first link's page becomes the card, its image uploaded as the thumb", async () => {
    const { outcome, lines, record, item } = await publish('card_sky', `New: ${siteUrl}/launch and ${siteUrl}/other`);

    expect(outcome.name).toBe('post.published');
    expect(outcome.data.warnings).toBeUndefined();
    expect(lines).toEqual([
      'POST /bluesky/xrpc/com.atproto.repo.uploadBlob',
      'POST /bluesky/xrpc/com.atproto.repo.createRecord',
    ]);
    expect(record.embed).toEqual({
      $type: 'app.bsky.embed.external',
      external: {
        uri: `${siteUrl}/launch`,
        title: 'Launch',
        description: 'About Launch',
        thumb: { $type: 'blob', ref: { $link: expect.any(String) }, mimeType: 'image/jpeg', size: thumb.length },
      },
    });
    expect(item).toMatchObject({ mediaType: 'external', bytes: thumb.length });
  });

  test('when platformMeta.bluesky.linkCard names a page or is false, then that page is the card, or there is none', async () => {
    const named = await publish('named_sky', `New: ${siteUrl}/launch`, { linkCard: `${siteUrl}/other` });
    const none = await publish('nocard_sky', `New: ${siteUrl}/launch`, { linkCard: false });

    expect(named.record.embed.external).toMatchObject({ uri: `${siteUrl}/other`, title: 'Other' });
    expect(none.lines).toEqual(['POST /bluesky/xrpc/com.atproto.repo.createRecord']);
    expect(none.record.embed).toBeUndefined();
  });

  test('when the linked page cannot be read, then the post goes out without a card and says so', async () => {
    const { outcome, lines, record } = await publish('lost_sky', `Gone: ${siteUrl}/missing`);

    expect(outcome).toMatchObject({
      name: 'post.published',
      data: {
        warnings: [
          {
            code: 'bluesky_link_card_skipped',
            message: `Posted without a link card: ${siteUrl}/missing answered HTTP 404.`,
          },
        ],
      },
    });
    expect(lines).toEqual(['POST /bluesky/xrpc/com.atproto.repo.createRecord']);
    expect(record.embed).toBeUndefined();
  });

  test("when the page's image is over 1,000,000 bytes, then the card goes out without a thumb and says so", async () => {
    const { outcome, lines, record } = await publish('huge_sky', `Big: ${siteUrl}/huge`);

    expect(outcome.data.warnings).toEqual([
      {
        code: 'bluesky_link_card_thumb_skipped',
        message: `The link card was posted without the page's image: ${siteUrl}/huge.jpg is larger than 1,000,000 bytes.`,
      },
    ]);
    expect(lines).toEqual(['POST /bluesky/xrpc/com.atproto.repo.createRecord']);
    expect(record.embed).toEqual({
      $type: 'app.bsky.embed.external',
      external: { uri: `${siteUrl}/huge`, title: 'Huge', description: 'About Huge' },
    });
  });
});
