import {
  DEFAULT_SHIFTS,
  GamingClock,
  GamingDayConfigError,
  InvalidInstantError,
  gamingDayConfig,
  gamingDayOf,
  hourOf,
  parseGamingDay,
  parseShifts,
  shiftOf,
} from './index';

const config = (gamingDay: string, shifts = DEFAULT_SHIFTS) => gamingDayConfig({ gamingDay, shifts });
const LONDON = config('06:00 Europe/London');

describe('gamingDayOf: the local date of the instant, the day starting at the cut-over', () => {
  test.each([
    // 06:00 UTC (default): before the cut-over, the day before
    ['06:00 UTC', '2026-01-01T05:59:59.999Z', '2025-12-31'],
    ['06:00 UTC', '2026-01-01T06:00:00.000Z', '2026-01-01'],
    // London in winter (GMT): the cut-over is 06:00 UTC
    ['06:00 Europe/London', '2026-03-28T05:59:59Z', '2026-03-27'],
    ['06:00 Europe/London', '2026-03-28T06:00:00Z', '2026-03-28'],
    // 2026-03-29: the clocks go forward at 01:00 UTC; 06:00 BST is 05:00 UTC
    ['06:00 Europe/London', '2026-03-29T04:59:59Z', '2026-03-28'],
    ['06:00 Europe/London', '2026-03-29T05:00:00Z', '2026-03-29'],
    // 2026-10-25: the clocks go back at 01:00 UTC; 06:00 GMT is 06:00 UTC
    ['06:00 Europe/London', '2026-10-25T00:30:00Z', '2026-10-24'],
    ['06:00 Europe/London', '2026-10-25T05:59:59Z', '2026-10-24'],
    ['06:00 Europe/London', '2026-10-25T06:00:00Z', '2026-10-25'],
    // India (UTC+05:30, no DST): 06:00 IST is 00:30 UTC
    ['06:00 Asia/Kolkata', '2026-03-29T00:29:59Z', '2026-03-28'],
    ['06:00 Asia/Kolkata', '2026-03-29T00:30:00Z', '2026-03-29'],
    // Adelaide (UTC+10:30 in summer, +09:30 in winter; back on 2026-04-05 at 16:30 UTC on the 4th)
    ['06:00 Australia/Adelaide', '2026-04-03T19:29:59Z', '2026-04-03'],
    ['06:00 Australia/Adelaide', '2026-04-03T19:30:00Z', '2026-04-04'],
    ['06:00 Australia/Adelaide', '2026-04-04T20:29:59Z', '2026-04-04'],
    ['06:00 Australia/Adelaide', '2026-04-04T20:30:00Z', '2026-04-05'],
    // a cut-over in the skipped hour starts the day when the clock jumps (01:00 UTC)...
    ['01:30 Europe/London', '2026-03-29T00:59:59Z', '2026-03-28'],
    ['01:30 Europe/London', '2026-03-29T01:00:00Z', '2026-03-29'],
    // ...one in the repeated hour at its first occurrence (01:30 BST), and the second 01:10 stays in the new day
    ['01:30 Europe/London', '2026-10-25T00:29:59Z', '2026-10-24'],
    ['01:30 Europe/London', '2026-10-25T00:30:00Z', '2026-10-25'],
    ['01:30 Europe/London', '2026-10-25T01:10:00Z', '2026-10-25'],
  ])('%s: %s is in gaming day %s', (gamingDay, iso, day) => {
    expect(gamingDayOf(iso, config(gamingDay))).toBe(day);
  });

  test.each([
    ['06:00 Europe/London', '2026-03-28', '2026-03-28T06:00:00.000Z', '2026-03-29T05:00:00.000Z', 23],
    ['06:00 Europe/London', '2026-10-24', '2026-10-24T05:00:00.000Z', '2026-10-25T06:00:00.000Z', 25],
    ['06:00 Europe/London', '2026-10-25', '2026-10-25T06:00:00.000Z', '2026-10-26T06:00:00.000Z', 24],
    ['06:00 Australia/Adelaide', '2026-10-03', '2026-10-02T20:30:00.000Z', '2026-10-03T19:30:00.000Z', 23],
    ['06:00 Asia/Kathmandu', '2026-06-01', '2026-06-01T00:15:00.000Z', '2026-06-02T00:15:00.000Z', 24],
  ])('%s: gaming day %s runs from %s to %s (%d hours)', (gamingDay, day, startsAt, endsAt, hours) => {
    expect(new GamingClock(config(gamingDay)).bounds(day)).toEqual({ startsAt, endsAt, hours });
  });

  test.each([
    '06:00 Europe/London',
    '01:30 Europe/London',
    '06:00 Australia/Lord_Howe',
    '02:00 America/Havana',
  ])(
    '%s: minute by minute across both changes of 2026, the gaming day never goes back and starts where bounds says',
    (gamingDay) => {
      const clock = new GamingClock(config(gamingDay));
      const fresh = () => new GamingClock(config(gamingDay));
      for (const from of [
        '2026-03-27T00:00:00Z',
        '2026-04-03T00:00:00Z',
        '2026-10-02T00:00:00Z',
        '2026-10-24T00:00:00Z',
      ]) {
        let last = '';
        for (let ms = Date.parse(from); ms < Date.parse(from) + 3 * 86_400_000; ms += 60_000) {
          const iso = new Date(ms).toISOString();
          const day = clock.gamingDayOf(iso);
          if (day !== last) {
            expect(day > last).toBe(true);
            if (last !== '') expect(fresh().bounds(day).startsAt).toBe(iso);
            last = day;
          }
          // the cached clock answers as a fresh one
          if (ms % 3_600_000 === 0) expect(fresh().place(iso)).toEqual(clock.place(iso));
        }
      }
    },
  );
});

describe('shiftOf and hourOf: the local clock', () => {
  test('shifts start at local times; before the first start of the day, the last shift runs on', () => {
    expect(shiftOf('2026-03-29T04:59:00Z', LONDON)).toBe('grave'); // 05:59 BST
    expect(shiftOf('2026-03-29T05:00:00Z', LONDON)).toBe('day'); // 06:00 BST
    expect(shiftOf('2026-03-29T12:59:00Z', LONDON)).toBe('day');
    expect(shiftOf('2026-03-29T13:00:00Z', LONDON)).toBe('swing'); // 14:00 BST
    expect(shiftOf('2026-03-29T21:00:00Z', LONDON)).toBe('grave'); // 22:00 BST
    const india = config('06:00 Asia/Kolkata', 'a=08:30,b=20:30');
    expect(shiftOf('2026-01-10T02:59:00Z', india)).toBe('b'); // 08:29 IST
    expect(shiftOf('2026-01-10T03:00:00Z', india)).toBe('a'); // 08:30 IST
  });

  test('the hour in the zone: 23 of them on the spring day, 25 on the autumn day (01:00 twice)', () => {
    const hours = (from: string) =>
      Array.from({ length: 25 }, (_, i) =>
        hourOf(new Date(Date.parse(from) + i * 3_600_000).toISOString(), LONDON),
      );
    expect(hours('2026-03-28T23:30:00Z').slice(0, 4)).toEqual([23, 0, 2, 3]);
    expect(hours('2026-10-24T23:30:00Z').slice(0, 4)).toEqual([0, 1, 1, 2]);
    expect(hourOf('2026-06-01T12:00:00Z', config('06:00 Asia/Kathmandu'))).toBe(17); // UTC+05:45
  });

  test('an instant that does not parse is refused with its code', () => {
    expect(() => gamingDayOf('yesterday', LONDON)).toThrow(InvalidInstantError);
  });
});

describe('the configuration', () => {
  test('parses a cut-over and a zone (canonical), and shifts sorted by start', () => {
    expect(parseGamingDay(' 06:00   europe/london ')).toEqual({
      cutover: '06:00',
      timeZone: 'Europe/London',
    });
    expect(parseShifts('grave=22:00, day=06:00,swing=14:00')).toEqual([
      { name: 'day', start: '06:00' },
      { name: 'swing', start: '14:00' },
      { name: 'grave', start: '22:00' },
    ]);
    expect(gamingDayConfig()).toEqual({
      cutover: '06:00',
      timeZone: 'UTC',
      shifts: parseShifts(DEFAULT_SHIFTS),
    });
  });

  test.each([
    ['gamingDay', '6:00 UTC', /cut-over time and an IANA time zone/],
    ['gamingDay', '24:00 UTC', /cut-over time/],
    ['gamingDay', '06:00', /cut-over time/],
    ['gamingDay', '06:00 Mars/Olympus', /unknown time zone 'Mars\/Olympus'/],
    ['shifts', 'day', /name=HH:MM/],
    ['shifts', 'day=6am', /name=HH:MM/],
    ['shifts', '1st=06:00', /name=HH:MM/],
    ['shifts', 'day=06:00,day=14:00', /repeats a name/],
    ['shifts', 'day=06:00,swing=06:00', /repeats a name or a start time/],
  ] as const)('%s %s is refused: %s', (field, value, message) => {
    const run = () => gamingDayConfig({ [field]: value });
    expect(run).toThrow(GamingDayConfigError);
    expect(run).toThrow(message);
  });
});
