import { exactBetOdds, exactOdds } from '@coup/engine';
import type { Actor, TableEvent } from '@coup/table';
import { COUPS } from '../../testing/coups';
import { Scenario } from '../../testing/scenario';
import { type BetRow, summarizeBet, summarizeBets, wilson95 } from './bet-summary';
import {
  ST_BETS,
  ST_BET_RESULTS,
  ST_DAILY,
  ST_SHOES,
  STATS_COUNTERS,
  type StatsCounter,
  type StatsCounters,
  type StatsState,
  chiSquare,
  statsProjection,
  summarize,
} from './fold';

const SUPER: Actor = { id: 'super-1', role: 'supervisor' };
const P1: Actor = { id: 'p1', role: 'player' };
const P2: Actor = { id: 'p2', role: 'player' };

function expectIdempotent(s: Scenario): void {
  const again = s.again();
  expect(again.writes).toEqual([]);
  expect(again.changed).toBe(false);
}

function row(partial: Partial<StatsCounters>): StatsCounters {
  return {
    ...(Object.fromEntries(STATS_COUNTERS.map((k) => [k, 0])) as Record<StatsCounter, number>),
    decks: 8,
    tie_pays: 8,
    ...partial,
  };
}

describe('statistics: pure summaries', () => {
  test('chi-square of observed against expected counts, with its p-value for 2 degrees of freedom', () => {
    const x = chiSquare({ player: 50, banker: 40, tie: 10 }, { player: 45, banker: 45, tie: 10 });
    expect(x.statistic).toBeCloseTo(25 / 45 + 25 / 45, 12);
    expect(x.degreesOfFreedom).toBe(2);
    expect(x.pValue).toBeCloseTo(Math.exp(-(50 / 45) / 2), 12);
    // the 5% critical value of chi-square with 2 df is 5.991
    expect(
      chiSquare({ player: 5.991, banker: 0, tie: 0 }, { player: 1, banker: 1, tie: 1 }).pValue,
    ).toBeLessThan(1);
    expect(Math.exp(-5.991 / 2)).toBeCloseTo(0.05, 3);
  });

  test('summarize: frequencies beside the exact odds of the decks, chi-square, naturals, hold beside the edge', () => {
    const odds = exactOdds({ decks: 8, tiePays: 8 });
    const s = summarize([
      row({
        coups: 100,
        player_wins: 44,
        banker_wins: 46,
        ties: 10,
        naturals: 30,
        handle_player: 10_000,
        handle_banker: 20_000,
        handle_tie: 1_000,
        paid_player: 9_000,
        paid_banker: 19_500,
        paid_tie: 0,
        commission: 500,
      }),
    ]);
    expect(s.coups).toBe(100);
    expect(s.frequencies).toEqual({ player: 0.44, banker: 0.46, tie: 0.1 });
    expect(s.expected!.banker).toBeCloseTo(odds.probabilities.banker, 12);
    const expected = {
      player: 100 * odds.probabilities.player,
      banker: 100 * odds.probabilities.banker,
      tie: 100 * odds.probabilities.tie,
    };
    expect(s.chiSquare!.statistic).toBeCloseTo(
      chiSquare({ player: 44, banker: 46, tie: 10 }, expected).statistic,
      12,
    );
    expect(s.naturals).toEqual({ count: 30, frequency: 0.3, expected: odds.natural });
    expect(s.handle.total).toBe(31_000);
    expect(s.paid).toBe(28_500);
    expect(s.houseResult).toBe(2_500);
    expect(s.holdPercent).toBeCloseTo((2_500 / 31_000) * 100, 12);
    const edge =
      (10_000 * odds.houseEdge.player + 20_000 * odds.houseEdge.banker + 1_000 * odds.houseEdge.tie) / 31_000;
    expect(s.theoreticalEdgePercent).toBeCloseTo(edge * 100, 12);
  });

  test('summarize mixes deck counts by weighting each row by its coups; box commission counts for the house', () => {
    const six = exactOdds({ decks: 6 });
    const eight = exactOdds({ decks: 8 });
    const s = summarize([
      row({
        coups: 30,
        banker_wins: 30,
        decks: 6,
        handle_banker: 1_000,
        paid_banker: 2_000,
        commission: 50,
        box_commission: 50,
      }),
      row({ coups: 10, player_wins: 10 }),
    ]);
    expect(s.expected!.banker).toBeCloseTo(
      (30 * six.probabilities.banker + 10 * eight.probabilities.banker) / 40,
      12,
    );
    expect(s.houseResult).toBe(1_000 - 2_000 + 50);
    expect(s.boxCommission).toBe(50);
  });

  test('no coups: no frequencies, no test, no hold', () => {
    const s = summarize([]);
    expect(s).toMatchObject({
      coups: 0,
      frequencies: null,
      expected: null,
      chiSquare: null,
      holdPercent: null,
      theoreticalEdgePercent: null,
    });
  });
});

describe('statistics projection', () => {
  const dealt = () =>
    new Scenario<StatsState>(statsProjection, { rules: { decks: 6, tiePays: 9 } }).given((d) => [
      ...d.open(),
      ...d.execute('StartShoe', { seed: d.nextSeed() }),
      ...d.execute('OpenBetting', {}),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 1_000 }, P1),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p2', spot: 'tie', amount: 500 }, P2),
      ...d.execute('CloseBetting', { roundNo: 1 }),
    ]);

  test('given bets, when the coup resolves, then the day and shoe rows count it with handle, paid and commission', () => {
    const s = dealt();
    const events = s.when((d) => d.execute('Deal', { roundNo: 1 }));
    const resolved = events
      .map((e) => e.event)
      .find((e): e is Extract<TableEvent, { type: 'CoupResolved' }> => e.type === 'CoupResolved')!;
    const d = resolved.data;
    const paid = (spot: string) =>
      d.settlements.filter((x) => x.spot === spot).reduce((a, x) => a + x.paid, 0);
    const expected = {
      table_id: 'T1',
      decks: 6,
      tie_pays: 9,
      commission_mode: 'deducted',
      coups: 1,
      player_wins: d.outcome === 'player' ? 1 : 0,
      banker_wins: d.outcome === 'banker' ? 1 : 0,
      ties: d.outcome === 'tie' ? 1 : 0,
      naturals: d.natural ? 1 : 0,
      handle_player: 1_000,
      handle_banker: 0,
      handle_tie: 500,
      paid_player: paid('player'),
      paid_tie: paid('tie'),
      voids: 0,
    };
    expect(s.row(ST_DAILY, { day: '2025-01-01' })).toMatchObject(expected);
    expect(s.row(ST_SHOES, { shoe_no: 1 })).toMatchObject(expected);
    expectIdempotent(s);
  });

  test('given bets, when the round is voided, then it counts as a void, not a coup', () => {
    const s = dealt();
    s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'misdeal' }, SUPER));
    expect(s.row(ST_DAILY, { day: '2025-01-01' })).toMatchObject({ voids: 1, coups: 0, handle_player: 0 });
    expect(s.row(ST_SHOES, { shoe_no: 1 })).toMatchObject({ voids: 1 });
    expectIdempotent(s);
  });

  test('coups on two days land in two day rows and one shoe row', () => {
    const s = dealt().given((d) => d.execute('Deal', { roundNo: 1 }));
    s.driver.setTime('2025-01-02T00:00:05.000Z');
    s.given((d) => d.playRound());
    expect(s.rows(ST_DAILY).map((r) => [r.day, r.coups])).toEqual([
      ['2025-01-01', 1],
      ['2025-01-02', 1],
    ]);
    expect(s.row(ST_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 2, first_day: '2025-01-01' });
  });
});

describe('statistics per bet type: pure summaries', () => {
  const betRow = (partial: Partial<BetRow>): BetRow => ({
    coups: 0,
    bets: 0,
    wins: 0,
    pushes: 0,
    losses: 0,
    handle: 0,
    paid: 0,
    commission: 0,
    box_commission: 0,
    spot: 'player',
    paytable: null,
    game: 'commission',
    decks: 8,
    tie_pays: 8,
    ...partial,
  });

  test('the Wilson score 95% interval: known values, bounded to [0, 1], none without trials', () => {
    const half = wilson95(5, 10)!;
    expect(half.low).toBeCloseTo(0.2366, 4);
    expect(half.high).toBeCloseTo(0.7634, 4);
    expect(wilson95(0, 10)).toEqual({ low: 0, high: expect.closeTo(0.2775, 4) });
    expect(wilson95(10, 10)!.high).toBe(1);
    expect(wilson95(0, 0)).toBeNull();
  });

  test('a bet type: each result beside its exact probability with its interval, the hold beside the edge', () => {
    const odds = exactBetOdds({ decks: 8, game: 'ez', spots: ['dragon7'] }).bets.dragon7!;
    const s = summarizeBet([
      {
        row: betRow({
          spot: 'dragon7',
          paytable: '40-to-1',
          game: 'ez',
          coups: 100,
          bets: 10,
          wins: 1,
          losses: 9,
        }),
        results: new Map([
          ['win:40/1', 3],
          ['lose', 97],
        ]),
      },
      {
        row: betRow({
          spot: 'dragon7',
          paytable: '40-to-1',
          game: 'ez',
          coups: 100,
          bets: 10,
          losses: 10,
          handle: 10_000,
          paid: 41_000,
        }),
        results: new Map([
          ['win:40/1', 1],
          ['lose', 99],
        ]),
      },
    ])!;
    expect(s).toMatchObject({ spot: 'dragon7', label: 'Dragon 7', variant: '40-to-1', coups: 200, bets: 20 });
    expect(s.results.map((r) => [r.key, r.result, r.pays, r.count])).toEqual([
      ['win:40/1', 'win', '40:1', 4],
      ['lose', 'lose', null, 196],
    ]);
    const win = s.results[0]!;
    expect(win.frequency).toBe(0.02);
    expect(win.expected).toBeCloseTo(odds.probabilities.win, 15);
    expect(win.ci95).toEqual(wilson95(4, 200));
    expect(win.withinCi95).toBe(true);
    expect(s.houseResult).toBe(10_000 - 41_000);
    expect(s.holdPercent).toBeCloseTo(-310, 10);
    expect(s.theoreticalEdgePercent).toBeCloseTo(odds.houseEdge * 100, 12);
  });

  test('bet types are grouped by spot and what sets their payouts (banker by mode), rows of other decks weighted by coups', () => {
    const six = exactBetOdds({ decks: 6, spots: ['banker'] }).bets.banker!;
    const eight = exactBetOdds({ decks: 8, spots: ['banker'] }).bets.banker!;
    const { bets, total } = summarizeBets(
      [
        {
          row: betRow({ spot: 'banker', decks: 6, coups: 30, handle: 1_000, paid: 1_950, bets: 1 }),
          results: new Map(),
        },
        { row: betRow({ spot: 'banker', coups: 10, handle: 3_000, paid: 0, bets: 1 }), results: new Map() },
        { row: betRow({ spot: 'banker', game: 'no-commission', coups: 5 }), results: new Map() },
        {
          row: betRow({ spot: 'super6', paytable: '15-to-1', game: 'no-commission', coups: 5 }),
          results: new Map(),
        },
      ],
      ['player', 'banker', 'super6'],
    );
    expect(bets.map((b) => [b.spot, b.variant, b.coups])).toEqual([
      ['banker', 'commission', 40],
      ['banker', 'no-commission', 5],
      ['super6', '15-to-1', 5],
    ]);
    const win = bets[0]!.results.find((r) => r.key === 'win:1/1:commission')!;
    expect(win.expected).toBeCloseTo(
      (30 * six.results[0]!.probability + 10 * eight.results[0]!.probability) / 40,
      14,
    );
    expect(win.pays).toBe('1:1 less 5%');
    expect(bets[0]!.theoreticalEdgePercent).toBeCloseTo(
      ((1_000 * six.houseEdge + 3_000 * eight.houseEdge) / 4_000) * 100,
      12,
    );
    expect(total).toMatchObject({ bets: 2, handle: 4_000, paid: 1_950, houseResult: 2_050 });
  });
});

describe('statistics projection: every bet type', () => {
  test('given an EZ table with side bets, when a Dragon 7 resolves, then each offered bet counts the coup by how it ended, and its stakes', () => {
    const rules = { dealing: 'live', game: 'ez', sideBets: { dragon7: {}, panda8: {}, playerPair: {} } };
    const s = new Scenario<StatsState>(statsProjection, { rules }).given((d) => d.open());
    s.when((d) =>
      d.liveRound(COUPS.dragon7, [
        { playerId: 'p1', spot: 'banker', amount: 1_000 },
        { playerId: 'p1', spot: 'dragon7', amount: 500 },
        { playerId: 'p2', spot: 'player', amount: 100 },
        { playerId: 'p2', spot: 'dragon7', amount: 100 },
      ]),
    );
    const results = Object.fromEntries(s.rows(ST_BET_RESULTS).map((r) => [r.spot, [r.result, r.coups]]));
    expect(results).toEqual({
      player: ['lose', 1],
      banker: ['push', 1],
      tie: ['lose', 1],
      playerPair: ['lose', 1],
      dragon7: ['win:40/1', 1],
      panda8: ['lose', 1],
    });
    expect(s.row(ST_BETS, { spot: 'dragon7' })).toMatchObject({
      day: '2025-01-01',
      paytable: '40-to-1',
      game: 'ez',
      decks: 8,
      coups: 1,
      bets: 2,
      wins: 2,
      handle: 600,
      paid: 600 * 41,
    });
    expect(s.row(ST_BETS, { spot: 'player' })).toMatchObject({ bets: 1, losses: 1, handle: 100, paid: 0 });
    expect(s.row(ST_BETS, { spot: 'banker' })).toMatchObject({
      paytable: null,
      bets: 1,
      pushes: 1,
      handle: 1_000,
      paid: 1_000,
    });
    expect(s.row(ST_BETS, { spot: 'panda8' })).toMatchObject({ coups: 1, bets: 0, handle: 0 });
    // the main bets' counters as before, the mode beside them
    expect(s.row(ST_DAILY, { day: '2025-01-01' })).toMatchObject({
      game: 'ez',
      banker_wins: 1,
      handle_banker: 1_000,
    });
    expectIdempotent(s);
  });

  test("given a no-commission table, when the banker bet is summarized, then its edge is the mode's (a banker 6 half paid)", () => {
    const edge = exactBetOdds({ decks: 8, game: 'no-commission', spots: ['banker'] }).bets.banker!.houseEdge;
    const s = summarize([
      row({ coups: 1, banker_wins: 1, handle_banker: 1_000, paid_banker: 1_500, game: 'no-commission' }),
    ]);
    expect(s.theoreticalEdgePercent).toBeCloseTo(edge * 100, 12);
    expect(edge).not.toBeCloseTo(exactOdds({ decks: 8 }).houseEdge.banker, 4);
  });
});

describe('statistics projection: the settled coup corrected or voided (issue 16)', () => {
  /** A live box-commission table with Player Pair: the banker natural settled, p1 on banker and p2 on player. */
  function settled(): Scenario<StatsState> {
    const rules = { dealing: 'live', commission: 'box', sideBets: { playerPair: {} } };
    return new Scenario<StatsState>(statsProjection, { rules }).given((d) => [
      ...d.open(),
      ...d.liveRound(COUPS.bankerNatural, [
        { playerId: 'p1', spot: 'banker', amount: 1_000 },
        { playerId: 'p2', spot: 'player', amount: 1_000 },
        { playerId: 'p2', spot: 'playerPair', amount: 100 },
      ]),
    ]);
  }
  const results = (s: Scenario) =>
    Object.fromEntries(
      s
        .rows(ST_BET_RESULTS)
        .filter((r) => r.coups !== 0)
        .map((r) => [r.spot, [r.result, r.coups]]),
    );

  test('given a settled coup, when a card is corrected (past midnight), then its counters move from the old result to the new one on the coup’s own day', () => {
    const s = settled();
    expect(s.row(ST_DAILY, { day: '2025-01-01' })).toMatchObject({
      coups: 1,
      banker_wins: 1,
      naturals: 1,
      paid_banker: 2_000,
      commission: 50,
      box_commission: 50,
    });
    s.driver.setTime('2025-01-02T00:00:30.000Z');
    // banker 6+K=6 against the player's 7: the player wins, no natural
    s.when((d) => d.execute('CorrectCard', { roundNo: 1, index: 1, card: '6d', reason: 'misread' }, SUPER));
    expect(s.rows(ST_DAILY).map((r) => r.day)).toEqual(['2025-01-01']);
    expect(s.row(ST_DAILY, { day: '2025-01-01' })).toMatchObject({
      coups: 1,
      player_wins: 1,
      banker_wins: 0,
      naturals: 0,
      voids: 0,
      handle_banker: 1_000,
      handle_player: 1_000,
      paid_banker: 0,
      paid_player: 2_000,
      commission: 0,
      box_commission: 0,
    });
    expect(s.row(ST_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 1, player_wins: 1, banker_wins: 0 });
    expect(results(s)).toEqual({
      player: ['win:1/1', 1],
      banker: ['lose', 1],
      tie: ['lose', 1],
      playerPair: ['lose', 1],
    });
    expect(s.row(ST_BETS, { spot: 'banker' })).toMatchObject({
      coups: 1,
      bets: 1,
      wins: 0,
      losses: 1,
      paid: 0,
    });
    expect(s.row(ST_BETS, { spot: 'player' })).toMatchObject({ coups: 1, bets: 1, wins: 1, paid: 2_000 });
    expectIdempotent(s);
  });

  test('given a settled coup, when it is voided, then it no longer counts as a coup but as a void', () => {
    const s = settled();
    s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'shoe found short' }, SUPER));
    const none = { coups: 0, banker_wins: 0, naturals: 0, handle_banker: 0, paid_banker: 0, commission: 0 };
    expect(s.row(ST_DAILY, { day: '2025-01-01' })).toMatchObject({ ...none, voids: 1 });
    expect(s.row(ST_SHOES, { shoe_no: 1 })).toMatchObject({ ...none, voids: 1 });
    expect(results(s)).toEqual({});
    for (const r of s.rows(ST_BETS)) expect(r).toMatchObject({ coups: 0, bets: 0, handle: 0, paid: 0 });
    expectIdempotent(s);
  });
});
