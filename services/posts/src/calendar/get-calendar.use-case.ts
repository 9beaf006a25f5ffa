import { DateTime, type IANAZone } from 'luxon';
import {
  AppError,
  CALENDAR_CAPTION_CHARS,
  CALENDAR_DAYS_MAX,
  CALENDAR_POSTS_MAX,
  principalMayUseProfile,
  profileLimitOf,
  type Calendar,
  type Principal,
} from '@postbus/contracts';
import { zoneOf } from '../posts/local-time';
import type { PostsPorts } from '../posts/posts.ports';
import { postsInWindow, type CalendarRow } from './calendar.repository';

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface CalendarInput {
  from?: unknown;
  to?: unknown;
  timezone?: unknown;
  profileId?: unknown;
}

/**
 * The caller's posts scheduled in the local days from…to of a zone, grouped by local day. Day
 * boundaries are local midnights, so a day across a clock change is 23 or 25 hours long.
 */
export async function getCalendar(
  ports: Pick<PostsPorts, 'ds'>,
  principal: Principal,
  q: CalendarInput,
): Promise<Calendar> {
  const timezone = q.timezone === undefined ? 'UTC' : q.timezone;
  const zone = zoneOf(timezone);
  if (!zone) throw invalid('timezone', 'timezone must be an IANA time zone name, e.g. Europe/Berlin.');
  const from = localDay('from', q.from, zone);
  const to = localDay('to', q.to, zone);
  const days = Math.round(to.diff(from, 'days').days) + 1;
  if (days < 1) throw invalid('to', 'to must be on or after from.');
  if (days > CALENDAR_DAYS_MAX)
    throw invalid(
      'to',
      `to may be at most ${CALENDAR_DAYS_MAX - 1} days after from (${CALENDAR_DAYS_MAX} days in all).`,
    );
  const profileId = profileOf(principal, q.profileId);

  const rows = await postsInWindow(ports.ds.manager, {
    accountId: principal.accountId,
    start: from.toJSDate(),
    end: to.plus({ days: 1 }).toJSDate(),
    profileId,
    visibleProfiles: profileLimitOf(principal),
    captionChars: CALENDAR_CAPTION_CHARS,
    limit: CALENDAR_POSTS_MAX + 1,
  });
  const calendar: Calendar = {
    timezone: zone.name,
    days: groupByDay(rows.slice(0, CALENDAR_POSTS_MAX), zone, from, days),
  };
  if (rows.length > CALENDAR_POSTS_MAX) calendar.truncated = true;
  return calendar;
}

/** Local midnight starting the day, in the zone (luxon moves a midnight the clocks skip to the first valid time). */
function localDay(field: string, value: unknown, zone: IANAZone): DateTime {
  const day = typeof value === 'string' && LOCAL_DATE.test(value) ? DateTime.fromISO(value, { zone }) : undefined;
  if (!day?.isValid) throw invalid(field, `${field} must be a date YYYY-MM-DD.`);
  return day.startOf('day');
}

function profileOf(principal: Principal, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 64)
    throw invalid('profileId', 'profileId must be a profile id.');
  if (!principalMayUseProfile(principal, value))
    throw new AppError('profile_scope_denied', `This key may not use the profile ${value}.`);
  return value;
}

function groupByDay(rows: CalendarRow[], zone: IANAZone, from: DateTime, days: number): Calendar['days'] {
  const out: Calendar['days'] = [];
  const byDate = new Map<string, Calendar['days'][number]['posts']>();
  for (let i = 0; i < days; i++) {
    const date = from.plus({ days: i }).toISODate()!;
    const posts: Calendar['days'][number]['posts'] = [];
    byDate.set(date, posts);
    out.push({ date, posts });
  }
  for (const row of rows) {
    const at = DateTime.fromJSDate(new Date(row.scheduled_time), { zone });
    byDate.get(at.toISODate()!)?.push({
      id: row.id,
      platform: row.platform,
      profileId: row.profile_id,
      status: row.status,
      scheduledTime: new Date(row.scheduled_time).toISOString(),
      local: at.toFormat('HH:mm'),
      caption: row.caption,
      ...(row.permalink && { permalink: row.permalink }),
    });
  }
  return out;
}

const invalid = (field: string, message: string) => new AppError('validation_error', message, { field });
