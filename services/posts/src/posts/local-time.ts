import { DateTime, IANAZone } from 'luxon';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A local date and time without an offset: minute precision at least, seconds and fractions optional. */
const WALL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;
export const TIMEZONE_MAX = 64;

/** An IANA zone name the runtime knows (Europe/Berlin, Asia/Kathmandu, UTC); anything else is undefined. */
export function zoneOf(name: unknown): IANAZone | undefined {
  if (typeof name !== 'string' || name.length > TIMEZONE_MAX || !IANAZone.isValidZone(name)) return undefined;
  return IANAZone.create(name);
}

export function isWallTime(value: unknown): value is string {
  return typeof value === 'string' && WALL_TIME.test(value);
}

/**
 * The instant a local wall time names in a zone. A time the clocks skip (spring forward) moves to
 * the first valid minute after the skip; a time the clocks repeat (fall back) is its first
 * occurrence. Undefined when the wall time is not a real calendar date and time.
 */
export function instantOfWallTime(wall: string, zone: IANAZone): Date | undefined {
  if (!isWallTime(wall)) return undefined;
  const parsed = DateTime.fromISO(wall, { zone: 'utc' });
  if (!parsed.isValid) return undefined;
  return new Date(instantOfLocalMillis(parsed.toMillis(), zone));
}

/**
 * `local` is the wall time's milliseconds read as if it were UTC. Each offset the zone uses around
 * that time gives a candidate instant; those whose own offset agrees are real occurrences.
 */
export function instantOfLocalMillis(local: number, zone: IANAZone): number {
  const offsets = [...new Set([-36, -12, 0, 12, 36].map((h) => zone.offset(local + h * HOUR)))];
  const occurrences = offsets.map((o) => local - o * MINUTE).filter((t) => zone.offset(t) * MINUTE === local - t);
  if (occurrences.length) return Math.min(...occurrences);
  return endOfGap(local, zone, offsets);
}

/** The local time falls in a skip: the instant the clocks jumped, found by halving between the two readings. */
function endOfGap(local: number, zone: IANAZone, offsets: number[]): number {
  // Read with the larger offset the wall time lands before the jump, with the smaller one after it.
  // Clocks jump on a whole minute, so the search runs over whole minutes.
  let before = Math.floor((local - Math.max(...offsets) * MINUTE) / MINUTE) * MINUTE;
  let after = Math.ceil((local - Math.min(...offsets) * MINUTE) / MINUTE) * MINUTE;
  const offsetBefore = zone.offset(before);
  while (after - before > MINUTE) {
    const mid = before + Math.floor((after - before) / MINUTE / 2) * MINUTE;
    if (zone.offset(mid) === offsetBefore) before = mid;
    else after = mid;
  }
  return after;
}

/** The wall time an instant shows in a zone, to the minute (`2027-03-28T03:00`). */
export function wallTimeOf(instant: Date, zone: IANAZone): string {
  return DateTime.fromMillis(instant.getTime(), { zone }).toFormat("yyyy-MM-dd'T'HH:mm");
}
