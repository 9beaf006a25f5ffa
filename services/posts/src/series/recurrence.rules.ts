import type { IANAZone } from 'luxon';
import { RRule, type Options } from 'rrule';
import { AppError, SERIES_OCCURRENCES_MAX } from '@postbus/contracts';
import { instantOfLocalMillis } from '../posts/local-time';

/** The RFC 5545 parts a recurrence may use, and the frequencies it may have. */
const ALLOWED_PARTS = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'COUNT', 'UNTIL']);
const ALLOWED_FREQ = new Set(['DAILY', 'WEEKLY', 'MONTHLY']);
const INTERVAL_MAX = 365;
const BYDAY_VALUE = /^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$/i;
const MINUTE = 60_000;
const END_OF_TIME = new Date(8.64e15);

const refuse = (message: string) => new AppError('validation_error', message, { field: 'recurrence' });

/** The rule as the rrule library reads it, without a start. */
export type Recurrence = Partial<Options>;

/**
 * An RRULE of the supported subset (FREQ DAILY/WEEKLY/MONTHLY, INTERVAL, BYDAY, COUNT, UNTIL),
 * read by the rrule library; anything else is refused with validation_error naming `recurrence`.
 */
export function parseRecurrence(raw: unknown): Recurrence {
  if (typeof raw !== 'string' || !raw.trim())
    throw refuse('recurrence must be an RRULE such as "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10".');
  const text = raw.trim().replace(/^RRULE:/i, '');
  const parts = text.split(';').map((p) => p.split('=')[0].toUpperCase());
  const unknown = parts.filter((p) => !ALLOWED_PARTS.has(p));
  if (unknown.length)
    throw refuse(`recurrence may use FREQ, INTERVAL, BYDAY, COUNT and UNTIL only; got ${unknown.join(', ')}.`);
  if (new Set(parts).size !== parts.length) throw refuse('recurrence names a part twice.');
  const freq = /(?:^|;)FREQ=([A-Z]+)/i.exec(text)?.[1]?.toUpperCase();
  if (!freq || !ALLOWED_FREQ.has(freq)) throw refuse('recurrence needs FREQ=DAILY, FREQ=WEEKLY or FREQ=MONTHLY.');
  const byday = /(?:^|;)BYDAY=([^;]*)/i.exec(text)?.[1];
  if (byday !== undefined && !byday.split(',').every((d) => BYDAY_VALUE.test(d)))
    throw refuse('BYDAY takes days such as MO,WE,FR (in a monthly rule optionally numbered, e.g. 1MO or -1FR).');
  let options: Partial<Options>;
  try {
    options = RRule.parseString(text);
  } catch (err) {
    throw refuse(`recurrence is not a valid RRULE: ${(err as Error).message}.`);
  }
  const { interval, count, until } = options;
  if (interval != null && (!Number.isInteger(interval) || interval < 1 || interval > INTERVAL_MAX))
    throw refuse(`INTERVAL must be from 1 to ${INTERVAL_MAX}.`);
  if (count != null && (!Number.isInteger(count) || count < 1 || count > SERIES_OCCURRENCES_MAX))
    throw refuse(`COUNT must be from 1 to ${SERIES_OCCURRENCES_MAX}.`);
  if (until != null && Number.isNaN(until.getTime())) throw refuse('UNTIL must be a date such as 20271231T235959Z.');
  return options;
}

export interface Occurrence {
  index: number;
  at: Date;
}

/**
 * The occurrences with index ≥ `fromIndex` up to `through`, at most `limit`. The rule runs over
 * local wall time from the first occurrence's (`firstLocalMs`: its local clock reading as if it
 * were UTC), and each wall time becomes an instant in `zone` with the same gap and overlap rules
 * as a post's local time: a time the clocks skip moves to the first valid minute after, a
 * repeated one is its first occurrence. UNTIL, an instant, is compared as one. A series never has
 * more than SERIES_OCCURRENCES_MAX occurrences.
 */
export function occurrencesOf(
  rule: Recurrence,
  zone: IANAZone,
  firstLocalMs: number,
  fromIndex: number,
  through: Date,
  limit: number,
): Occurrence[] {
  const { until, ...rest } = rule;
  const out: Occurrence[] = [];
  let index = 0;
  new RRule({ ...rest, dtstart: new Date(firstLocalMs) }).all((local) => {
    if (index >= SERIES_OCCURRENCES_MAX || out.length >= limit) return false;
    const at = new Date(instantOfLocalMillis(local.getTime(), zone));
    if ((until && at.getTime() > until.getTime()) || at.getTime() > through.getTime()) return false;
    if (index >= fromIndex) out.push({ index, at });
    index++;
    return true;
  });
  return out;
}

/** The instant of occurrence `index`, or undefined when the series has fewer. */
export function occurrenceAt(rule: Recurrence, zone: IANAZone, firstLocalMs: number, index: number): Date | undefined {
  return occurrencesOf(rule, zone, firstLocalMs, index, END_OF_TIME, 1)[0]?.at;
}

/** The local clock reading of an instant in a zone, as milliseconds read as if UTC. */
export function localMillisOf(at: Date, zone: IANAZone): number {
  return at.getTime() + zone.offset(at.getTime()) * MINUTE;
}
