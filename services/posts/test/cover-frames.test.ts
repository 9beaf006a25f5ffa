import type { DataSource } from 'typeorm';
import { AppError, type MediaAsset, type MediaProbe } from '@postbus/contracts';
import { databaseOf, openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { migrations } from '../src/migrations';
import { PostRepository } from '../src/posts/post.repository';
import { coverFramesNeeded } from '../src/renditions/cover-frames.rules';
import { waitingRenditions } from '../src/renditions/rendition-wait.repository';
import { settleRenditionWaits } from '../src/renditions/settle-rendition-waits';
import { claimDuePosts, nextDueTime } from '../src/scheduler/claim-due-posts';
import { aPost } from './post-builder';

const reel = (durationSec: number | null = 4): MediaProbe => ({
  kind: 'video',
  container: 'mov,mp4,m4a,3gp,3g2,mj2',
  width: 1080,
  height: 1920,
  durationSec,
  bitRate: null,
  audio: { codec: 'aac', channels: 2, sampleRate: 48_000 },
});
const stored = (probe: MediaProbe) => [
  { field: 'mediaId', url: 'http://x/files/med_1', contentType: 'video/mp4', sizeBytes: 5_000_000, probe },
];

describe('which platforms get a cover frame', () => {
  test('when a video goes to Instagram, YouTube and TikTok with normalize and no cover, then Instagram and YouTube get a JPEG a tenth of the way in, TikTok none (it takes an offset only)', () => {
    const needs = coverFramesNeeded(['instagram', 'youtube', 'tiktok', 'threads'], stored(reel(4)), {
      normalize: true,
    });
    expect(Object.fromEntries(needs)).toEqual({
      instagram: { preset: 'instagram.reel+cover400', contentType: 'image/jpeg' },
      youtube: { preset: 'youtube.video+cover400', contentType: 'image/jpeg' },
    });
  });

  test('when a video goes to a Facebook Page and Mastodon with normalize, then each gets a JPEG; a Facebook reel (no thumbnail parameter) and a given Facebook cover get none', () => {
    const needs = coverFramesNeeded(['facebook', 'mastodon'], stored(reel(4)), { normalize: true });
    expect(Object.fromEntries(needs)).toEqual({
      facebook: { preset: 'facebook.video+cover400', contentType: 'image/jpeg' },
      mastodon: { preset: 'mastodon.video+cover400', contentType: 'image/jpeg' },
    });
    const none = (facebook: Record<string, unknown>) =>
      coverFramesNeeded(['facebook'], stored(reel(4)), { normalize: true, platformMeta: { facebook } }).size;
    expect(none({ reel: true })).toBe(0);
    expect(none({ coverUrl: 'https://c/x.jpg' })).toBe(0);
  });

  test('when the post names thumbOffsetMs, then the Instagram cover is that frame; past the end of the video, none is made', () => {
    const at = (thumbOffsetMs: number) =>
      coverFramesNeeded(['instagram'], stored(reel(4)), {
        normalize: true,
        platformMeta: { instagram: { thumbOffsetMs } },
      }).get('instagram');
    expect(at(2500)).toEqual({ preset: 'instagram.reel+cover2500', contentType: 'image/jpeg' });
    expect(at(4000)).toBeUndefined();
  });

  test('when a cover is given, normalize is off, the media is an image, or Instagram makes a story, then no cover frame', () => {
    const none = (platforms: any[], payload: any, media = stored(reel())) =>
      coverFramesNeeded(platforms, media, payload).size;
    expect(none(['instagram'], { normalize: true, platformMeta: { instagram: { coverUrl: 'https://c/x.jpg' } } })).toBe(
      0,
    );
    expect(none(['youtube'], { normalize: true, platformMeta: { youtube: { thumbnailUrl: 'https://c/x.jpg' } } })).toBe(
      0,
    );
    expect(none(['instagram', 'youtube'], {})).toBe(0);
    expect(none(['youtube'], { normalize: true, platformMeta: { youtube: { normalize: false } } })).toBe(0);
    expect(none(['instagram'], { normalize: true, platformMeta: { instagram: { story: true } } })).toBe(0);
    expect(none(['instagram'], { normalize: true }, stored({ ...reel(), kind: 'image', durationSec: null }))).toBe(0);
  });
});

let env: TestEnv;
let ds: DataSource;
let posts: PostRepository;

beforeAll(async () => {
  env = await createTestEnv('posts_cover_frames');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations, poolSize: 4 });
  posts = new PostRepository(ds);
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});
beforeEach(async () => {
  await ds.query('DELETE FROM outbox');
  await ds.query('DELETE FROM posts');
});

/** A due post whose cover frame `coverId` is being made. */
const waitingForCover = (coverId: string, dueInMs = -500) => ({
  ...aPost().dueIn(dueInMs).build(),
  cover_media_id: coverId,
  awaiting_cover_id: coverId,
});

function settle(asset: Partial<MediaAsset> | undefined, ceilingMs = 3600_000) {
  return settleRenditionWaits({
    ds,
    getMedia: async (_p, mediaId) => {
      if (!asset) throw new AppError('not_found', `No media ${mediaId}.`);
      return { mediaId, url: `http://x/files/${mediaId}?fresh`, ...asset } as MediaAsset;
    },
    clock: () => new Date(),
    ceilingMs,
    batch: 10,
    logger: { warn: () => undefined } as never,
    announce: () => undefined,
  });
}

const coverOf = async (id: string) =>
  (await ds.query('SELECT cover_media_id, awaiting_cover_id, status FROM posts WHERE id = $1', [id]))[0];

describe('posts waiting for their cover frame', () => {
  test('when a due post waits for its cover frame, then it is not dispatched; once the frame is made it keeps it and is dispatched', async () => {
    const post = waitingForCover('med_cover1');
    await ds.transaction((m) => posts.insertMany(m, [post]));
    expect(await claimDuePosts(ds, 100)).toBe(0);
    expect(await nextDueTime(ds)).toBeNull();
    expect(await waitingRenditions(databaseOf(ds), 10)).toEqual([
      expect.objectContaining({ mediaId: 'med_cover1', cover: true }),
    ]);
    await settle({ status: 'processing', percent: 10 });
    expect(await claimDuePosts(ds, 100)).toBe(0);

    await settle({ status: 'ready' });
    expect(await coverOf(post.id)).toEqual({
      cover_media_id: 'med_cover1',
      awaiting_cover_id: null,
      status: 'scheduled',
    });
    expect(await claimDuePosts(ds, 100)).toBe(1);
    const [due] = await ds.query(`SELECT data FROM outbox WHERE name = 'post.due'`);
    expect(due.data).toMatchObject({ postId: post.id, coverMediaId: 'med_cover1' });
  });

  test('when the cover frame fails, is deleted, or is still made past the ceiling, then the post goes out without it (it is not failed)', async () => {
    const failed = waitingForCover('med_cover2');
    const gone = waitingForCover('med_cover3');
    const slow = waitingForCover('med_cover4', -60_000);
    await ds.transaction((m) => posts.insertMany(m, [failed]));
    await settle({ status: 'failed', failedReason: 'ffmpeg could not read it' });
    await ds.transaction((m) => posts.insertMany(m, [gone]));
    await settle(undefined);
    await ds.transaction((m) => posts.insertMany(m, [slow]));
    await settle({ status: 'processing', percent: 50 }, 1000);
    for (const p of [failed, gone, slow])
      expect(await coverOf(p.id)).toEqual({ cover_media_id: null, awaiting_cover_id: null, status: 'scheduled' });
    expect(await claimDuePosts(ds, 100)).toBe(3);
  });
});
