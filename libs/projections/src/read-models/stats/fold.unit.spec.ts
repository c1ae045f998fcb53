import { exactOdds } from '@coup/engine';
import type { Actor, TableEvent } from '@coup/table';
import { Scenario } from '../../testing/scenario';
import {
  ST_DAILY,
  ST_SHOES,
  STATS_COUNTERS,
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
    ...(Object.fromEntries(STATS_COUNTERS.map((k) => [k, 0])) as StatsCounters),
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
