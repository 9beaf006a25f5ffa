import { Rpc, systemPrincipal } from '@postbus/contracts';
import { waitFor } from '@postbus/testing';
import { useSystem } from '../support/use-system';
import { api, endedPost, publishedOn, uploadFile } from '../support/posts-api';

const ctx = useSystem('normalize_e2e', {
  // Progress reported as often as ffmpeg tells it, so a test can watch it move.
  env: { TRANSCODER_PROGRESS_EVERY_MS: '10' },
  files: true,
  account: { platforms: ['instagram', 'facebook', 'threads'], plan: 'pro' },
});

const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
  api(ctx.system, path, { ...init, key: ctx.account.apiKey });
/** Uploads through the real media service, which probes the file. */
const upload = async (path: string, type: string) =>
  (await uploadFile(ctx.system, ctx.account.apiKey, path, type)).mediaId;
const outcomeOf = (postId: string, timeoutMs?: number) => endedPost(ctx.system, ctx.account.apiKey, postId, timeoutMs);

describe('normalize: a post whose media a platform refuses gets a rendition that fits', () => {
  test('when a 16:9 video is published as a Facebook reel with normalize: true, then the post waits for a 540×960 H.264/AAC rendition and is posted with its URL', async () => {
    const source = await upload(ctx.files.landscapeMp4, 'video/mp4');
    const refused = await call('/api/v1/publish', {
      method: 'POST',
      body: {
        platforms: ['facebook'],
        mediaId: source,
        caption: 'as it is',
        platformMeta: { facebook: { reel: true } },
      },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'media_incompatible', details: { platform: 'facebook', rule: 'aspect_ratio' } },
    });

    const created = await call('/api/v1/publish', {
      method: 'POST',
      body: {
        platforms: ['facebook'],
        mediaId: source,
        caption: 'padded',
        platformMeta: { facebook: { reel: true } },
        normalize: true,
      },
    });
    expect(created.status).toBe(201);
    const post = await outcomeOf(created.body.postIds[0]);
    expect(post).toMatchObject({ status: 'posted', failedReason: null });
    const renditionId = new URL(post.mediaUrls[0]).pathname.split('/').pop()!;
    expect(renditionId).not.toBe(source);

    const rendition = (await call(`/api/v1/media/${renditionId}`)).body;
    expect(rendition).toMatchObject({
      status: 'ready',
      contentType: 'video/mp4',
      percent: 100,
      rendition: { sourceMediaId: source, preset: 'facebook.reel' },
      probe: {
        width: 540,
        height: 960,
        video: { codec: 'h264', profile: 'High', pixelFormat: 'yuv420p' },
        audio: { codec: 'aac', sampleRate: 48_000 },
      },
    });
    // The reel's bytes were uploaded (rupload): the sandbox holds as many as the rendition has, not the source.
    const reels = (await publishedOn(ctx.system, 'facebook')).filter((p) => p.text === 'padded');
    expect(reels).toEqual([expect.objectContaining({ mediaType: 'REELS', bytes: rendition.sizeBytes })]);
  });

  test("when an 11:1 video is published as an Instagram reel with platformMeta.instagram.normalize, then the sandbox's reel inspection takes the 1.91:1 rendition", async () => {
    const source = await upload(ctx.files.wideMp4, 'video/mp4');
    const created = await call('/api/v1/publish', {
      method: 'POST',
      body: {
        platforms: ['instagram'],
        mediaId: source,
        caption: 'wide',
        platformMeta: { instagram: { normalize: true } },
      },
    });
    expect(created.status).toBe(201);
    const post = await outcomeOf(created.body.postIds[0]);
    expect(post).toMatchObject({ status: 'posted' });
    const renditionId = new URL(post.mediaUrls[0]).pathname.split('/').pop()!;
    expect((await call(`/api/v1/media/${renditionId}`)).body).toMatchObject({
      rendition: { preset: 'instagram.reel' },
      probe: { width: 1100, height: 574 },
    });
  });

  test('when a PNG is published to the Instagram feed with normalize, then it goes out as a JPEG rendition', async () => {
    const source = await upload(ctx.files.png, 'image/png');
    const created = await call('/api/v1/publish', {
      method: 'POST',
      body: { platforms: ['instagram'], mediaId: source, caption: 'still', normalize: true },
    });
    expect(created.status).toBe(201);
    const post = await outcomeOf(created.body.postIds[0]);
    expect(post).toMatchObject({ status: 'posted' });
    const renditionId = new URL(post.mediaUrls[0]).pathname.split('/').pop()!;
    expect((await call(`/api/v1/media/${renditionId}`)).body).toMatchObject({
      contentType: 'image/jpeg',
      rendition: { sourceMediaId: source, preset: 'instagram.feed_image' },
      probe: { width: 640, height: 480 },
    });
  });

  test('when media already fits a platform (a 9:16 video as an Instagram reel), then normalize leaves it as it is; when a rendition cannot mend it (too short for a reel), then 400 media_incompatible still', async () => {
    const portrait = await upload(ctx.files.portraitMp4, 'video/mp4');
    const fits = await call('/api/v1/posts', {
      method: 'POST',
      body: {
        platforms: ['instagram'],
        mediaId: portrait,
        normalize: true,
        scheduledTime: new Date(Date.now() + 3600_000).toISOString(),
      },
    });
    expect(fits.status).toBe(201);
    expect((await call(`/api/v1/posts/${fits.body.postIds[0]}`)).body.mediaUrls[0]).toContain(portrait);

    const hevc = await upload(ctx.files.hevcMov, 'video/quicktime');
    const short = await call('/api/v1/posts', {
      method: 'POST',
      body: {
        platforms: ['facebook'],
        mediaId: hevc,
        platformMeta: { facebook: { reel: true } },
        normalize: true,
        scheduledTime: new Date(Date.now() + 3600_000).toISOString(),
      },
    });
    expect(short).toMatchObject({
      status: 400,
      body: { code: 'media_incompatible', details: { platform: 'facebook', rule: 'aspect_ratio' } },
    });
    expect(short.body.details.problems.map((p: { rule: string }) => p.rule)).toContain('duration');
  });

  test('when the same bytes are normalized for the same platform twice (same media, then an upload of the same file), then both posts carry one rendition', async () => {
    const first = await upload(ctx.files.landscapeMp4, 'video/mp4');
    const second = await upload(ctx.files.landscapeMp4, 'video/mp4');
    const at = new Date(Date.now() + 3600_000).toISOString();
    const body = (mediaId: string) => ({
      platforms: ['threads', 'facebook'],
      mediaId,
      platformMeta: { facebook: { reel: true, normalize: true } },
      scheduledTime: at,
    });
    const a = await call('/api/v1/posts', { method: 'POST', body: body(first) });
    const b = await call('/api/v1/posts', { method: 'POST', body: body(second) });
    expect([a.status, b.status]).toEqual([201, 201]);
    const mediaOf = async (ids: string[]) =>
      Object.fromEntries(
        await Promise.all(
          ids.map(async (id) => {
            const p = (await call(`/api/v1/posts/${id}`)).body;
            return [p.platforms[0], new URL(p.mediaUrls[0]).pathname.split('/').pop()];
          }),
        ),
      );
    const [ma, mb] = [await mediaOf(a.body.postIds), await mediaOf(b.body.postIds)];
    // Threads takes the 16:9 video as it is; only Facebook's copy is a rendition, the same one for both.
    expect(ma.threads).toBe(first);
    expect(mb.threads).toBe(second);
    expect(ma.facebook).toBe(mb.facebook);
    expect(ma.facebook).not.toBe(first);
    await waitFor(
      async () => ((await call(`/api/v1/media/${ma.facebook}`)).body.status === 'ready' ? true : undefined),
      { timeoutMs: 30_000, what: 'the shared rendition' },
    );
    // Once the rendition itself is deleted, the next post of those bytes gets a new one.
    expect((await call(`/api/v1/media/${ma.facebook}`, { method: 'DELETE' })).status).toBe(200);
    const c = await call('/api/v1/posts', { method: 'POST', body: body(first) });
    const mc = await mediaOf(c.body.postIds);
    expect(mc.facebook).not.toBe(ma.facebook);
    expect(mc.facebook).not.toBe(first);
  });

  test('when a 4-minute video is scheduled as a Facebook reel with normalize { trim: true }, then the rendition shows its progress on the media while it is made, and lasts 90 s', async () => {
    const source = await upload(ctx.files.longMp4, 'video/mp4');
    const created = await call('/api/v1/posts', {
      method: 'POST',
      body: {
        platforms: ['facebook'],
        mediaId: source,
        platformMeta: { facebook: { reel: true, normalize: { trim: true } } },
        scheduledTime: new Date(Date.now() + 3600_000).toISOString(),
      },
    });
    expect(created.status).toBe(201);
    const renditionId = new URL((await call(`/api/v1/posts/${created.body.postIds[0]}`)).body.mediaUrls[0]).pathname
      .split('/')
      .pop()!;
    const seen: { status: string; percent: number }[] = [];
    const made = await waitFor(
      async () => {
        const asset = (await call(`/api/v1/media/${renditionId}`)).body;
        seen.push({ status: asset.status, percent: asset.percent });
        return asset.status === 'processing' ? undefined : asset;
      },
      { timeoutMs: 60_000, intervalMs: 20, what: 'the trimmed rendition' },
    );
    expect(made).toMatchObject({
      status: 'ready',
      percent: 100,
      rendition: { preset: 'facebook.reel+trim' },
      probe: { width: 540, height: 960 },
    });
    expect(made.probe.durationSec).toBeCloseTo(90, 0);
    const percents = seen.filter((s) => s.status === 'processing').map((s) => s.percent);
    expect(percents.some((p) => p > 0 && p < 100)).toBe(true);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
  });

  test('when the transcoder is asked for a rendition it cannot make (a 2 s video as a reel), then the rendition fails with the reason, and asking again makes it again', async () => {
    const source = await upload(ctx.files.hevcMov, 'video/quicktime');
    const principal = systemPrincipal({ service: 'posts', accountId: ctx.account.accountId, scopes: ['media:write'] });
    const ask = () =>
      ctx.system.bus.rpc.call(
        Rpc.mediaRequestRendition,
        { mediaId: source, preset: 'facebook.reel', contentType: 'video/mp4' },
        principal,
      );
    const asked = await ask();
    const failed = await waitFor(
      async () => {
        const asset = (await call(`/api/v1/media/${asked.mediaId}`)).body;
        return asset.status === 'failed' ? asset : undefined;
      },
      { timeoutMs: 30_000, what: 'the rendition to fail' },
    );
    expect(failed.failedReason).toMatch(
      /^A Facebook reel lasts at least 3 s; this video lasts 2(\.\d+)? s, and a rendition does not lengthen it\.$/,
    );
    expect(await ask()).toMatchObject({ mediaId: asked.mediaId, status: 'processing', percent: 0 });
  });

  test('when a rendition upload path is not one media signed, then media refuses it (403 invalid_signature) and stores nothing', async () => {
    const put = (query: string) =>
      fetch(`${ctx.system.httpUrls.media}/renditions/med_0000000000000000000x/file${query}`, {
        method: 'PUT',
        body: 'not a video',
      });
    for (const query of ['', `?expires=${Math.floor(Date.now() / 1000) + 60}&sig=forged`]) {
      const res = await put(query);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'invalid_signature' });
    }
  });
});
