import { calendarHref, calendarRange, readCalendarRequest, todayIn } from '../src/entry-points/pages/calendar-range';

const NOW = new Date('2027-06-14T02:30:00Z');

describe('the calendar range', () => {
  test('when a week is asked for any of its days, then it runs Monday to Sunday and pages by seven days, across a year end', () => {
    for (const date of ['2027-12-27', '2027-12-30', '2028-01-02']) {
      const week = calendarRange('week', date);
      expect({ from: week.from, to: week.to, previous: week.previous, next: week.next }).toEqual({
        from: '2027-12-27',
        to: '2028-01-02',
        previous: '2027-12-20',
        next: '2028-01-03',
      });
      expect(week.weeks).toEqual([
        ['2027-12-27', '2027-12-28', '2027-12-29', '2027-12-30', '2027-12-31', '2028-01-01', '2028-01-02'],
      ]);
      expect(week.title).toBe('27 December 2027 – 2 January 2028');
    }
  });

  test('when a month is asked, then it is the whole weeks that hold it (four to six) and pages by calendar month', () => {
    const february = calendarRange('month', '2027-02-28');
    expect({
      from: february.from,
      to: february.to,
      rows: february.weeks.length,
      month: february.month,
      title: february.title,
    }).toEqual({ from: '2027-02-01', to: '2027-02-28', rows: 4, month: '2027-02', title: 'February 2027' });
    const may = calendarRange('month', '2027-05-31');
    expect({ from: may.from, to: may.to, rows: may.weeks.length, previous: may.previous, next: may.next }).toEqual({
      from: '2027-04-26',
      to: '2027-06-06',
      rows: 6,
      previous: '2027-04-01',
      next: '2027-06-01',
    });
    expect(calendarRange('month', '2028-01-15').previous).toBe('2027-12-01');
    expect(may.weeks.every((week) => week.length === 7)).toBe(true);
  });

  test('when no date is given, then the day is today in the zone asked, not in UTC', () => {
    expect(todayIn('UTC', NOW)).toBe('2027-06-14');
    expect(readCalendarRequest({ timezone: 'America/New_York' }, NOW)).toEqual({
      ok: true,
      request: { view: 'week', date: '2027-06-13', timezone: 'America/New_York' },
    });
    expect(readCalendarRequest({}, NOW)).toEqual({
      ok: true,
      request: { view: 'week', date: '2027-06-14', timezone: 'UTC' },
    });
  });

  test('when a value is wrong or repeated, then the read names it and keeps what was typed', () => {
    const wrong = (query: Record<string, unknown>) => {
      const read = readCalendarRequest(query, NOW);
      return read.ok ? 'ok' : read.error.split(' ')[0];
    };
    expect(wrong({ view: 'day' })).toBe('view');
    expect(wrong({ view: ['week', 'month'] })).toBe('view');
    expect(wrong({ timezone: 'Mars/Olympus' })).toBe('timezone');
    expect(wrong({ date: '2027-02-29' })).toBe('date');
    expect(wrong({ date: '2028-02-29' })).toBe('ok');
    expect(wrong({ date: '1969-12-31' })).toBe('date');
    expect(wrong({ date: '27-06-01' })).toBe('date');
    expect(wrong({ profileId: 'p'.repeat(65) })).toBe('profileId');
    expect(readCalendarRequest({ view: 'month', date: 'soon', timezone: 'Europe/Berlin' }, NOW)).toMatchObject({
      ok: false,
      form: { view: 'month', date: 'soon', timezone: 'Europe/Berlin', profileId: '' },
    });
  });

  test('when an address is made, then every value is encoded and an empty date means today', () => {
    expect(
      calendarHref({ view: 'week', date: '2027-06-09', timezone: 'America/New_York', profileId: 'prf_1&x=<' }),
    ).toBe('/settings/calendar?view=week&date=2027-06-09&timezone=America%2FNew_York&profileId=prf_1%26x%3D%3C');
    expect(calendarHref({ view: 'month', date: '', timezone: 'UTC' }, '/settings/calendar/posts/pst_1')).toBe(
      '/settings/calendar/posts/pst_1?view=month&timezone=UTC',
    );
  });
});
