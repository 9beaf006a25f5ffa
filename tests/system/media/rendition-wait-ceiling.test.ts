import { Rpc, systemPrincipal } from '@postbus/contracts';
import { waitFor } from '@postbus/testing';
import { useSystem } from '../support/use-system';
import { api, uploadFile } from '../support/posts-api';

// A post may wait for its rendition 1 ms past its time, and no transcoder runs: no rendition is ever made.
const ctx = useSystem('rendition_ceiling', {
  env: { POSTS_RENDITION_WAIT_MAX_MS: '1', POSTS_RENDITION_POLL_MS: '50' },
  files: true,
  prepare: (system) => system.stopService('transcoder'),
  account: { platforms: ['facebook'], plan: 'pro' },
});

const call = (path: string, init: { method?: string; body?: unknown } = {}) =>
  api(ctx.system, path, { ...init, key: ctx.account.apiKey });
/** Uploads through the real media service, which probes the file. */
const upload = async (path: string) => (await uploadFile(ctx.system, ctx.account.apiKey, path, 'video/mp4')).mediaId;

test("when a post's rendition is not made by POSTS_RENDITION_WAIT_MAX_MS after it was due, then it fails with a reason saying what to do, is never dispatched, and a later post of the same media keeps waiting", async () => {
  const source = await upload(ctx.files.landscapeMp4);
  const reel = {
    platforms: ['facebook'],
    mediaId: source,
    caption: 'never made',
    platformMeta: { facebook: { reel: true } },
    normalize: true,
  };

  const later = await call('/api/v1/posts', {
    method: 'POST',
    body: { ...reel, scheduledTime: new Date(Date.now() + 3600_000).toISOString() },
  });
  const now = await call('/api/v1/publish', { method: 'POST', body: reel });
  expect([later.status, now.status]).toEqual([201, 201]);

  const failed = await waitFor(
    async () => {
      const p = (await call(`/api/v1/posts/${now.body.postIds[0]}`)).body;
      return p.status === 'scheduled' ? undefined : p;
    },
    { timeoutMs: 20_000, what: 'the post due now to end' },
  );
  const renditionId = new URL(failed.mediaUrls[0]).pathname.split('/').pop();
  expect(failed).toMatchObject({ status: 'failed', publishedAt: null });
  expect(failed.failedReason).toBe(
    `Its media was still being converted for facebook 1 s after the post was due (rendition ${renditionId}, 0% made), so it was not published. ` +
      `The transcoder may be stopped or behind: check it, then schedule the post again once GET /api/v1/media/${renditionId} shows status ready; or post a file that already meets facebook's rules.`,
  );
  expect((await call(`/api/v1/media/${renditionId}`)).body).toMatchObject({
    status: 'processing',
    percent: 0,
    rendition: { sourceMediaId: source, preset: 'facebook.reel' },
  });
  const published = (await (await fetch(`${ctx.system.sandboxUrl}/__sandbox/published?platform=facebook`)).json()) as
    { text: string }[] | { items: { text: string }[] };
  expect((Array.isArray(published) ? published : published.items).filter((p) => p.text === 'never made')).toEqual([]);
  expect((await call(`/api/v1/posts/${later.body.postIds[0]}`)).body).toMatchObject({
    status: 'scheduled',
    failedReason: null,
  });
});

test('when the transcoder reports a rendition it could not make, then every post waiting for it fails at once with that reason, however far ahead it is scheduled', async () => {
  const source = await upload(ctx.files.slowMp4);
  const created = await call('/api/v1/posts', {
    method: 'POST',
    body: {
      platforms: ['facebook'],
      mediaId: source,
      caption: 'unreadable',
      platformMeta: { facebook: { reel: true } },
      normalize: true,
      scheduledTime: new Date(Date.now() + 86_400_000).toISOString(),
    },
  });
  expect(created.status).toBe(201);
  const renditionId = new URL((await call(`/api/v1/posts/${created.body.postIds[0]}`)).body.mediaUrls[0]).pathname
    .split('/')
    .pop()!;
  // What the transcoder sends when ffmpeg cannot read the source.
  const transcoder = systemPrincipal({
    service: 'transcoder',
    accountId: ctx.account.accountId,
    scopes: ['media:write'],
  });
  const reason = 'ffmpeg could not convert the source: Invalid data found when processing input';
  await ctx.system.bus.rpc.call(Rpc.mediaFailRendition, { renditionId, reason }, transcoder);

  const failed = await waitFor(
    async () => {
      const p = (await call(`/api/v1/posts/${created.body.postIds[0]}`)).body;
      return p.status === 'scheduled' ? undefined : p;
    },
    { timeoutMs: 20_000, what: 'the post to fail' },
  );
  expect(failed).toMatchObject({ status: 'failed' });
  expect(failed.failedReason).toBe(
    `Its media could not be converted for facebook (rendition ${renditionId}): ${reason}. Post a file that meets facebook's rules, or one the conversion can read.`,
  );
  expect((await call(`/api/v1/media/${renditionId}`)).body).toMatchObject({ status: 'failed', failedReason: reason });
});
