import fc from 'fast-check';
import { WEEKDAYS } from '@postbus/contracts';
import { instantOfWallTime, zoneOf } from '../src/posts/local-time';
import { nextSlotTimes } from '../src/schedules/weekly-slots';

const berlin = zoneOf('Europe/Berlin')!;

describe('the next slot times of a weekly schedule', () => {
  test('when a slot is skipped by the clocks, then it fires at the first valid minute after; a slot also landing there is the same slot', () => {
    const slots = [
      { day: 'sun' as const, time: '02:30' },
      { day: 'sun' as const, time: '03:00' },
    ];
    expect(
      nextSlotTimes(slots, berlin, new Date('2027-03-27T00:00:00Z'), 2).map((s) => [s.at.toISOString(), s.local]),
    ).toEqual([
      ['2027-03-28T01:00:00.000Z', '2027-03-28T03:00'],
      ['2027-04-04T00:30:00.000Z', '2027-04-04T02:30'],
    ]);
  });

  test('when a slot is in the repeated hour, then it fires once, at its first occurrence', () => {
    const times = nextSlotTimes([{ day: 'sun', time: '02:30' }], berlin, new Date('2027-10-30T00:00:00Z'), 2).map((s) =>
      s.at.toISOString(),
    );
    expect(times).toEqual(['2027-10-31T00:30:00.000Z', '2027-11-07T01:30:00.000Z']);
  });

  test('property: slot times are never past, strictly increasing and each a valid local time of the zone', () => {
    const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham'];
    const slot = fc.record({
      day: fc.constantFrom(...WEEKDAYS),
      time: fc
        .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
    });
    const after = fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2035, 0, 1) }).map((t) => new Date(t));
    fc.assert(
      fc.property(
        fc.array(slot, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...zones),
        after,
        fc.integer({ min: 1, max: 20 }),
        (slots, name, from, count) => {
          const zone = zoneOf(name)!;
          const times = nextSlotTimes(slots, zone, from, count);
          expect(times.length).toBe(count);
          times.forEach(({ at, local }, i) => {
            expect(at.getTime()).toBeGreaterThan(i ? times[i - 1].at.getTime() : from.getTime());
            expect(instantOfWallTime(local, zone)!.getTime()).toBe(at.getTime());
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
