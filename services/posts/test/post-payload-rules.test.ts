import { AppError, BLUESKY_TEXT_MAX, MASTODON_TEXT_MAX, TIKTOK_TITLE_MAX } from '@postbus/contracts';
import {
  assertPostPayload,
  checkPostPayload,
  parseTimestamp,
  scheduledInstantOf,
  THREADS_TEXT_MAX,
  YOUTUBE_TITLE_MAX,
} from '../src/posts/post-payload.rules';

const now = new Date('2026-01-01T00:00:00Z');
const future = '2026-06-01T09:30:00Z';
const check = (body: unknown, requireScheduledTime = false) => checkPostPayload(body, { now, requireScheduledTime });
const codes = (body: unknown, requireScheduledTime = false) =>
  check(body, requireScheduledTime).map((p) => [p.code, p.platform, p.field]);
/** A body every platform accepts, so that one change shows one rule. */
const valid = { platforms: ['facebook'], caption: 'hello', scheduledTime: future };
const tiktok = { privacyLevel: 'SELF_ONLY' };
const video = ['https://cdn.example.com/v.mp4'];

describe('the shape of a post payload', () => {
  test('when the body is not a JSON object, then it is refused with validation_error alone', () => {
    for (const body of [null, 'text', 42, [valid]])
      expect(codes(body)).toEqual([['validation_error', undefined, undefined]]);
  });

  test('when a body breaks no rule, then there are no problems', () => {
    expect(check(valid)).toEqual([]);
    expect(check(valid, true)).toEqual([]);
  });

  test('when platforms is missing, null or empty, then missing_platforms; when it is not an array, then validation_error', () => {
    for (const platforms of [null, []])
      expect(codes({ ...valid, platforms })).toEqual([['missing_platforms', undefined, 'platforms']]);
    // Left out, the schema also reports the required property.
    expect(codes({ ...valid, platforms: undefined })).toEqual([
      ['missing_platforms', undefined, 'platforms'],
      ['validation_error', undefined, undefined],
    ]);
    expect(codes({ ...valid, platforms: 'facebook' })[0]).toEqual(['validation_error', undefined, 'platforms']);
  });

  test('when platforms names one the service does not know, then unsupported_platform names it, and the known ones still get their rules', () => {
    const problems = check({ ...valid, platforms: ['facebook', 'myspace', 'youtube'] });
    expect(problems.map((p) => [p.code, p.platform, p.field])).toEqual([
      ['unsupported_platform', undefined, 'platforms'],
      ['validation_error', 'youtube', 'title'],
      ['validation_error', 'youtube', 'mediaId'],
    ]);
    expect(problems[0].message).toContain('"myspace"');
  });

  test('when a post has no caption, mediaUrls or mediaId, then missing_content; any one of them is enough', () => {
    expect(codes({ platforms: ['facebook'] })).toEqual([['missing_content', undefined, undefined]]);
    expect(codes({ platforms: ['facebook'], caption: '   ', mediaUrls: [] })).toEqual([
      ['missing_content', undefined, undefined],
    ]);
    expect(check({ platforms: ['facebook'], mediaUrls: video })).toEqual([]);
    expect(check({ platforms: ['facebook'], mediaId: 'med_1' })).toEqual([]);
  });

  test('when a field is unknown or of the wrong type, then the contract schema refuses it with validation_error', () => {
    expect(codes({ ...valid, colour: 'red' })).toEqual([['validation_error', undefined, undefined]]);
    expect(codes({ ...valid, caption: 7 })).toEqual([
      ['missing_content', undefined, undefined],
      ['validation_error', undefined, undefined],
    ]);
    expect(codes({ ...valid, caption: 'x'.repeat(2201) })).toEqual([['validation_error', undefined, undefined]]);
  });
});

describe('the time of a post', () => {
  test('when scheduledTime is required and missing, then invalid_scheduled_time; when not required, a missing time is fine', () => {
    expect(codes({ platforms: ['facebook'], caption: 'hi' }, true)).toEqual([
      ['invalid_scheduled_time', undefined, 'scheduledTime'],
    ]);
    expect(check({ platforms: ['facebook'], caption: 'hi' }, false)).toEqual([]);
  });

  test('when scheduledTime has no offset and no timezone, or is no datetime at all, then invalid_scheduled_time', () => {
    for (const scheduledTime of ['2026-06-01T09:30:00', 'tomorrow', '2026-13-45T99:00:00Z']) {
      expect(codes({ ...valid, scheduledTime })).toEqual([['invalid_scheduled_time', undefined, 'scheduledTime']]);
    }
    // A number is also refused by the schema, after the time rule.
    expect(codes({ ...valid, scheduledTime: 12 })).toEqual([['invalid_scheduled_time', undefined, 'scheduledTime']]);
  });

  test('when scheduledTime is now or earlier, then scheduled_time_in_past', () => {
    expect(codes({ ...valid, scheduledTime: now.toISOString() })).toEqual([
      ['scheduled_time_in_past', undefined, 'scheduledTime'],
    ]);
    expect(codes({ ...valid, scheduledTime: '2025-12-31T23:00:00-02:00' })).toEqual([]);
    expect(codes({ ...valid, scheduledTime: '2025-12-31T23:00:00+02:00' })).toEqual([
      ['scheduled_time_in_past', undefined, 'scheduledTime'],
    ]);
  });

  test('when timezone is not an IANA zone, then validation_error on timezone, and a local time in it is refused for the zone alone', () => {
    expect(codes({ ...valid, timezone: 'Mars/Olympus' })).toEqual([['validation_error', undefined, 'timezone']]);
    expect(codes({ ...valid, scheduledTime: '2026-06-01T09:30:00', timezone: 'Mars/Olympus' })).toEqual([
      ['validation_error', undefined, 'timezone'],
    ]);
  });

  test('when scheduledTime is a local time with a timezone, then it is read in that zone', () => {
    expect(check({ ...valid, scheduledTime: '2026-06-01T09:30:00', timezone: 'Europe/Berlin' })).toEqual([]);
    expect(scheduledInstantOf({ scheduledTime: '2026-06-01T09:30:00', timezone: 'Europe/Berlin' })?.toISOString()).toBe(
      '2026-06-01T07:30:00.000Z',
    );
    expect(codes({ ...valid, scheduledTime: '2025-12-31T23:30:00', timezone: 'America/New_York' })).toEqual([]);
    expect(codes({ ...valid, scheduledTime: '2025-12-31T23:30:00', timezone: 'Asia/Tokyo' })).toEqual([
      ['scheduled_time_in_past', undefined, 'scheduledTime'],
    ]);
  });

  test('when scheduledTime is "next" or a schedule is named, then no time is required; both together are refused', () => {
    expect(check({ platforms: ['facebook'], caption: 'hi', scheduledTime: 'next' }, true)).toEqual([]);
    expect(check({ platforms: ['facebook'], caption: 'hi', schedule: 'sch_1' }, true)).toEqual([]);
    expect(codes({ ...valid, schedule: 'sch_1' })).toEqual([['validation_error', undefined, 'schedule']]);
  });

  test('parseTimestamp takes only datetimes that name their offset', () => {
    expect(parseTimestamp('2026-06-01T09:30:00.123+0530')?.toISOString()).toBe('2026-06-01T04:00:00.123Z');
    expect(parseTimestamp('2026-06-01T09:30Z')?.toISOString()).toBe('2026-06-01T09:30:00.000Z');
    for (const value of ['2026-06-01T09:30:00', '2026-06-01', '2026-02-30T09:30:00ZZ', 1, undefined])
      expect(parseTimestamp(value)).toBeUndefined();
  });
});

describe('the rules of each platform', () => {
  test('TikTok: a title of at most 150 characters, a privacy level, a brand choice with a commercial disclosure, and media', () => {
    const ok = { platforms: ['tiktok'], caption: 'c', title: 't', mediaUrls: video, platformMeta: { tiktok } };
    expect(check(ok)).toEqual([]);
    expect(codes({ ...ok, title: ' ' })).toEqual([['validation_error', 'tiktok', 'title']]);
    expect(codes({ ...ok, title: 'x'.repeat(TIKTOK_TITLE_MAX + 1) })).toEqual([
      ['validation_error', 'tiktok', 'title'],
    ]);
    expect(check({ ...ok, title: 'x'.repeat(TIKTOK_TITLE_MAX) })).toEqual([]);
    expect(codes({ ...ok, platformMeta: {} })).toEqual([
      ['validation_error', 'tiktok', 'platformMeta.tiktok.privacyLevel'],
    ]);
    expect(codes({ ...ok, platformMeta: { tiktok: { ...tiktok, commercialContentDisclosure: true } } })).toEqual([
      ['validation_error', 'tiktok', 'platformMeta.tiktok'],
    ]);
    expect(
      check({
        ...ok,
        platformMeta: { tiktok: { ...tiktok, commercialContentDisclosure: true, brandOrganicOptIn: true } },
      }),
    ).toEqual([]);
    expect(codes({ ...ok, mediaUrls: undefined })).toEqual([['validation_error', 'tiktok', 'mediaId']]);
  });

  test('YouTube: a title of at most 100 characters and a video', () => {
    const ok = { platforms: ['youtube'], title: 't', mediaId: 'med_1' };
    expect(check(ok)).toEqual([]);
    expect(codes({ ...ok, title: undefined })).toEqual([['validation_error', 'youtube', 'title']]);
    expect(codes({ ...ok, title: 'x'.repeat(YOUTUBE_TITLE_MAX + 1) })).toEqual([
      ['validation_error', 'youtube', 'title'],
    ]);
    expect(codes({ ...ok, mediaId: undefined, caption: 'c' })).toEqual([['validation_error', 'youtube', 'mediaId']]);
  });

  test('Instagram: an image or video', () => {
    expect(check({ platforms: ['instagram'], mediaUrls: video })).toEqual([]);
    expect(codes({ platforms: ['instagram'], caption: 'c' })).toEqual([['validation_error', 'instagram', 'mediaId']]);
  });

  test('Threads: at most 500 characters, counted by code point', () => {
    expect(check({ platforms: ['threads'], caption: '👍'.repeat(THREADS_TEXT_MAX) })).toEqual([]);
    expect(codes({ platforms: ['threads'], caption: 'x'.repeat(THREADS_TEXT_MAX + 1) })).toEqual([
      ['validation_error', 'threads', 'caption'],
    ]);
  });

  test('Facebook: text alone is enough', () => {
    expect(check({ platforms: ['facebook'], caption: 'x'.repeat(2200) })).toEqual([]);
  });

  test('Bluesky: at most 300 graphemes and 3000 bytes, and no more alt texts than media', () => {
    const family = '👨‍👩‍👧';
    expect(
      check({ platforms: ['bluesky'], caption: family.repeat(BLUESKY_TEXT_MAX) }).map((p) => [p.code, p.field]),
    ).toEqual([['validation_error', 'caption']]);
    expect(check({ platforms: ['bluesky'], caption: family.repeat(BLUESKY_TEXT_MAX) })[0].message).toContain('bytes');
    expect(check({ platforms: ['bluesky'], caption: '👍'.repeat(BLUESKY_TEXT_MAX) })).toEqual([]);
    expect(codes({ platforms: ['bluesky'], caption: 'x'.repeat(BLUESKY_TEXT_MAX + 1) })).toEqual([
      ['validation_error', 'bluesky', 'caption'],
    ]);
    expect(check({ platforms: ['bluesky'], caption: 'x'.repeat(BLUESKY_TEXT_MAX + 1) })[0].message).toContain(
      'graphemes',
    );
    expect(
      check({ platforms: ['bluesky'], mediaUrls: video, platformMeta: { bluesky: { altTexts: ['a video'] } } }),
    ).toEqual([]);
    expect(
      codes({ platforms: ['bluesky'], mediaUrls: video, platformMeta: { bluesky: { altTexts: ['one', 'two'] } } }),
    ).toEqual([['validation_error', 'bluesky', 'platformMeta.bluesky.altTexts']]);
  });

  test('Bluesky: a link card names an http(s) page or is false, and never comes with media', () => {
    const card = (linkCard: unknown, media?: string[]) =>
      codes({
        platforms: ['bluesky'],
        caption: 'x',
        ...(media && { mediaUrls: media }),
        platformMeta: { bluesky: { linkCard } },
      });
    expect([card('https://example.com/a'), card(false), card(false, video)]).toEqual([[], [], []]);
    expect(card('https://example.com/a', video)).toEqual([
      ['validation_error', 'bluesky', 'platformMeta.bluesky.linkCard'],
    ]);
    expect(card('ftp://example.com/a').map(([code]) => code)).toEqual(['validation_error']);
    expect(card(true).map(([code]) => code)).toEqual(['validation_error']);
  });

  test('Mastodon: at most 500 characters with the content warning, text or media, media or a poll, distinct poll options, no more alt texts than media', () => {
    const poll = { options: ['yes', 'no'], expiresIn: 3600 };
    expect(check({ platforms: ['mastodon'], caption: 'x'.repeat(MASTODON_TEXT_MAX) })).toEqual([]);
    expect(
      codes({
        platforms: ['mastodon'],
        caption: 'x'.repeat(MASTODON_TEXT_MAX - 3),
        platformMeta: { mastodon: { spoilerText: 'cw!!' } },
      }),
    ).toEqual([['validation_error', 'mastodon', 'caption']]);
    expect(codes({ platforms: ['mastodon'], mediaId: 'med_1', caption: ' ' })).toEqual([]);
    expect(
      codes({ platforms: ['mastodon'], caption: 'vote', mediaUrls: video, platformMeta: { mastodon: { poll } } }),
    ).toEqual([['validation_error', 'mastodon', 'platformMeta.mastodon.poll']]);
    expect(check({ platforms: ['mastodon'], caption: 'vote', platformMeta: { mastodon: { poll } } })).toEqual([]);
    expect(
      codes({
        platforms: ['mastodon'],
        caption: 'vote',
        platformMeta: { mastodon: { poll: { ...poll, options: ['yes', 'yes'] } } },
      }),
    ).toEqual([['validation_error', 'mastodon', 'platformMeta.mastodon.poll.options']]);
    expect(
      codes({ platforms: ['mastodon'], mediaUrls: video, platformMeta: { mastodon: { altTexts: ['one', 'two'] } } }),
    ).toEqual([['validation_error', 'mastodon', 'platformMeta.mastodon.altTexts']]);
  });

  test('a platform named twice is checked once', () => {
    expect(codes({ platforms: ['instagram', 'instagram'], caption: 'c' })).toEqual([
      ['validation_error', 'instagram', 'mediaId'],
    ]);
  });
});

describe('assertPostPayload', () => {
  test('when the payload breaks rules, then it throws the first as an AppError, with all of them in details when there are several', () => {
    const single = (() => {
      try {
        assertPostPayload({ platforms: ['instagram'], caption: 'c' }, { now, requireScheduledTime: false });
      } catch (err) {
        return err;
      }
    })() as AppError;
    expect(single).toBeInstanceOf(AppError);
    expect([single.code, single.details]).toEqual(['validation_error', undefined]);

    const several = (() => {
      try {
        assertPostPayload({}, { now, requireScheduledTime: true });
      } catch (err) {
        return err;
      }
    })() as AppError;
    expect(several.code).toBe('missing_platforms');
    expect((several.details as { problems: { code: string }[] }).problems.map((p) => p.code)).toEqual([
      'missing_platforms',
      'missing_content',
      'invalid_scheduled_time',
      'validation_error',
    ]);
  });

  test('when the payload breaks no rule, then it is returned as it is', () => {
    expect(assertPostPayload(valid, { now, requireScheduledTime: true })).toBe(valid);
  });
});
