import {
  AppError,
  CAPTION_MAX,
  compile,
  describeErrors,
  isPlatform,
  PostPayloadSchema,
  TIKTOK_PRIVACY_LEVELS,
  TIKTOK_TITLE_MAX,
  type ErrorCode,
  type Platform,
  type PostPayload,
} from '@postbus/contracts';
import { instantOfWallTime, isWallTime, zoneOf } from './local-time';
import { mediaLinkProblems } from './media-links.rules';

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

/**
 * Every rule of the post payload (spec 2.4), as a list of problems so that validation can
 * report them all at once and creation can refuse with the first.
 */
export function checkPostPayload(body: unknown, opts: { now: Date; requireScheduledTime: boolean }): Problem[] {
  const problems: Problem[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return [{ code: 'validation_error', message: 'The body must be a JSON object.' }];
  }
  const b = body as Record<string, unknown>;

  if (b.platforms === undefined || b.platforms === null || (Array.isArray(b.platforms) && b.platforms.length === 0)) {
    problems.push({ code: 'missing_platforms', message: 'platforms is required: one or more of instagram, tiktok, youtube, threads, facebook.', field: 'platforms' });
  } else if (!Array.isArray(b.platforms)) {
    problems.push({ code: 'validation_error', message: 'platforms must be an array of platform names.', field: 'platforms' });
  } else {
    const unknown = b.platforms.filter((p) => !isPlatform(p));
    if (unknown.length) problems.push({ code: 'unsupported_platform', message: `Unsupported platform ${unknown.map((p) => JSON.stringify(p)).join(', ')}; use instagram, tiktok, youtube, threads or facebook.`, field: 'platforms' });
  }
  const platforms = (Array.isArray(b.platforms) ? b.platforms.filter(isPlatform) : []) as Platform[];

  const hasCaption = typeof b.caption === 'string' && b.caption.trim() !== '';
  const hasMediaUrls = Array.isArray(b.mediaUrls) && b.mediaUrls.length > 0;
  const hasMediaId = typeof b.mediaId === 'string' && b.mediaId !== '';
  if (!hasCaption && !hasMediaUrls && !hasMediaId) {
    problems.push({ code: 'missing_content', message: 'A post needs a caption, mediaUrls or a mediaId.' });
  }

  const unknownZone = b.timezone !== undefined && !zoneOf(b.timezone);
  if (unknownZone) {
    problems.push({ code: 'validation_error', message: 'timezone must be an IANA time zone name such as Europe/Berlin or America/New_York.', field: 'timezone' });
  }
  const queued = b.schedule !== undefined || b.scheduledTime === QUEUE_NEXT;
  if (b.schedule !== undefined && b.scheduledTime !== undefined) problems.push({ code: 'validation_error', message: 'Give schedule (take the next free slot) or scheduledTime, not both.', field: 'schedule' });
  if (b.scheduledTime === QUEUE_NEXT) {
    // The next free slot of each profile's default schedule, taken when stored.
  } else if (b.scheduledTime === undefined || b.scheduledTime === null) {
    if (opts.requireScheduledTime && !queued) problems.push({ code: 'invalid_scheduled_time', message: 'scheduledTime is required: an ISO 8601 datetime with Z or an offset, in the future.', field: 'scheduledTime' });
  } else {
    const at = scheduledInstantOf(b);
    // A local time with an unknown zone is refused for the zone alone, reported above.
    const zoneIsTheProblem = unknownZone && isWallTime(b.scheduledTime);
    if (!at && !zoneIsTheProblem) problems.push({ code: 'invalid_scheduled_time', message: 'scheduledTime must be an ISO 8601 datetime with Z or an offset, e.g. 2026-12-01T09:30:00Z, or a local time such as 2026-12-01T09:30:00 together with timezone.', field: 'scheduledTime' });
    else if (at && at.getTime() <= opts.now.getTime()) problems.push({ code: 'scheduled_time_in_past', message: `scheduledTime ${b.scheduledTime} is not in the future.`, field: 'scheduledTime' });
  }

  // The remaining shape (types, lengths, unknown fields) through the contract schema.
  const check = compile(PostPayloadSchema);
  if (!check(body)) {
    const rest = (check.errors ?? []).filter((e) => !['/platforms', '/scheduledTime', '/timezone'].some((path) => e.instancePath.startsWith(path)));
    if (rest.length) problems.push({ code: 'validation_error', message: describeErrors(rest) });
  }
  problems.push(...mediaLinkProblems(b, platforms));

  const caption = typeof b.caption === 'string' ? b.caption : '';
  const title = typeof b.title === 'string' ? b.title : undefined;
  const meta = (typeof b.platformMeta === 'object' && b.platformMeta !== null ? b.platformMeta : {}) as Record<string, Record<string, unknown> | undefined>;
  for (const platform of new Set(platforms)) {
    problems.push(...platformRules(platform, { caption, title, meta, hasMedia: hasMediaUrls || hasMediaId }));
  }
  return problems;
}

function platformRules(platform: Platform, p: { caption: string; title?: string; meta: Record<string, Record<string, unknown> | undefined>; hasMedia: boolean }): Problem[] {
  const out: Problem[] = [];
  const refuse = (message: string, field?: string) => out.push({ code: 'validation_error', message, platform, field });
  switch (platform) {
    case 'tiktok': {
      if (!p.title?.trim()) refuse('TikTok posts need a title.', 'title');
      else if (p.title.length > TIKTOK_TITLE_MAX) refuse(`TikTok titles are at most ${TIKTOK_TITLE_MAX} characters (got ${p.title.length}).`, 'title');
      const tk = p.meta.tiktok ?? {};
      if (!tk.privacyLevel) refuse(`TikTok posts need platformMeta.tiktok.privacyLevel: one of ${TIKTOK_PRIVACY_LEVELS.join(', ')}.`, 'platformMeta.tiktok.privacyLevel');
      if (tk.commercialContentDisclosure === true && tk.brandOrganicOptIn !== true && tk.brandContentOptIn !== true) {
        refuse('With commercialContentDisclosure, set brandOrganicOptIn or brandContentOptIn to true.', 'platformMeta.tiktok');
      }
      if (!p.hasMedia) refuse('TikTok posts need a video or photos (mediaId or mediaUrls).', 'mediaId');
      break;
    }
    case 'youtube':
      if (!p.title?.trim()) refuse('YouTube posts need a title.', 'title');
      else if (p.title.length > YOUTUBE_TITLE_MAX) refuse(`YouTube titles are at most ${YOUTUBE_TITLE_MAX} characters.`, 'title');
      if (!p.hasMedia) refuse('YouTube posts need a video (mediaId or mediaUrls).', 'mediaId');
      break;
    case 'instagram':
      if (!p.hasMedia) refuse('Instagram posts need an image or video (mediaId or mediaUrls).', 'mediaId');
      break;
    case 'threads':
      if ([...p.caption].length > THREADS_TEXT_MAX) refuse(`Threads posts are at most ${THREADS_TEXT_MAX} characters (got ${[...p.caption].length}).`, 'caption');
      break;
    case 'facebook':
      break;
  }
  return out;
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
