import fc from 'fast-check';
import { instantOfWallTime, wallTimeOf, zoneOf } from '../src/posts/local-time';

const at = (wall: string, zone: string) => instantOfWallTime(wall, zoneOf(zone)!)?.toISOString();

describe('a local wall time in an IANA zone', () => {
  test('when the time exists once, then it is that instant (half-hour and 45-minute offsets included)', () => {
    expect(at('2027-06-01T09:00', 'Asia/Kathmandu')).toBe('2027-06-01T03:15:00.000Z');
    expect(at('2027-06-01T09:00:00', 'Europe/Berlin')).toBe('2027-06-01T07:00:00.000Z');
    expect(at('2027-01-15T12:00', 'Australia/Lord_Howe')).toBe('2027-01-15T01:00:00.000Z');
    expect(at('2027-07-15T12:00', 'Australia/Lord_Howe')).toBe('2027-07-15T01:30:00.000Z');
  });

  test('when the time falls in the spring-forward gap, then it moves to the first valid minute after the gap', () => {
    expect(at('2027-03-28T02:30:00', 'Europe/Berlin')).toBe('2027-03-28T01:00:00.000Z');
    expect(at('2027-03-14T02:30', 'America/New_York')).toBe('2027-03-14T07:00:00.000Z');
    // Lord Howe moves 30 minutes: 02:00 becomes 02:30.
    expect(at('2027-10-03T02:15', 'Australia/Lord_Howe')).toBe('2027-10-02T15:30:00.000Z');
    expect(at('2027-10-03T02:00:45', 'Australia/Lord_Howe')).toBe('2027-10-02T15:30:00.000Z');
  });

  test('when the time falls in the repeated hour, then it is its first occurrence', () => {
    expect(at('2027-10-31T02:30:00', 'Europe/Berlin')).toBe('2027-10-31T00:30:00.000Z');
    expect(at('2027-11-07T01:30', 'America/New_York')).toBe('2027-11-07T05:30:00.000Z');
    // Lord Howe repeats 01:30–02:00: the first time is still at +11:00.
    expect(at('2027-04-04T01:45', 'Australia/Lord_Howe')).toBe('2027-04-03T14:45:00.000Z');
  });

  test('when the zone or the wall time is not real, then nothing is answered', () => {
    expect(zoneOf('Mars/Olympus')).toBeUndefined();
    expect(zoneOf('x'.repeat(200))).toBeUndefined();
    expect(zoneOf(42)).toBeUndefined();
    expect(instantOfWallTime('2027-02-30T10:00', zoneOf('Europe/Berlin')!)).toBeUndefined();
    expect(instantOfWallTime('2027-03-01T10:00Z', zoneOf('Europe/Berlin')!)).toBeUndefined();
    expect(instantOfWallTime('tomorrow', zoneOf('Europe/Berlin')!)).toBeUndefined();
  });

  test('property: the chosen instant shows a valid local time never before the asked one, and the asked one whenever it exists', () => {
    const zones = [
      'Europe/Berlin',
      'America/New_York',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'America/Santiago',
      'Pacific/Chatham',
    ];
    const wall = fc.record({
      y: fc.integer({ min: 2024, max: 2035 }),
      mo: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 28 }),
      h: fc.integer({ min: 0, max: 23 }),
      mi: fc.integer({ min: 0, max: 59 }),
    });
    const pad = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(wall, fc.constantFrom(...zones), ({ y, mo, d, h, mi }, name) => {
        const zone = zoneOf(name)!;
        const asked = `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}`;
        const instant = instantOfWallTime(asked, zone)!;
        const shown = wallTimeOf(instant, zone);
        // Round trip: the instant's own local time, read back, names the same instant (a valid local time).
        expect(instantOfWallTime(shown, zone)!.getTime()).toBe(instant.getTime());
        // Same-length ISO strings compare in time order.
        expect(shown >= asked).toBe(true);
        // Moved only across a gap: the minute before the chosen instant is still before the asked time.
        if (shown !== asked) expect(wallTimeOf(new Date(instant.getTime() - 60_000), zone) < asked).toBe(true);
        // First occurrence: no earlier instant, one clock shift back, shows the same time.
        for (const shift of [30, 60, 120])
          expect(wallTimeOf(new Date(instant.getTime() - shift * 60_000), zone)).not.toBe(shown);
      }),
      { numRuns: 2000 },
    );
  });
});
