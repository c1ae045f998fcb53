/**
 * The statistics by gaming day over HTTP (`/api/stats`, `/api/stats/bets`): the gaming-day filters the reports
 * take (gamingDay, gamingDayFrom..gamingDayTo, since..until, shift, hour, dealer; calendar=gaming) count the
 * analysts' facts with the configured gaming day and shifts, the same coups the per-UTC-day counters count; bad
 * values are refused 400 INVALID_QUERY naming the field, a `from` instant pointed to `since`.
 */
import { startService, type Harness } from './harness';
import { ok as call, readModelsCaughtUp } from './http-helpers';

jest.setTimeout(60_000);

const COUPS = 4;
let h: Harness;
/** The coups per gaming day, as the hold report counts them (one day, or two when dealt across the cut-over). */
let perDay: { gamingDay: string; coups: number }[];

beforeAll(async () => {
  h = await startService({
    COUP_PROJECTIONS: 'in-process',
    COUP_PROJECTION_COMMIT_MS: '0',
    COUP_SHIFTS: 'early=00:00,late=12:00',
  });
  const dealer = h.token('dealer');
  await call(h, 'POST', '/api/tables', { tableId: 'G1', rules: { dealing: 'rng' } });
  await call(h, 'POST', '/api/tables/G1/players/p1/buy-in', { amount: 100_000 });
  await call(h, 'POST', '/api/tables/G1/shoes', undefined, dealer);
  for (let n = 1; n <= COUPS; n++) {
    await call(h, 'POST', '/api/tables/G1/rounds', undefined, dealer);
    await call(h, 'POST', `/api/tables/G1/rounds/${n}/bets`, {
      playerId: 'p1',
      spot: 'banker',
      amount: 1_000,
    });
    await call(h, 'POST', `/api/tables/G1/rounds/${n}/close`, undefined, dealer);
    await call(h, 'POST', `/api/tables/G1/rounds/${n}/deal`, undefined, dealer);
  }
  await readModelsCaughtUp(h);
  perDay = ((await call(h, 'GET', '/api/reports/hold?groupBy=gamingDay')) as { rows: typeof perDay }).rows;
});
afterAll(async () => {
  await h.close();
});

const get = (path: string) => h.api('GET', path, { token: h.token('analyst') });

test('every gaming day, one gaming day, a shift: the coups the counters count, by gaming day', async () => {
  const counters = (await get('/api/stats?tableId=G1')).body;
  expect(counters.overall.coups).toBe(COUPS);
  expect(counters.filter).toEqual({ tableId: 'G1' });
  const first = perDay[0]!.gamingDay;
  for (const query of ['calendar=gaming', `gamingDayFrom=${first}`, `since=2000-01-01T00:00:00Z`]) {
    const res = await get(`/api/stats?tableId=G1&${query}`);
    expect([query, res.status]).toEqual([query, 200]);
    expect(res.body.filter.calendar).toBe('gaming');
    expect(res.body.overall).toEqual(counters.overall);
    expect(res.body.days.map((d: { day: string; coups: number }) => [d.day, d.coups])).toEqual(
      perDay.map((d) => [d.gamingDay, d.coups]),
    );
  }
  for (const day of perDay) {
    const one = (await get(`/api/stats?gamingDay=${day.gamingDay}`)).body;
    expect([one.overall.coups, one.filter]).toEqual([
      day.coups,
      { gamingDay: day.gamingDay, calendar: 'gaming' },
    ]);
  }
  const shifts = await Promise.all(['early', 'late'].map((s) => get(`/api/stats?shift=${s}`)));
  expect(shifts.map((r) => r.body.overall.coups).reduce((a, b) => a + b)).toBe(COUPS);
  const bets = await get(`/api/stats/bets?tableId=G1&gamingDayFrom=${first}&gamingDayTo=9999-12-31`);
  expect(bets.status).toBe(200);
  expect(bets.body.overall).toEqual((await get('/api/stats/bets?tableId=G1')).body.overall);
  expect((await get('/api/stats/bets?gamingDay=1999-01-01')).body.overall.total.handle).toBe(0);
  const csv = await get(`/api/stats/bets?calendar=gaming&format=csv`);
  expect([csv.status, csv.headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8']);
  expect(String(csv.body).split('\r\n')[0]).toMatch(/^scope,key,spot,/);
});

test.each([
  ['/api/stats?from=2026-12-01T00:00:00Z', 'from', /give since/],
  ['/api/stats/bets?to=2026-12-01T06:00:00Z', 'to', /give until/],
  ['/api/stats?from=2026-12-01&gamingDay=2026-12-01', 'from', /gamingDayFrom/],
  ['/api/stats?gamingDayFrom=2026-1-1', 'gamingDayFrom', /gaming day/],
  ['/api/stats/bets?gamingDay=2026-12-02&gamingDayTo=2026-12-03', 'gamingDay', /not both/],
  ['/api/stats?since=yesterday', 'since', /instant/],
  ['/api/stats?shift=day', 'shift', /early, late/],
  ['/api/stats/bets?hour=24', 'hour', /0 to 23/],
  ['/api/stats?calendar=local', 'calendar', /utc or gaming/],
  ['/api/stats?calendar=utc&hour=3', 'calendar', /calendar=utc/],
  ['/api/stats?format=xml', 'format', /csv or json/],
  ['/api/stats/bets?limit=5', 'limit', /unknown query parameter/],
])('%s is refused 400 INVALID_QUERY naming %s', async (path, field, message) => {
  const res = await get(path);
  expect([res.status, res.body.code, res.body.details?.field]).toEqual([400, 'INVALID_QUERY', field]);
  expect(res.body.message).toMatch(message);
});
