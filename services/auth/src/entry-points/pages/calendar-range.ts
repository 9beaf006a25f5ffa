/**
 * What the calendar page shows: the view, the day it is about, the zone its days are read in and
 * the profile it narrows to, read from the query; and the local days of that view. Days are civil
 * dates (a Date at UTC midnight stands for one), so adding days never meets a clock change.
 */

export const CALENDAR_VIEWS = ['week', 'month'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

export interface CalendarRequest {
  view: CalendarView;
  /** A local day YYYY-MM-DD inside the week or month shown. */
  date: string;
  /** IANA zone the days and times are read in. */
  timezone: string;
  profileId?: string;
}

/** The query values as typed, to show them again beside an error. */
export interface CalendarForm {
  view: string;
  date: string;
  timezone: string;
  profileId: string;
}

export type CalendarRead = { ok: true; request: CalendarRequest } | { ok: false; form: CalendarForm; error: string };

const FIELDS = ['view', 'date', 'timezone', 'profileId'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

const single = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The calendar query (`view`, `date`, `timezone`, `profileId`); a missing date is today in the zone. */
export function readCalendarRequest(query: Record<string, unknown>, now: Date): CalendarRead {
  const form: CalendarForm = {
    view: single(query.view) ?? 'week',
    date: single(query.date) ?? '',
    timezone: single(query.timezone) || 'UTC',
    profileId: single(query.profileId) ?? '',
  };
  const fail = (error: string): CalendarRead => ({ ok: false, form, error });
  const repeated = FIELDS.find((field) => query[field] !== undefined && typeof query[field] !== 'string');
  if (repeated) return fail(`${repeated} must be given once.`);
  if (!(CALENDAR_VIEWS as readonly string[]).includes(form.view)) return fail('view must be week or month.');
  if (form.timezone.length > 64 || !isTimeZone(form.timezone))
    return fail('timezone must be an IANA time zone name, e.g. Europe/Berlin.');
  const date = form.date || todayIn(form.timezone, now);
  if (!isDate(date)) return fail('date must be a day YYYY-MM-DD from 1970 on.');
  if (form.profileId.length > 64) return fail('profileId must be a profile id.');
  return {
    ok: true,
    request: {
      view: form.view as CalendarView,
      date,
      timezone: form.timezone,
      ...(form.profileId && { profileId: form.profileId }),
    },
  };
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function isDate(value: string): boolean {
  if (!DATE.test(value) || value < '1970-01-01' || value > '9998-12-31') return false;
  const day = dayOf(value);
  // 2027-02-30 parses as 2 March: only a day that reads back the same is a real one.
  return !Number.isNaN(day.getTime()) && toDay(day) === value;
}

/** The local day of `now` in the zone. */
export function todayIn(timezone: string, now: Date): string {
  // en-CA formats a date as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

const dayOf = (date: string) => new Date(`${date}T00:00:00Z`);
const toDay = (d: Date) => d.toISOString().slice(0, 10);
const plusDays = (date: string, days: number) => toDay(new Date(dayOf(date).getTime() + days * DAY_MS));
/** Monday 0 … Sunday 6. */
const weekdayOf = (date: string) => (dayOf(date).getUTCDay() + 6) % 7;
const mondayOf = (date: string) => plusDays(date, -weekdayOf(date));
const firstOfMonth = (date: string) => `${date.slice(0, 8)}01`;
const shiftMonth = (date: string, months: number) => {
  const d = dayOf(firstOfMonth(date));
  return toDay(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1)));
};

export interface CalendarRange {
  /** First and last local day shown, included: whole weeks, Monday to Sunday. */
  from: string;
  to: string;
  /** The days shown, a row of seven per week. */
  weeks: string[][];
  /** The month of a month view (YYYY-MM); days outside it are shown dimmed. */
  month?: string;
  title: string;
  /** A day in the week or month before and after. */
  previous: string;
  next: string;
}

const MONTH_TITLE = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'long', year: 'numeric' });
const DAY_TITLE = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });

export function calendarRange(view: CalendarView, date: string): CalendarRange {
  if (view === 'week') {
    const from = mondayOf(date);
    const to = plusDays(from, 6);
    return {
      from,
      to,
      weeks: [daysFrom(from, 7)],
      title: `${DAY_TITLE.format(dayOf(from))} – ${DAY_TITLE.format(dayOf(to))}`,
      previous: plusDays(from, -7),
      next: plusDays(from, 7),
    };
  }
  const first = firstOfMonth(date);
  const last = plusDays(shiftMonth(first, 1), -1);
  const from = mondayOf(first);
  const to = plusDays(mondayOf(last), 6);
  const days = daysFrom(from, Math.round((dayOf(to).getTime() - dayOf(from).getTime()) / DAY_MS) + 1);
  const weeks: string[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  return {
    from,
    to,
    weeks,
    month: first.slice(0, 7),
    title: MONTH_TITLE.format(dayOf(first)),
    previous: shiftMonth(first, -1),
    next: shiftMonth(first, 1),
  };
}

function daysFrom(from: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => plusDays(from, i));
}

const HEADING = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });
const WEEKDAY = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long' });

/** "Tue 8 Jun": a week view's column heading. */
export const dayHeading = (date: string) => HEADING.format(dayOf(date));
/** "Tuesday": a month view's column heading. */
export const weekdayName = (date: string) => WEEKDAY.format(dayOf(date));

/** The calendar page's address for these values (also how a post page links back to it); without a date, today's. */
export function calendarHref(r: CalendarRequest, path = '/settings/calendar'): string {
  const q = new URLSearchParams({ view: r.view });
  if (r.date) q.set('date', r.date);
  q.set('timezone', r.timezone);
  if (r.profileId) q.set('profileId', r.profileId);
  return `${path}?${q.toString()}`;
}
