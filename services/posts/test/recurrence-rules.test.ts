import fc from 'fast-check';
import { AppError, SERIES_OCCURRENCES_MAX } from '@postbus/contracts';
import { zoneOf } from '../src/posts/local-time';
import { localMillisOf, occurrenceAt, occurrencesOf, parseRecurrence } from '../src/series/recurrence.rules';

const FOREVER = new Date(8.64e15);
const wall = (s: string) => Date.parse(`${s}Z`);
const times = (rule: string, zone: string, first: string, n: number) =>
  occurrencesOf(parseRecurrence(rule), zoneOf(zone)!, wall(first), 0, FOREVER, n).map((o) => o.at.toISOString());
const refusal = (raw: unknown) => {
  try {
    parseRecurrence(raw);
  } catch (err) {
    return { code: (err as AppError).code, field: ((err as AppError).details as { field: string }).field };
  }
  return undefined;
};

describe('recurrence rules', () => {
  test('when a weekly rule crosses spring-forward in Berlin, then the wall time holds: 09:00 local before and after', () => {
    expect(times('FREQ=WEEKLY;COUNT=3', 'Europe/Berlin', '2027-03-21T09:00:00', 3)).toEqual([
      '2027-03-21T08:00:00.000Z',
      '2027-03-28T07:00:00.000Z',
      '2027-04-04T07:00:00.000Z',
    ]);
  });

  test('when a daily occurrence falls in the skipped hour, then it moves to the first valid minute after; in the repeated hour, it is the first', () => {
    expect(times('FREQ=DAILY;COUNT=3', 'Europe/Berlin', '2027-03-27T02:30:00', 3)).toEqual([
      '2027-03-27T01:30:00.000Z',
      '2027-03-28T01:00:00.000Z',
      '2027-03-29T00:30:00.000Z',
    ]);
    expect(times('FREQ=DAILY;COUNT=2', 'America/New_York', '2027-11-06T01:30:00', 2)).toEqual([
      '2027-11-06T05:30:00.000Z',
      '2027-11-07T05:30:00.000Z',
    ]);
  });

  test('when the zone shifts by 30 minutes (Lord Howe) or sits at +05:45 (Kathmandu), then each occurrence keeps its wall time', () => {
    expect(times('FREQ=WEEKLY;COUNT=2', 'Australia/Lord_Howe', '2027-03-28T10:00:00', 2)).toEqual([
      '2027-03-27T23:00:00.000Z',
      '2027-04-03T23:30:00.000Z',
    ]);
    expect(times('FREQ=MONTHLY;COUNT=2', 'Asia/Kathmandu', '2027-01-15T08:00:00', 2)).toEqual([
      '2027-01-15T02:15:00.000Z',
      '2027-02-15T02:15:00.000Z',
    ]);
  });

  test('when BYDAY, INTERVAL and UNTIL are given, then the occurrences follow them; UNTIL is an instant', () => {
    expect(
      times('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20270120T000000Z', 'UTC', '2027-01-04T12:00:00', 10),
    ).toEqual(['2027-01-04T12:00:00.000Z', '2027-01-06T12:00:00.000Z', '2027-01-18T12:00:00.000Z']);
  });

  test('when occurrences are asked from an index and up to a time, then only those come back, with their positions', () => {
    const rule = parseRecurrence('FREQ=DAILY');
    const got = occurrencesOf(
      rule,
      zoneOf('UTC')!,
      wall('2027-01-01T10:00:00'),
      2,
      new Date('2027-01-05T10:00:00Z'),
      100,
    );
    expect(got.map((o) => [o.index, o.at.toISOString()])).toEqual([
      [2, '2027-01-03T10:00:00.000Z'],
      [3, '2027-01-04T10:00:00.000Z'],
      [4, '2027-01-05T10:00:00.000Z'],
    ]);
    expect(
      occurrenceAt(parseRecurrence('FREQ=DAILY;COUNT=2'), zoneOf('UTC')!, wall('2027-01-01T10:00:00'), 2),
    ).toBeUndefined();
  });

  test('when the rule is outside the subset or malformed, then validation_error names recurrence', () => {
    for (const raw of [
      '',
      42,
      'FREQ=HOURLY',
      'FREQ=WEEKLY;BYMONTH=3',
      'FREQ=DAILY;FREQ=WEEKLY',
      'FREQ=DAILY;INTERVAL=0',
      `FREQ=DAILY;COUNT=${SERIES_OCCURRENCES_MAX + 1}`,
      'FREQ=DAILY;BYDAY=XX',
      'COUNT=3',
    ]) {
      expect({ raw, refusal: refusal(raw) }).toEqual({
        raw,
        refusal: { code: 'validation_error', field: 'recurrence' },
      });
    }
    expect(refusal('RRULE:FREQ=MONTHLY;INTERVAL=3;COUNT=4')).toBeUndefined();
  });

  test('property: occurrences are strictly increasing, never more than asked, and each keeps the local wall time unless the clocks skipped it', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY'),
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.integer({ min: 1, max: 40 }),
        (name, freq, start, count) => {
          const zone = zoneOf(name)!;
          const first = Math.floor(start / 60_000) * 60_000;
          const got = occurrencesOf(parseRecurrence(`FREQ=${freq};COUNT=${count}`), zone, first, 0, FOREVER, 100);
          expect(got.length).toBeLessThanOrEqual(count);
          for (let i = 1; i < got.length; i++) expect(got[i].at.getTime()).toBeGreaterThan(got[i - 1].at.getTime());
          const minuteOfDay = (ms: number) => Math.floor((ms % 86_400_000) / 60_000);
          // A kept wall time reads back the same; a skipped one lands later that day, within the skip (at most an hour).
          for (const o of got) {
            const drift = minuteOfDay(localMillisOf(o.at, zone)) - minuteOfDay(first);
            expect(drift === 0 || (drift > 0 && drift <= 60)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
