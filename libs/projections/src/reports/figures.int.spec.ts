/**
 * The reports' figures by hand, to the cent, on a small history: a live 8-deck table (5% commission deducted),
 * two players, a coup in the day shift and one in the swing shift (06:00 UTC gaming day, shifts at 06:00, 14:00
 * and 22:00), a round voided, a cash-out.
 */
import { exactBetOdds } from '@coup/engine';
import type { Actor, TableEvent } from '@coup/table';
import { analystProjection } from '../read-models/analyst';
import type { Db } from '../runner/db';
import { type SqlReader, sqliteReader } from '../sql/reader';
import { COUPS } from '../testing/coups';
import { TableDriver } from '../testing/driver';
import { anomalyReport, betTypeReport, holdReport, paceReport, ratingReport } from './index';
import { foldHistory } from './testing/corpus';

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const SUPER: Actor = { id: 'super-1', role: 'supervisor' };

const odds = exactBetOdds({ decks: 8, spots: ['player', 'banker', 'tie'] }).bets;
const edge = { p: odds.player!.houseEdge, b: odds.banker!.houseEdge, t: odds.tie!.houseEdge };
const variance = (spot: 'player' | 'banker' | 'tie') =>
  odds[spot]!.results.reduce((v, r) => v + r.probability * r.net * r.net, 0) - odds[spot]!.ev ** 2;
const v = { p: variance('player'), b: variance('banker'), t: variance('tie') };

/** Given the history of the file's comment. */
function history(): TableEvent[] {
  const d = new TableDriver({
    tableId: 'T1',
    players: 0,
    start: '2026-01-05T13:50:00.000Z',
    rules: { dealing: 'live' },
  });
  const events = [
    ...d.execute('OpenTable', { tableId: 'T1', rules: { dealing: 'live' } }, ADMIN),
    ...d.execute('BuyIn', { playerId: 'p1', amount: 100_000 }, ADMIN),
    ...d.execute('BuyIn', { playerId: 'p2', amount: 50_000 }, ADMIN),
  ];
  d.setTime('2026-01-05T13:58:00.000Z');
  // player 5 2 (7), banker 9 K (9): the banker wins; p2's 2,000 on banker is paid 3,900 (100 commission)
  events.push(
    ...d.liveRound(COUPS.bankerNatural, [
      { playerId: 'p1', spot: 'player', amount: 1_000 },
      { playerId: 'p2', spot: 'banker', amount: 2_000 },
    ]),
  );
  d.setTime('2026-01-05T14:05:00.000Z');
  // player 9 K (9), banker 5 2 (7): the player wins; p2's 1,000 on player is paid 2,000, p1's tie loses
  events.push(
    ...d.liveRound(COUPS.playerNatural, [
      { playerId: 'p1', spot: 'tie', amount: 500 },
      { playerId: 'p2', spot: 'player', amount: 1_000 },
    ]),
    ...d.execute('OpenBetting', {}),
    ...d.execute(
      'PlaceBet',
      { roundNo: 3, playerId: 'p1', spot: 'player', amount: 1_000 },
      { id: 'p1', role: 'player' },
    ),
    ...d.execute('VoidRound', { roundNo: 3, reason: 'dealer error' }, SUPER),
    ...d.execute('CashOut', { playerId: 'p2' }, ADMIN),
  );
  return events;
}

let db: Db;
let sql: SqlReader;

beforeAll(async () => {
  db = await foldHistory([{ tableId: 'T1', events: history() }], [analystProjection()]);
  sql = sqliteReader(db);
});
afterAll(() => db.close());

test('hold per table, gaming day, shift and dealer: drop before any round has no dealer; the void and the cash-out fall in the swing shift', async () => {
  const { rows, truncated } = await holdReport(sql);
  expect(truncated).toBe(false);
  const keys = { tableId: 'T1', gamingDay: '2026-01-05' };
  expect(rows).toEqual([
    {
      ...keys,
      shift: 'day',
      dealerId: 'dealer-1',
      coups: 1,
      dropAmount: 0,
      cashedOut: 0,
      handle: 3_000,
      win: -900,
      holdPct: null,
      winPctOfHandle: -30,
      theoWin: 1_000 * edge.p + 2_000 * edge.b,
      theoPctOfHandle: ((1_000 * edge.p + 2_000 * edge.b) * 100) / 3_000,
      commission: 100,
      voids: 0,
      corrections: 0,
    },
    expect.objectContaining({
      ...keys,
      shift: 'day',
      dealerId: null,
      coups: 0,
      dropAmount: 150_000,
      handle: 0,
      win: 0,
    }),
    expect.objectContaining({
      ...keys,
      shift: 'swing',
      dealerId: 'dealer-1',
      coups: 1,
      cashedOut: 52_900,
      handle: 1_500,
      win: -500,
      voids: 1,
      commission: 0,
    }),
  ]);
  // the day as a whole: hold % is the win over the drop
  const [day] = (await holdReport(sql, { groupBy: ['table', 'gamingDay'] })).rows;
  expect(day).toMatchObject({
    coups: 2,
    dropAmount: 150_000,
    cashedOut: 52_900,
    handle: 4_500,
    win: -1_400,
    voids: 1,
  });
  expect(day!.holdPct).toBeCloseTo((-1_400 * 100) / 150_000, 12);
  // one shift
  expect((await holdReport(sql, { filter: { shift: 'swing' }, groupBy: ['shift'] })).rows).toEqual([
    expect.objectContaining({ shift: 'swing', coups: 1, handle: 1_500, win: -500 }),
  ]);
});

test('hold per bet type: stakes, paid, commission and win of each, and the theoretical win at its exact edge', async () => {
  const { rows } = await betTypeReport(sql, { groupBy: ['betType'] });
  expect(rows).toEqual([
    expect.objectContaining({
      betType: 'banker:commission',
      coups: 1,
      bets: 1,
      handle: 2_000,
      paid: 3_900,
      commission: 100,
      win: -1_900,
      theoWin: 2_000 * edge.b,
    }),
    expect.objectContaining({
      betType: 'player',
      coups: 2,
      bets: 2,
      handle: 2_000,
      paid: 2_000,
      win: 0,
      holdPct: 0,
      theoWin: 2_000 * edge.p,
    }),
    expect.objectContaining({
      betType: 'tie:8-to-1',
      coups: 1,
      bets: 1,
      handle: 500,
      paid: 0,
      win: 500,
      holdPct: 100,
      theoWin: 500 * edge.t,
    }),
  ]);
  expect(rows[2]!.theoPct).toBeCloseTo(edge.t * 100, 12);
});

test('dealer pace: each coup took 7 seconds from its opening to its result', async () => {
  expect((await paceReport(sql)).rows).toEqual([
    {
      tableId: 'T1',
      gamingDay: '2026-01-05',
      shift: 'day',
      dealerId: 'dealer-1',
      coups: 1,
      firstAt: '2026-01-05T13:58:01.000Z',
      lastAt: '2026-01-05T13:58:08.000Z',
      hours: 7 / 3_600,
      coupsPerHour: 3_600 / 7,
    },
    {
      tableId: 'T1',
      gamingDay: '2026-01-05',
      shift: 'swing',
      dealerId: 'dealer-1',
      coups: 1,
      firstAt: '2026-01-05T14:05:00.000Z',
      lastAt: '2026-01-05T14:05:07.000Z',
      hours: 7 / 3_600,
      coupsPerHour: 3_600 / 7,
    },
  ]);
});

test('player rating: coups, average bet per coup, actual and theoretical win, minutes from the first opening to the last result', async () => {
  const { rows } = await ratingReport(sql);
  expect(rows).toEqual([
    {
      playerId: 'p1',
      tableId: 'T1',
      gamingDay: '2026-01-05',
      coups: 2,
      bets: 2,
      handle: 1_500,
      averageBet: 750,
      win: 1_500,
      theoWin: 1_000 * edge.p + 500 * edge.t,
      firstAt: '2026-01-05T13:58:08.000Z',
      lastAt: '2026-01-05T14:05:07.000Z',
      minutesPlayed: 7.1,
    },
    {
      playerId: 'p2',
      tableId: 'T1',
      gamingDay: '2026-01-05',
      coups: 2,
      bets: 2,
      handle: 3_000,
      averageBet: 1_500,
      win: -2_900,
      theoWin: 2_000 * edge.b + 1_000 * edge.p,
      firstAt: '2026-01-05T13:58:08.000Z',
      lastAt: '2026-01-05T14:05:07.000Z',
      minutesPlayed: 7.1,
    },
  ]);
  expect((await ratingReport(sql, { filter: { playerId: 'p2' } })).rows.map((r) => r.playerId)).toEqual([
    'p2',
  ]);
});

test('anomalies: z = (win - theo) / sd, the variance of each coup per bet type; flagged past the threshold', async () => {
  const theo = 2_000 * edge.p + 2_000 * edge.b + 500 * edge.t;
  const variance = 1_000 ** 2 * v.p + 2_000 ** 2 * v.b + 500 ** 2 * v.t + 1_000 ** 2 * v.p;
  const z = (-1_400 - theo) / Math.sqrt(variance);
  const p2 = { theo: 2_000 * edge.b + 1_000 * edge.p, variance: 2_000 ** 2 * v.b + 1_000 ** 2 * v.p };
  const p2z = (-2_900 - p2.theo) / Math.sqrt(p2.variance);
  expect(z).toBeLessThan(-0.5);
  expect(p2z).toBeLessThan(-1);
  const report = await anomalyReport(sql, { threshold: 1 });
  expect(report.threshold).toBe(1);
  expect(report.rows.map((r) => [r.scope, r.tableId, r.playerId, r.coups, r.handle, r.win])).toEqual([
    ['table', 'T1', null, 2, 4_500, -1_400],
    ['player', null, 'p1', 2, 1_500, 1_500],
    ['player', null, 'p2', 2, 3_000, -2_900],
  ]);
  expect(report.rows[0]!.theoWin).toBeCloseTo(theo, 9);
  expect(report.rows[0]!.theoVar).toBeCloseTo(variance, 3);
  expect(report.rows[0]!.z).toBeCloseTo(z, 12);
  expect(report.rows[2]!.z).toBeCloseTo(p2z, 12);
  expect(report.rows.map((r) => r.flagged)).toEqual([
    Math.abs(z) > 1,
    Math.abs(report.rows[1]!.z!) > 1,
    true,
  ]);
  const flagged = await anomalyReport(sql, { threshold: 1, flaggedOnly: true, scope: 'player' });
  expect(flagged.rows.every((r) => r.flagged && r.scope === 'player')).toBe(true);
  expect(flagged.rows.map((r) => r.playerId)).toContain('p2');
});

test('filters are checked: each bad one is refused naming it', async () => {
  const bad = async (filter: object) => {
    try {
      await holdReport(sql, { filter, shifts: ['day', 'swing', 'grave'] });
      return null;
    } catch (error) {
      return (error as { field?: string }).field;
    }
  };
  expect(await bad({ gamingDay: '2026-13-40' })).toBe('gamingDay');
  expect(await bad({ gamingDay: '2026-01-05', from: '2026-01-01' })).toBe('gamingDay');
  expect(await bad({ from: '2026-01-05', to: '2026-01-04' })).toBe('from');
  expect(await bad({ since: 'yesterday' })).toBe('since');
  expect(await bad({ since: '2026-01-05T10:00:00Z', until: '2026-01-05T09:00:00Z' })).toBe('since');
  expect(await bad({ hour: 24 })).toBe('hour');
  expect(await bad({ shift: 'night' })).toBe('shift');
  expect(await bad({ dealer: 'a b' })).toBe('dealer');
  await expect(holdReport(sql, { groupBy: ['player'] })).rejects.toMatchObject({ field: 'groupBy' });
  await expect(holdReport(sql, { limit: 0 })).rejects.toMatchObject({ field: 'limit' });
  const limited = await holdReport(sql, { limit: 1 });
  expect([limited.rows.length, limited.truncated]).toEqual([1, true]);
});
