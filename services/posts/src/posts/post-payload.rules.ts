import {
  AppError,
  BLUESKY_TEXT_MAX,
  BLUESKY_TEXT_MAX_BYTES,
  MASTODON_TEXT_MAX,
  X_TEXT_MAX,
  CAPTION_MAX,
  compile,
  describeErrors,
  isPlatform,
  PLATFORMS,
  PostPayloadSchema,
  TIKTOK_PRIVACY_LEVELS,
  TIKTOK_TITLE_MAX,
  type ErrorCode,
  type Platform,
  type PostPayload,
} from '@postbus/contracts';
import { graphemeLength, mastodonTextLength, xTextLength } from '@postbus/platforms';
import { instantOfWallTime, isWallTime, zoneOf } from './local-time';
import { mediaLinkProblems } from './media-links.rules';
import { followUpProblems } from './follow-up.rules';
import { pinterestRules } from './pinterest.rules';
import { linkedinRules } from './linkedin.rules';

export const THREADS_TEXT_MAX = 500;
export const YOUTUBE_TITLE_MAX = 100;

export interface Problem {
  code: ErrorCode;
  message: string;
  platform?: Platform;
  field?: string;
}

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Parses an ISO 8601 datetime that names its offset; a naive datetime is refused, never guessed. */
export function parseTimestamp(value: unknown): Date | undefined {
  if (typeof value !== 'string' || !ISO_WITH_OFFSET.test(value)) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/**
 * The instant scheduledTime names: as given when it carries an offset, read as local time in
 * `timezone` when it does not (gap and overlap rules in local-time.ts); never a guess without one.
 */
/** `"scheduledTime": "next"`: each profile's post takes the next free slot of its default schedule. */
export const QUEUE_NEXT = 'next';

export function scheduledInstantOf(b: { scheduledTime?: unknown; timezone?: unknown }): Date | undefined {
  const zone = zoneOf(b.timezone);
  if (zone && isWallTime(b.scheduledTime)) return instantOfWallTime(b.scheduledTime, zone);
  return parseTimestamp(b.scheduledTime);
}

type Body = Record<string, unknown>;
type PlatformMeta = Record<string, Record<string, unknown> | undefined>;

interface PlatformInput {
  caption: string;
  title?: string;
  meta: PlatformMeta;
  hasMedia: boolean;
  mediaCount: number;
  mediaUrls: string[];
}

/**
 * Every rule of the post payload (spec 2.4), as a list of problems so that validation can
 * report them all at once and creation can refuse with the first.
 */
export function checkPostPayload(body: unknown, opts: { now: Date; requireScheduledTime: boolean }): Problem[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return [{ code: 'validation_error', message: 'The body must be a JSON object.' }];
  }
  const b = body as Body;
  const platforms = Array.isArray(b.platforms) ? b.platforms.filter(isPlatform) : [];
  return [
    ...platformListProblems(b),
    ...contentProblems(b),
    ...timingProblems(b, opts),
    ...schemaProblems(body),
    ...mediaLinkProblems(b, platforms),
    ...followUpProblems(b, platforms),
    ...perPlatformProblems(b, platforms),
  ];
}

function platformListProblems(b: Body): Problem[] {
  if (b.platforms === undefined || b.platforms === null || (Array.isArray(b.platforms) && b.platforms.length === 0)) {
    return [
      {
        code: 'missing_platforms',
        message: `platforms is required: one or more of ${PLATFORMS.join(', ')}.`,
        field: 'platforms',
      },
    ];
  }
  if (!Array.isArray(b.platforms)) {
    return [{ code: 'validation_error', message: 'platforms must be an array of platform names.', field: 'platforms' }];
  }
  const unknown = b.platforms.filter((p) => !isPlatform(p));
  if (!unknown.length) return [];
  return [
    {
      code: 'unsupported_platform',
      message: `Unsupported platform ${unknown.map((p) => JSON.stringify(p)).join(', ')}; use ${PLATFORMS.slice(0, -1).join(', ')} or ${PLATFORMS.at(-1)}.`,
      field: 'platforms',
    },
  ];
}

function hasMediaUrls(b: Body): boolean {
  return Array.isArray(b.mediaUrls) && b.mediaUrls.length > 0;
}

function hasMediaId(b: Body): boolean {
  return typeof b.mediaId === 'string' && b.mediaId !== '';
}

function contentProblems(b: Body): Problem[] {
  const hasCaption = typeof b.caption === 'string' && b.caption.trim() !== '';
  if (hasCaption || hasMediaUrls(b) || hasMediaId(b)) return [];
  return [{ code: 'missing_content', message: 'A post needs a caption, mediaUrls or a mediaId.' }];
}

/** timezone, schedule and scheduledTime, in that order. */
function timingProblems(b: Body, opts: { now: Date; requireScheduledTime: boolean }): Problem[] {
  const problems: Problem[] = [];
  const unknownZone = b.timezone !== undefined && !zoneOf(b.timezone);
  if (unknownZone) {
    problems.push({
      code: 'validation_error',
      message: 'timezone must be an IANA time zone name such as Europe/Berlin or America/New_York.',
      field: 'timezone',
    });
  }
  if (b.schedule !== undefined && b.scheduledTime !== undefined)
    problems.push({
      code: 'validation_error',
      message: 'Give schedule (take the next free slot) or scheduledTime, not both.',
      field: 'schedule',
    });
  problems.push(...scheduledTimeProblems(b, opts, unknownZone));
  return problems;
}

function scheduledTimeProblems(
  b: Body,
  opts: { now: Date; requireScheduledTime: boolean },
  unknownZone: boolean,
): Problem[] {
  // "next": the next free slot of each profile's default schedule, taken when stored.
  if (b.scheduledTime === QUEUE_NEXT) return [];
  if (b.scheduledTime === undefined || b.scheduledTime === null) {
    const queued = b.schedule !== undefined;
    if (!opts.requireScheduledTime || queued) return [];
    return [
      {
        code: 'invalid_scheduled_time',
        message: 'scheduledTime is required: an ISO 8601 datetime with Z or an offset, in the future.',
        field: 'scheduledTime',
      },
    ];
  }
  const at = scheduledInstantOf(b);
  // A local time with an unknown zone is refused for the zone alone, reported with the timezone.
  const zoneIsTheProblem = unknownZone && isWallTime(b.scheduledTime);
  if (!at && !zoneIsTheProblem)
    return [
      {
        code: 'invalid_scheduled_time',
        message:
          'scheduledTime must be an ISO 8601 datetime with Z or an offset, e.g. 2026-12-01T09:30:00Z, or a local time such as 2026-12-01T09:30:00 together with timezone.',
        field: 'scheduledTime',
      },
    ];
  if (at && typeof b.scheduledTime === 'string' && at.getTime() <= opts.now.getTime())
    return [
      {
        code: 'scheduled_time_in_past',
        message: `scheduledTime ${b.scheduledTime} is not in the future.`,
        field: 'scheduledTime',
      },
    ];
  return [];
}

/** The remaining shape (types, lengths, unknown fields) through the contract schema. */
function schemaProblems(body: unknown): Problem[] {
  const check = compile(PostPayloadSchema);
  if (check(body)) return [];
  // firstComment and thread have rules of their own (followUpProblems), with messages that say which platform refuses what.
  const rest = (check.errors ?? []).filter(
    (e) =>
      !['/platforms', '/scheduledTime', '/timezone', '/firstComment', '/thread'].some((path) =>
        e.instancePath.startsWith(path),
      ),
  );
  return rest.length ? [{ code: 'validation_error', message: describeErrors(rest) }] : [];
}

function perPlatformProblems(b: Body, platforms: Platform[]): Problem[] {
  const withUrls = hasMediaUrls(b);
  const withId = hasMediaId(b);
  const input: PlatformInput = {
    caption: typeof b.caption === 'string' ? b.caption : '',
    title: typeof b.title === 'string' ? b.title : undefined,
    meta: (typeof b.platformMeta === 'object' && b.platformMeta !== null ? b.platformMeta : {}) as PlatformMeta,
    hasMedia: withUrls || withId,
    // A mediaId names one stored item, placed before the mediaUrls.
    mediaCount: (withUrls ? (b.mediaUrls as unknown[]).length : 0) + (withId ? 1 : 0),
    mediaUrls: withUrls ? (b.mediaUrls as unknown[]).filter((u): u is string => typeof u === 'string') : [],
  };
  return [...new Set(platforms)].flatMap((platform) => platformRules(platform, input));
}

type Refuse = (message: string, field?: string, code?: ErrorCode) => void;

function platformRules(platform: Platform, p: PlatformInput): Problem[] {
  const out: Problem[] = [];
  const refuse: Refuse = (message, field, code = 'validation_error') => out.push({ code, message, platform, field });
  switch (platform) {
    case 'tiktok':
      tiktokRules(p, refuse);
      break;
    case 'youtube':
      youtubeRules(p, refuse);
      break;
    case 'instagram':
      if (!p.hasMedia) refuse('Instagram posts need an image or video (mediaId or mediaUrls).', 'mediaId');
      break;
    case 'threads':
      if ([...p.caption].length > THREADS_TEXT_MAX)
        refuse(`Threads posts are at most ${THREADS_TEXT_MAX} characters (got ${[...p.caption].length}).`, 'caption');
      break;
    case 'facebook':
      break;
    case 'bluesky':
      blueskyRules(p, refuse);
      break;
    case 'mastodon':
      mastodonRules(p, refuse);
      break;
    case 'linkedin':
      linkedinRules(p, refuse);
      break;
    case 'x':
      xRules(p, refuse);
      break;
    case 'pinterest':
      pinterestRules(p, refuse);
      break;
  }
  return out;
}

function tiktokRules(p: PlatformInput, refuse: Refuse): void {
  if (!p.title?.trim()) refuse('TikTok posts need a title.', 'title');
  else if (p.title.length > TIKTOK_TITLE_MAX)
    refuse(`TikTok titles are at most ${TIKTOK_TITLE_MAX} characters (got ${p.title.length}).`, 'title');
  const tk = p.meta.tiktok ?? {};
  if (!tk.privacyLevel)
    refuse(
      `TikTok posts need platformMeta.tiktok.privacyLevel: one of ${TIKTOK_PRIVACY_LEVELS.join(', ')}.`,
      'platformMeta.tiktok.privacyLevel',
    );
  if (tk.commercialContentDisclosure === true && tk.brandOrganicOptIn !== true && tk.brandContentOptIn !== true) {
    refuse(
      'With commercialContentDisclosure, set brandOrganicOptIn or brandContentOptIn to true.',
      'platformMeta.tiktok',
    );
  }
  if (!p.hasMedia) refuse('TikTok posts need a video or photos (mediaId or mediaUrls).', 'mediaId');
}

function youtubeRules(p: PlatformInput, refuse: Refuse): void {
  if (!p.title?.trim()) refuse('YouTube posts need a title.', 'title');
  else if (p.title.length > YOUTUBE_TITLE_MAX)
    refuse(`YouTube titles are at most ${YOUTUBE_TITLE_MAX} characters.`, 'title');
  if (!p.hasMedia) refuse('YouTube posts need a video (mediaId or mediaUrls).', 'mediaId');
}

function blueskyRules(p: PlatformInput, refuse: Refuse): void {
  // Bluesky counts graphemes (an emoji with its modifiers is one), and also caps the UTF-8 bytes.
  const graphemes = graphemeLength(p.caption);
  if (graphemes > BLUESKY_TEXT_MAX)
    refuse(`Bluesky posts are at most ${BLUESKY_TEXT_MAX} characters (graphemes; got ${graphemes}).`, 'caption');
  else if (Buffer.byteLength(p.caption) > BLUESKY_TEXT_MAX_BYTES)
    refuse(
      `Bluesky posts are at most ${BLUESKY_TEXT_MAX_BYTES} bytes of UTF-8 text (got ${Buffer.byteLength(p.caption)}).`,
      'caption',
    );
  refuseExtraAltTexts('bluesky', p.meta.bluesky?.altTexts, p.mediaCount, refuse);
  if (typeof p.meta.bluesky?.linkCard === 'string' && p.hasMedia)
    refuse(
      'A Bluesky post carries media or a link card, not both: remove platformMeta.bluesky.linkCard or the media.',
      'platformMeta.bluesky.linkCard',
    );
}

/** X weighs characters (a link 23, an emoji or CJK character 2): https://docs.x.com/fundamentals/counting-characters */
function xRules(p: PlatformInput, refuse: Refuse): void {
  const length = xTextLength(p.caption);
  if (length > X_TEXT_MAX)
    refuse(
      `X posts are at most ${X_TEXT_MAX} characters as X counts them, a link counting 23 and an emoji or CJK character 2 (got ${length}).`,
      'caption',
    );
  if (!p.caption.trim() && !p.hasMedia) refuse('X posts need text or media.', 'caption');
}

function mastodonRules(p: PlatformInput, refuse: Refuse): void {
  // Mastodon counts the text and the content warning together, a URL as 23 and a mention by its username only.
  const m = p.meta.mastodon ?? {};
  const spoilerText = typeof m.spoilerText === 'string' ? m.spoilerText : '';
  const length = mastodonTextLength(p.caption, spoilerText);
  if (length > MASTODON_TEXT_MAX)
    refuse(
      `Mastodon statuses are at most ${MASTODON_TEXT_MAX} characters with the content warning, a link counting 23 (got ${length}).`,
      'caption',
    );
  if (!p.caption.trim() && !p.hasMedia) refuse('Mastodon statuses need text or media.', 'caption');
  if (m.poll !== undefined && p.hasMedia)
    refuse('A Mastodon status carries media or a poll, not both.', 'platformMeta.mastodon.poll');
  const poll = m.poll as { options?: unknown } | undefined;
  if (poll && Array.isArray(poll.options) && new Set(poll.options).size !== poll.options.length)
    refuse('platformMeta.mastodon.poll.options must all differ.', 'platformMeta.mastodon.poll.options');
  refuseExtraAltTexts('mastodon', m.altTexts, p.mediaCount, refuse);
}

/** At most one alt text per media item, in order. */
function refuseExtraAltTexts(
  platform: 'bluesky' | 'mastodon',
  altTexts: unknown,
  mediaCount: number,
  refuse: Refuse,
): void {
  if (Array.isArray(altTexts) && altTexts.length > mediaCount) {
    refuse(
      `platformMeta.${platform}.altTexts has ${altTexts.length} entries for ${mediaCount} media item(s); give at most one per item, in order.`,
      `platformMeta.${platform}.altTexts`,
    );
  }
}

/** Throws the first problem as an AppError, or returns the payload typed. */
export function assertPostPayload(body: unknown, opts: { now: Date; requireScheduledTime: boolean }): PostPayload {
  const problems = checkPostPayload(body, opts);
  if (problems.length) {
    const [first] = problems;
    throw new AppError(first.code, first.message, problems.length > 1 ? { problems } : undefined);
  }
  return body as PostPayload;
}

export { CAPTION_MAX };
