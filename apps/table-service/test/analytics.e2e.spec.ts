/**
 * The analysts' reports over HTTP: a live table's coup and void, folded by the service's runner with the
 * configured gaming day and shifts (COUP_GAMING_DAY, COUP_SHIFTS), answered as JSON and CSV, filtered, refused
 * when a parameter is bad, and read only by the roles the access matrix names.
 */
import { exactBetOdds } from '@coup/engine';
import { analystProjection, gamingDayConfig, gamingDayOf } from '@coup/projections';
import { startService, type Harness } from './harness';
import { ok as call, readModelsCaughtUp } from './http-helpers';

jest.setTimeout(60_000);

// The cut-over twelve hours from now, and the shift boundaries six hours either side of now: the gaming day and
// shift of every fact of this test are known whatever the time it runs.
const hourNow = new Date().getUTCHours();
const at = (h: number) => `${String((hourNow + h + 24) % 24).padStart(2, '0')}:00`;
const ENV = {
  COUP_GAMING_DAY: `${at(12)} UTC`,
  COUP_SHIFTS: `early=${at(12)},late=${at(-6)},night=${at(6)}`,
  COUP_ANOMALY_Z: '0.5',
};
const CONFIG = gamingDayConfig({ gamingDay: ENV.COUP_GAMING_DAY, shifts: ENV.COUP_SHIFTS });
const odds = exactBetOdds({ decks: 8, spots: ['player', 'banker'] }).bets;

let h: Harness;
let day: string;

const ok = (method: string, path: string, body?: unknown, token?: string) =>
  call(h, method, path, body, token);
const caughtUp = () => readModelsCaughtUp(h);

const analyst = () => h.token('analyst');
const get = (path: string, token = analyst(), headers: Record<string, string> = {}) =>
  h.api('GET', path, { token, headers });

beforeAll(async () => {
  h = await startService({ COUP_PROJECTIONS: 'in-process', COUP_PROJECTION_COMMIT_MS: '0', ...ENV });
  day = gamingDayOf(new Date().toISOString(), CONFIG);
  const dealer = h.token('dealer');
  await ok('POST', '/api/tables', { tableId: 'T1', rules: { dealing: 'live' } });
  for (const [p, amount] of [
    ['p1', 100_000],
    ['p2', 50_000],
  ] as const)
    await ok('POST', `/api/tables/T1/players/${p}/buy-in`, { amount });
  await ok('POST', '/api/tables/T1/shoes', { firstCard: 'Qs' }, dealer);
  await ok('POST', '/api/tables/T1/rounds', undefined, dealer);
  await ok('POST', '/api/tables/T1/rounds/1/bets', { playerId: 'p1', spot: 'player', amount: 1_000 });
  await ok('POST', '/api/tables/T1/rounds/1/bets', { playerId: 'p2', spot: 'banker', amount: 2_000 });
  await ok('POST', '/api/tables/T1/rounds/1/close', undefined, dealer);
  // player 5 2 (7), banker 9 K (9): the banker wins, p2 is paid 3,900 (100 commission)
  for (const card of ['5d', '9d', '2d', 'Kd'])
    await ok('POST', '/api/tables/T1/rounds/1/cards', { card }, dealer);
  await ok('POST', '/api/tables/T1/rounds', undefined, dealer);
  await ok('POST', '/api/tables/T1/rounds/2/void', { reason: 'dealer error' }, h.token('supervisor'));
  await caughtUp();
});
afterAll(async () => {
  await h.close();
});

test('the runner folds the analysts’ model with the configured gaming day (its version carries it)', async () => {
  const status = (await get('/api/projections')).body as { projections: { name: string; version: number }[] };
  expect(status.projections.find((p) => p.name === 'analyst')?.version).toBe(
    analystProjection(CONFIG).version,
  );
  expect(analystProjection(CONFIG).version).not.toBe(analystProjection().version);
});

test('hold per table, gaming day, shift and dealer, to the cent', async () => {
  const res = await get('/api/reports/hold');
  expect(res.status).toBe(200);
  const keys = { tableId: 'T1', gamingDay: day, shift: 'late' };
  expect(res.body).toEqual({
    filter: {},
    groupBy: ['table', 'gamingDay', 'shift', 'dealer'],
    truncated: false,
    rows: [
      {
        ...keys,
        dealerId: 'dealer-1',
        coups: 1,
        dropAmount: 0,
        cashedOut: 0,
        handle: 3_000,
        win: -900,
        holdPct: null,
        winPctOfHandle: -30,
        theoWin: 1_000 * odds.player!.houseEdge + 2_000 * odds.banker!.houseEdge,
        theoPctOfHandle: expect.any(Number),
        commission: 100,
        voids: 1,
        corrections: 0,
      },
      expect.objectContaining({ ...keys, dealerId: null, coups: 0, dropAmount: 150_000 }),
    ],
  });
  const whole = await get(`/api/reports/hold?groupBy=gamingDay&gamingDay=${day}`);
  expect(whole.body.rows).toEqual([
    expect.objectContaining({ gamingDay: day, dropAmount: 150_000, win: -900 }),
  ]);
  expect(whole.body.rows[0].holdPct).toBeCloseTo(-0.6, 12);
  expect((await get('/api/reports/hold?gamingDay=2000-01-01')).body.rows).toEqual([]);
  expect((await get('/api/reports/hold?shift=early')).body.rows).toEqual([]);
  const since = new Date(Date.now() - 3_600_000).toISOString();
  expect((await get(`/api/reports/hold?since=${since}&tableId=T1&dealer=dealer-1`)).body.rows).toHaveLength(
    1,
  );
});

test('CSV with ?format=csv or Accept: text/csv: the grouping columns, then the figures', async () => {
  const csv = await get('/api/reports/hold?groupBy=table,dealer&format=csv');
  expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
  const lines = String(csv.body).trim().split('\r\n');
  expect(lines[0]).toBe(
    'tableId,dealerId,coups,dropAmount,cashedOut,handle,win,holdPct,winPctOfHandle,theoWin,theoPctOfHandle,commission,voids,corrections',
  );
  expect(lines[1]).toMatch(/^T1,dealer-1,1,0,0,3000,-900,,-30,/);
  expect(lines[2]).toMatch(/^T1,,0,150000,0,0,0,0,,0,,0,0,0$/);
  const accepted = await get('/api/reports/bet-types?groupBy=betType', analyst(), { accept: 'text/csv' });
  expect(String(accepted.body).split('\r\n').slice(0, 3)).toEqual([
    'betType,coups,bets,handle,paid,win,holdPct,theoWin,theoPct,commission,voidedBets,correctedBets',
    expect.stringMatching(/^banker:commission,1,1,2000,3900,-1900,-95,/),
    expect.stringMatching(/^player,1,1,1000,0,1000,100,/),
  ]);
  const json = await get('/api/reports/dealer-pace?format=json', analyst(), { accept: 'text/csv' });
  expect(json.headers.get('content-type')).toMatch(/^application\/json/);
});

test('dealer pace, player rating and anomalies', async () => {
  const pace = (await get('/api/reports/dealer-pace')).body;
  expect(pace.rows).toEqual([
    expect.objectContaining({ tableId: 'T1', gamingDay: day, shift: 'late', dealerId: 'dealer-1', coups: 1 }),
  ]);
  expect(pace.rows[0].coupsPerHour).toBeGreaterThan(0);
  const rating = (await get('/api/reports/player-rating?playerId=p2')).body;
  expect(rating.rows).toEqual([
    expect.objectContaining({
      playerId: 'p2',
      tableId: 'T1',
      coups: 1,
      handle: 2_000,
      averageBet: 2_000,
      win: -1_900,
    }),
  ]);
  const anomalies = (await get('/api/reports/anomalies?scope=player')).body;
  expect(anomalies.threshold).toBe(0.5);
  expect(anomalies.rows.map((r: { playerId: string; win: number }) => [r.playerId, r.win])).toEqual([
    ['p1', 1_000],
    ['p2', -1_900],
  ]);
  const flagged = (await get('/api/reports/anomalies?flagged=true')).body.rows;
  expect(flagged.length).toBeGreaterThan(0);
  expect(flagged.every((r: { flagged: boolean; z: number }) => r.flagged && Math.abs(r.z) > 0.5)).toBe(true);
});

test.each([
  ['/api/reports/hold?hour=24', 'hour'],
  ['/api/reports/hold?groupBy=player', 'groupBy'],
  ['/api/reports/hold?shift=swing', 'shift'],
  ['/api/reports/hold?gamingDay=yesterday', 'gamingDay'],
  ['/api/reports/hold?since=2026-01-01', 'since'],
  ['/api/reports/hold?format=xml', 'format'],
  ['/api/reports/hold?playerId=p1', 'playerId'],
  ['/api/reports/bet-types?limit=0', 'limit'],
  ['/api/reports/anomalies?scope=dealer', 'scope'],
  ['/api/reports/anomalies?flagged=yes', 'flagged'],
])('%s is refused naming %s', async (path, field) => {
  const res = await get(path);
  expect([res.status, res.body.code, res.body.details?.field]).toEqual([400, 'INVALID_QUERY', field]);
});

test('analysts, compliance, supervisors and admins read the reports; dealers and players do not', async () => {
  for (const role of ['analyst', 'compliance', 'supervisor', 'admin'] as const)
    expect((await get('/api/reports/anomalies', h.token(role))).status).toBe(200);
  for (const role of ['dealer', 'player'] as const) {
    const res = await get('/api/reports/hold', h.token(role));
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
  }
});
