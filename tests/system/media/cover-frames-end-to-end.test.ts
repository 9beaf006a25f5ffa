import { readFile } from 'node:fs/promises';
import { waitFor } from '@postbus/testing';
import { useSystem } from '../support/use-system';

const ctx = useSystem('cover_frames_e2e', {
  env: { PLATFORM_POLL_INTERVAL_MS: '200', PLATFORM_POLL_MAX_INTERVAL_MS: '500' },
  files: true,
  account: { platforms: ['instagram', 'youtube', 'facebook', 'mastodon'], plan: 'pro' },
});

async function call(path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${ctx.system.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${ctx.account.apiKey}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Uploads through the real media service; answers the media id and its signed URL. */
async function upload(path: string, type: string): Promise<{ mediaId: string; url: string }> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(path)], { type }), path.split('/').pop());
  const res = await fetch(`${ctx.system.baseUrl}/api/v1/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.account.apiKey}` },
    body: form,
  });
  const body = (await res.json()) as { mediaId: string; url: string };
  if (res.status !== 201) throw new Error(`media did not take ${path} (${res.status})`);
  return body;
}

function outcomeOf(postId: string): Promise<any> {
  return waitFor(
    async () => {
      const r = await call(`/api/v1/posts/${postId}`);
      return ['posted', 'failed'].includes(r.body.status) ? r.body : undefined;
    },
    { timeoutMs: 45_000, intervalMs: 100, what: `post ${postId} to end` },
  );
}

async function publishedOn(platform: string, text: string): Promise<any> {
  const res = await fetch(`${ctx.system.sandboxUrl}/__sandbox/published?platform=${platform}`);
  const body = (await res.json()) as { items: any[] } | any[];
  return (Array.isArray(body) ? body : body.items).find((p) => p.text === text || p.title === text);
}

const idOf = (url: string) => new URL(url).pathname.split('/').pop()!;

describe('normalize: a cover frame for a video posted without a cover', () => {
  test('when a 9:16 video goes to Instagram as a reel with normalize and thumbOffsetMs 2500, then the reel carries a JPEG cover of that frame, made once for the same bytes', async () => {
    const { mediaId } = await upload(ctx.files.portraitMp4, 'video/mp4');
    const post = (caption: string) =>
      call('/api/v1/publish', {
        platforms: ['instagram'],
        mediaId,
        caption,
        normalize: true,
        platformMeta: { instagram: { thumbOffsetMs: 2500 } },
      });
    const created = await post('reel with a cover');
    expect(created.status).toBe(201);
    expect(await outcomeOf(created.body.postIds[0])).toMatchObject({ status: 'posted' });
    const reel = await publishedOn('instagram', 'reel with a cover');
    // The video fits a reel: it goes as it is; only the cover is made.
    expect(idOf(reel.mediaUrls[0])).toBe(mediaId);
    const coverId = idOf(reel.details.coverUrl);
    expect(reel.details.thumbOffsetMs).toBe(2500);
    expect((await call(`/api/v1/media/${coverId}`)).body).toMatchObject({
      status: 'ready',
      contentType: 'image/jpeg',
      rendition: { sourceMediaId: mediaId, preset: 'instagram.reel+cover2500' },
      probe: { kind: 'image', width: 180, height: 320 },
    });

    const again = await post('the same cover');
    expect(await outcomeOf(again.body.postIds[0])).toMatchObject({ status: 'posted' });
    expect(idOf((await publishedOn('instagram', 'the same cover')).details.coverUrl)).toBe(coverId);
  });

  test('when a video goes to YouTube with normalize and no thumbnailUrl, then thumbnails.set receives the frame a tenth of the way in', async () => {
    const { mediaId } = await upload(ctx.files.landscapeMp4, 'video/mp4');
    const created = await call('/api/v1/publish', {
      platforms: ['youtube'],
      mediaId,
      caption: 'a video',
      title: 'thumbnail from the video',
      normalize: true,
    });
    expect(created.status).toBe(201);
    expect(await outcomeOf(created.body.postIds[0])).toMatchObject({ status: 'posted' });
    const listed = (await call('/api/v1/media?limit=100')).body.media;
    const assets = await Promise.all(listed.map(async (m: any) => (await call(`/api/v1/media/${m.mediaId}`)).body));
    const covers = assets.filter((m: any) => m.rendition?.sourceMediaId === mediaId);
    // landscapeMp4 lasts about 4 s: its cover is taken at about 400 ms.
    expect(covers).toEqual([
      expect.objectContaining({
        contentType: 'image/jpeg',
        rendition: { sourceMediaId: mediaId, preset: expect.stringMatching(/^youtube\.video\+cover(39\d|40\d)$/) },
      }),
    ]);
    const video = await publishedOn('youtube', 'thumbnail from the video');
    expect(video.details.thumbnailBytes).toBe(covers[0].sizeBytes);
  });

  test('when a video goes to a Facebook Page and Mastodon with normalize, then the Page video carries the frame as thumb and the Mastodon attachment as thumbnail', async () => {
    const { mediaId } = await upload(ctx.files.landscapeMp4, 'video/mp4');
    const created = await call('/api/v1/publish', {
      platforms: ['facebook', 'mastodon'],
      mediaId,
      caption: 'covered everywhere',
      normalize: true,
    });
    expect(created.status).toBe(201);
    for (const postId of created.body.postIds) expect(await outcomeOf(postId)).toMatchObject({ status: 'posted' });
    const listed = (await call('/api/v1/media?limit=100')).body.media;
    const assets = await Promise.all(listed.map(async (m: any) => (await call(`/api/v1/media/${m.mediaId}`)).body));
    const coverOf = (target: string) =>
      assets.find(
        (m: any) => m.rendition?.sourceMediaId === mediaId && m.rendition.preset.startsWith(`${target}+cover`),
      );
    const facebookCover = coverOf('facebook.video');
    const mastodonCover = coverOf('mastodon.video');
    expect(facebookCover).toMatchObject({ contentType: 'image/jpeg', probe: { kind: 'image' } });
    expect(mastodonCover).toMatchObject({ contentType: 'image/jpeg', probe: { kind: 'image' } });

    expect((await publishedOn('facebook', 'covered everywhere')).details.thumb).toEqual({
      contentType: 'image/jpeg',
      size: facebookCover.sizeBytes,
    });
    expect((await publishedOn('mastodon', 'covered everywhere')).details.thumbnails).toEqual([
      { contentType: 'image/jpeg', size: mastodonCover.sizeBytes },
    ]);
  });

  test('when normalize is off, then no cover is made; when the given cover_url is a PNG, then Instagram (the sandbox) refuses the reel as it refuses an image that is not a JPEG', async () => {
    const { mediaId } = await upload(ctx.files.portraitMp4, 'video/mp4');
    const plain = await call('/api/v1/publish', { platforms: ['instagram'], mediaId, caption: 'no cover' });
    expect(await outcomeOf(plain.body.postIds[0])).toMatchObject({ status: 'posted' });
    expect((await publishedOn('instagram', 'no cover')).details.coverUrl).toBeUndefined();

    const png = await upload(ctx.files.png, 'image/png');
    const refused = await call('/api/v1/publish', {
      platforms: ['instagram'],
      mediaId,
      caption: 'png cover',
      normalize: true,
      platformMeta: { instagram: { coverUrl: png.url } },
    });
    expect(await outcomeOf(refused.body.postIds[0])).toMatchObject({
      status: 'failed',
      failedReason: expect.stringMatching(/JPEG/),
    });
  });
});
