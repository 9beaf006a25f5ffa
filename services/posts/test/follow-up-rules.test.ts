import { checkPostPayload } from '../src/posts/post-payload.rules';
import { profileHealthProblems } from '../src/posts/profile-health.rules';

const now = new Date('2026-01-01T00:00:00Z');
const check = (body: Record<string, unknown>) =>
  checkPostPayload(
    { caption: 'hi', mediaUrls: ['https://cdn.example.com/v.mp4'], title: 't', ...body },
    { now, requireScheduledTime: false },
  );
const codes = (body: Record<string, unknown>) => check(body).map((p) => [p.code, p.platform, p.field]);

describe('the rules of firstComment and thread', () => {
  test('when a first comment would go to TikTok, then it is refused with first_comment_unsupported; per platform without TikTok it is fine', () => {
    const tiktok = { privacyLevel: 'SELF_ONLY' };
    expect(codes({ platforms: ['tiktok', 'instagram'], platformMeta: { tiktok }, firstComment: 'hello' })).toEqual([
      ['first_comment_unsupported', 'tiktok', 'firstComment'],
    ]);
    expect(codes({ platforms: ['tiktok'], platformMeta: { tiktok }, firstComment: { default: 'hello' } })).toEqual([
      ['first_comment_unsupported', 'tiktok', 'firstComment'],
    ]);
    expect(codes({ platforms: ['tiktok'], platformMeta: { tiktok }, firstComment: { tiktok: 'hello' } })).toEqual([
      ['first_comment_unsupported', 'tiktok', 'firstComment.tiktok'],
    ]);
    expect(
      check({ platforms: ['tiktok', 'instagram'], platformMeta: { tiktok }, firstComment: { instagram: 'hello' } }),
    ).toEqual([]);
  });

  test('when a first comment is longer than a platform takes, then that platform refuses it (Threads counting an emoji by its bytes)', () => {
    expect(codes({ platforms: ['threads', 'instagram'], firstComment: 'x'.repeat(501) })).toEqual([
      ['validation_error', 'threads', 'firstComment'],
    ]);
    expect(codes({ platforms: ['threads'], firstComment: { threads: '👍'.repeat(126) } })).toEqual([
      ['validation_error', 'threads', 'firstComment.threads'],
    ]);
    expect(codes({ platforms: ['instagram'], firstComment: 'x'.repeat(2201) })).toEqual([
      ['validation_error', 'instagram', 'firstComment'],
    ]);
    expect(codes({ platforms: ['facebook'], firstComment: 'x'.repeat(8001) })).toEqual([
      ['validation_error', 'facebook', 'firstComment'],
    ]);
    expect(codes({ platforms: ['youtube'], firstComment: 'x'.repeat(10_001) })).toEqual([
      ['validation_error', 'youtube', 'firstComment'],
    ]);
    expect(check({ platforms: ['youtube', 'facebook'], firstComment: 'x'.repeat(8000) })).toEqual([]);
  });

  test('when firstComment is empty or names an unknown key, then its shape is refused', () => {
    expect(codes({ platforms: ['instagram'], firstComment: ' ' })).toEqual([
      ['validation_error', undefined, 'firstComment'],
    ]);
    expect(codes({ platforms: ['instagram'], firstComment: { linkedin: 'x' } })).toEqual([
      ['validation_error', undefined, 'firstComment'],
    ]);
  });

  test('when a thread comes without Threads, with more than 20 parts, or with a part over 500 characters, then each is refused', () => {
    expect(codes({ platforms: ['instagram'], thread: ['two'] })).toEqual([['validation_error', undefined, 'thread']]);
    expect(codes({ platforms: ['threads'], thread: Array.from({ length: 21 }, (_, i) => `part ${i}`) })).toEqual([
      ['validation_error', 'threads', 'thread'],
    ]);
    expect(codes({ platforms: ['threads'], thread: ['ok', 'y'.repeat(501)] })).toEqual([
      ['validation_error', 'threads', 'thread[1]'],
    ]);
    expect(codes({ platforms: ['threads'], thread: [] })).toEqual([['validation_error', undefined, 'thread']]);
    expect(
      check({ platforms: ['threads', 'instagram'], thread: Array.from({ length: 20 }, () => 'z'.repeat(500)) }),
    ).toEqual([]);
  });

  test('when a Bluesky post has a thread or a first comment, then each part and the comment are at most 300 graphemes and 3,000 bytes', () => {
    const family = '👨‍👩‍👧';
    expect(
      check({ platforms: ['bluesky'], thread: ['👍🏽'.repeat(300), 'two'], firstComment: '👍🏽'.repeat(300) }),
    ).toEqual([]);
    expect(codes({ platforms: ['bluesky'], thread: ['ok', 'y'.repeat(301)] })).toEqual([
      ['validation_error', 'bluesky', 'thread[1]'],
    ]);
    expect(codes({ platforms: ['bluesky'], thread: [family.repeat(200)] })).toEqual([
      ['validation_error', 'bluesky', 'thread[0]'],
    ]);
    expect(codes({ platforms: ['bluesky', 'instagram'], firstComment: { bluesky: 'x'.repeat(301) } })).toEqual([
      ['validation_error', 'bluesky', 'firstComment.bluesky'],
    ]);
  });

  test('when a YouTube profile has not granted youtube.force-ssl, then a first comment for YouTube is reported, and a post without one is not', () => {
    const health = {
      profileId: 'prf_1',
      platform: 'youtube',
      handle: 'chan',
      scopes: {
        granted: ['https://www.googleapis.com/auth/youtube.upload'],
        needed: [],
        missing: [],
        firstCommentMissing: ['https://www.googleapis.com/auth/youtube.force-ssl'],
      },
    } as never;
    expect(profileHealthProblems(health, { firstComment: 'hello' }).map((p) => [p.code, p.field])).toEqual([
      ['invalid_profile_ids', 'firstComment'],
    ]);
    expect(profileHealthProblems(health, { firstComment: { instagram: 'hello' } })).toEqual([]);
    expect(profileHealthProblems(health, {})).toEqual([]);
  });
});
