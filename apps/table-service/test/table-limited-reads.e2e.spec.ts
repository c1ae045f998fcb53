/**
 * A token limited to some tables (its `tables` claim) reads only their money figures on the routes that take the
 * table as a query parameter, or none: statistics, statistics per bet type, the edge report, the analysts' reports
 * (JSON and CSV), a player's ledger and the warehouse exports. A `tableId` of another table is refused as a path's
 * is (403 FORBIDDEN naming the token's tables); without one, the answer is the token's tables' own (their figures,
 * totals counted from their rows: never the casino's). `tables: []` reads nothing; an unlimited token, everything.
 *
 * Two live EZ tables with the same cards and stakes three times as large at T2 (buy-ins too), so that any figure
 * over both tables differs from T1's: round 1 a player bet won on a natural, round 2 opened with Dragon 7
 * favourable (the edge monitor's alert) and a player bet won beside a dragon7 bet that lost.
 */
import { parquetReadObjects } from 'hyparquet';
import { gamingDayConfig, gamingDayOf } from '@coup/projections';
import { startService, type Harness } from './harness';
import { ok as call, readModelsCaughtUp } from './http-helpers';

jest.setTimeout(60_000);

const cutover = `${String((new Date().getUTCHours() + 12) % 24).padStart(2, '0')}:00 UTC`;

let h: Harness;
let day: string;

const ok = (method: string, path: string, body?: unknown, token?: string) =>
  call(h, method, path, body, token);

/** A supervisor limited to T1, one limited to no table, and an admin (every table). */
const t1Only = () => h.token('supervisor', 'sup-t1', ['T1']);
const noTables = () => h.token('supervisor', 'sup-none', []);
const admin = () => h.token('admin');
/** The warehouse exports are not a supervisor's: an analyst limited the same ways. */
const analystT1 = () => h.token('analyst', 'an-t1', ['T1']);
const analystNone = () => h.token('analyst', 'an-none', []);

const get = (path: string, token: string) => h.api('GET', path, { token });
const body = async (path: string, token: string) => {
  const res = await get(path, token);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const withTable = (path: string, tableId: string) =>
  `${path}${path.includes('?') ? '&' : '?'}tableId=${tableId}`;

async function playTable(tableId: string, k: number): Promise<void> {
  const dealer = h.token('dealer');
  const rules = { dealing: 'live', decks: 1, cutCard: 12, game: 'ez', sideBets: { dragon7: {}, panda8: {} } };
  await ok('POST', '/api/tables', { tableId, rules });
  await ok('POST', `/api/tables/${tableId}/players/p1/buy-in`, { amount: 100_000 * k });
  await ok('POST', `/api/tables/${tableId}/shoes`, { firstCard: '8d' }, dealer);
  const round = async (roundNo: number, bets: [string, number][], cards: string[]) => {
    const at = `/api/tables/${tableId}/rounds`;
    await ok('POST', at, undefined, dealer);
    for (const [spot, amount] of bets)
      await ok('POST', `${at}/${roundNo}/bets`, { playerId: 'p1', spot, amount });
    await ok('POST', `${at}/${roundNo}/close`, undefined, dealer);
    for (const card of cards) await ok('POST', `${at}/${roundNo}/cards`, { card }, dealer);
  };
  // player 9h Qc: a natural 9 against the banker's Qs 3d
  await round(1, [['player', 1_000 * k]], ['9h', 'Qs', 'Qc', '3d']);
  // Dragon 7 favours the player as round 2 opens; player Kh 8h (8) beats banker Kd Jd (0): dragon7 loses
  await round(
    2,
    [
      ['player', 1_000 * k],
      ['dragon7', 100 * k],
    ],
    ['Kh', 'Kd', '8h', 'Jd'],
  );
}

beforeAll(async () => {
  h = await startService({
    COUP_PROJECTIONS: 'in-process',
    COUP_PROJECTION_COMMIT_MS: '0',
    COUP_GAMING_DAY: cutover,
  });
  day = gamingDayOf(new Date().toISOString(), gamingDayConfig({ gamingDay: cutover }));
  await playTable('T1', 1);
  await playTable('T2', 3);
  await readModelsCaughtUp(h);
});
afterAll(async () => {
  await h.close();
});

/** A row of an answer's list (tables, days, report rows, accounts, entries, alerts). */
type Row = Record<string, unknown>;
/** What the tests read of the answers (each route's own part of it). */
interface Answer {
  readonly overall: {
    readonly handle: { readonly total: number };
    readonly total: Row;
    readonly bets: Row[];
  };
  readonly totals: Row;
  readonly rows: Row[];
  readonly accounts: Row[];
  readonly entries: Row[];
}
/** Each row's values of `keys`. */
const pick = (rows: readonly Row[], ...keys: string[]) => rows.map((r) => keys.map((k) => r[k]));

/** The routes that take `tableId` as a query parameter, with a figure of T1's alone (T2's is three times it). */
const ROUTES: [string, (b: Answer) => unknown][] = [
  ['/api/stats', (b) => b.overall.handle.total],
  ['/api/stats?format=csv', (b) => String(b).split('\r\n')[1]],
  ['/api/stats/bets', (b) => b.overall.total],
  ['/api/edge/report', (b) => b.totals],
  ['/api/reports/hold?groupBy=', (b) => b.rows],
  ['/api/reports/hold?groupBy=table&format=csv', (b) => b],
  ['/api/reports/bet-types?groupBy=betType', (b) => b.rows],
  ['/api/reports/dealer-pace', (b) => pick(b.rows, 'tableId', 'coups')],
  ['/api/reports/player-rating', (b) => pick(b.rows, 'tableId', 'handle', 'win')],
  ['/api/reports/anomalies?scope=player', (b) => pick(b.rows, 'handle', 'win')],
  ['/api/players/p1/ledger', (b) => [b.accounts, b.totals, b.entries]],
];

describe.each(ROUTES)('GET %s', (path, figure) => {
  test('given a token limited to T1, when it asks for T2, then 403 FORBIDDEN naming its tables', async () => {
    const res = await get(withTable(path, 'T2'), t1Only());
    expect([res.status, res.body.code, res.body.message]).toEqual([
      403,
      'FORBIDDEN',
      'this token is limited to tables T1',
    ]);
  });

  test('given a token limited to T1, when it asks for T1, then it gets the answer an admin gets', async () => {
    const [mine, admins] = [
      await body(withTable(path, 'T1'), t1Only()),
      await body(withTable(path, 'T1'), admin()),
    ];
    expect(figure(mine)).toEqual(figure(admins));
  });

  test("given a token limited to T1, when it names no table, then it gets T1's figures, not both tables'", async () => {
    const [mine, t1, both] = [
      await body(path, t1Only()),
      await body(withTable(path, 'T1'), admin()),
      await body(path, admin()),
    ];
    expect(figure(mine)).toEqual(figure(t1));
    expect(figure(both)).not.toEqual(figure(t1));
  });

  test('given a token limited to no table, then T2 is refused and an answer without a table holds none', async () => {
    expect((await get(withTable(path, 'T2'), noTables())).status).toBe(403);
    const none = await body(path, noTables());
    expect(JSON.stringify(none)).not.toMatch(/T2/);
    // not the casino's figures either (those differ from T1's: the test above), whether they name a table or not
    expect(figure(none)).not.toEqual(figure(await body(path, admin())));
  });
});

describe('the figures themselves', () => {
  test('statistics: T1 only for the limited token, overall from its rows; both for an admin', async () => {
    const mine = await body('/api/stats', t1Only());
    expect(mine.filter).toEqual({ tables: ['T1'] });
    expect(pick(mine.tables, 'tableId').flat()).toEqual(['T1']);
    expect(mine.overall).toMatchObject({ coups: 2, handle: { total: 2_000 }, paid: 4_000 });
    expect(mine.days).toEqual([
      expect.objectContaining({ coups: 2, handle: expect.objectContaining({ total: 2_000 }) }),
    ]);
    const all = await body('/api/stats', admin());
    expect(pick(all.tables, 'tableId').flat()).toEqual(['T1', 'T2']);
    expect(all.overall).toMatchObject({ coups: 4, handle: { total: 8_000 }, paid: 16_000 });
    const none = await body('/api/stats', noTables());
    expect([none.overall.coups, none.tables, none.days]).toEqual([0, [], []]);
  });

  test('statistics per bet type: the dragon7 handle of T1 alone', async () => {
    const dragon = (b: Answer) => b.overall.bets.find((x) => x.spot === 'dragon7')?.['handle'];
    expect(dragon(await body('/api/stats/bets', t1Only()))).toBe(100);
    expect(dragon(await body('/api/stats/bets', admin()))).toBe(400);
    expect((await body('/api/stats/bets', noTables())).tables).toEqual([]);
  });

  test("edge report: T1's alert and its stake; the totals over T1's alerts only", async () => {
    const mine = await body('/api/edge/report', t1Only());
    expect(
      mine.alerts.map((a: { tableId: string; spot: string; wagered: Row }) => [
        a.tableId,
        a.spot,
        a.wagered['staked'],
      ]),
    ).toEqual([['T1', 'dragon7', 100]]);
    expect(mine.totals).toMatchObject({ alerts: 1, staked: 100 });
    expect(mine.players).toEqual([expect.objectContaining({ playerId: 'p1', staked: 100, alerts: 1 })]);
    expect((await body('/api/edge/report', admin())).totals).toMatchObject({ alerts: 2, staked: 400 });
    expect((await body('/api/edge/report', noTables())).totals).toMatchObject({ alerts: 0, staked: 0 });
  });

  test("the analysts' reports: T1's drop, hold and rows; a player's anomaly from T1's bets alone", async () => {
    const hold = await body('/api/reports/hold?groupBy=', t1Only());
    expect(hold.rows).toEqual([expect.objectContaining({ coups: 2, dropAmount: 100_000, handle: 2_100 })]);
    expect((await body('/api/reports/hold?groupBy=', admin())).rows).toEqual([
      expect.objectContaining({ coups: 4, dropAmount: 400_000, handle: 8_400 }),
    ]);
    expect((await body('/api/reports/hold?groupBy=', noTables())).rows).toEqual([
      expect.objectContaining({ coups: 0, dropAmount: 0, handle: 0 }),
    ]);
    const csv = String(await body('/api/reports/hold?groupBy=table&format=csv', t1Only()))
      .trim()
      .split('\r\n');
    expect(csv.slice(1).map((l) => l.split(',')[0])).toEqual(['T1']);
    const anomaly = await body('/api/reports/anomalies?scope=player', t1Only());
    expect(anomaly.rows).toEqual([expect.objectContaining({ playerId: 'p1', handle: 2_100 })]);
    const rating = await body('/api/reports/player-rating', t1Only());
    expect(pick(rating.rows, 'tableId', 'handle')).toEqual([['T1', 2_100]]);
    const pace = await body('/api/reports/dealer-pace?format=csv', noTables());
    expect(String(pace).trim().split('\r\n')).toHaveLength(1);
  });

  test("the ledger: p1's account at T1 only, and totals equal to it", async () => {
    const mine = await body('/api/players/p1/ledger', t1Only());
    expect(pick(mine.accounts, 'tableId').flat()).toEqual(['T1']);
    expect(mine.totals).toEqual(expect.objectContaining({ boughtIn: 100_000, staked: 2_100 }));
    expect(new Set(pick(mine.entries, 'tableId').flat())).toEqual(new Set(['T1']));
    const all = await body('/api/players/p1/ledger', admin());
    expect(pick(all.accounts, 'tableId').flat()).toEqual(['T1', 'T2']);
    expect(all.totals).toEqual(expect.objectContaining({ boughtIn: 400_000, staked: 8_400 }));
    const none = await body('/api/players/p1/ledger', noTables());
    expect([none.accounts, none.entries, none.totals.boughtIn]).toEqual([[], [], 0]);
  });
});

describe('GET /api/exports/:table (no table parameter: the rows of the token’s tables)', () => {
  const tablesIn = (csv: unknown) => {
    const [head, ...rows] = String(csv).trim().split('\r\n');
    const at = (head ?? '').split(',').indexOf('table_id');
    return rows.map((r) => r.split(',')[at]);
  };

  test.each(['bets', 'coups', 'cash'])(
    'given a token limited to T1, when it exports %s, then only T1 rows; an admin both',
    async (table) => {
      const path = `/api/exports/${table}?gamingDay=${day}`;
      expect(new Set(tablesIn(await body(path, analystT1())))).toEqual(new Set(['T1']));
      expect(new Set(tablesIn(await body(path, admin())))).toEqual(new Set(['T1', 'T2']));
      expect(tablesIn(await body(path, analystNone()))).toEqual([]);
    },
  );

  test('given a token limited to T1, when it exports Parquet, then the file holds T1 rows only', async () => {
    const tables = async (token: string) => {
      const res = await fetch(`${h.url}/api/exports/bets?gamingDay=${day}&format=parquet`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const rows = await parquetReadObjects({ file: await res.arrayBuffer(), columns: ['table_id'] });
      return rows.map((r) => r['table_id']);
    };
    expect(await tables(analystT1())).toEqual(['T1', 'T1', 'T1']);
    expect(await tables(admin())).toEqual(['T1', 'T1', 'T1', 'T2', 'T2', 'T2']);
    expect(await tables(analystNone())).toEqual([]);
  });
});
