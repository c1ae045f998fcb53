import { exactBetOdds } from '@coup/engine';
import type { Actor } from '@coup/table';
import { COUPS } from '../../testing/coups';
import { Scenario, correctSettled } from '../../testing/scenario';
import { betTypeSumsOfFacts, holdSumsOfFacts, sumsMismatches } from '../../testing/sums-of-facts';
import { type AnalystState, analystProjection } from './index';
import { AN_AMENDMENTS, AN_BETS, AN_CASH, AN_COUPS } from './schema-facts';
import { AN_SUM_BET_TYPES, AN_SUM_HOLD } from './schema-sums';

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const SUPER: Actor = { id: 'super-1', role: 'supervisor' };

const model = analystProjection();
const odds = exactBetOdds({ decks: 8, spots: ['player', 'banker', 'tie'] }).bets;
const STAKES = [
  { playerId: 'p1', spot: 'player' as const, amount: 1_000 },
  { playerId: 'p2', spot: 'banker' as const, amount: 1_000 },
];

/** The summary tables hold exactly the sums of the facts (and zeros where none are left). */
function expectSumsOfFacts(s: Scenario<AnalystState>): void {
  const hold = holdSumsOfFacts({
    coups: s.rows(AN_COUPS),
    cash: s.rows(AN_CASH),
    amendments: s.rows(AN_AMENDMENTS),
  });
  expect(sumsMismatches(s.rows(AN_SUM_HOLD), hold, 'hold')).toEqual([]);
  expect(sumsMismatches(s.rows(AN_SUM_BET_TYPES), betTypeSumsOfFacts(s.rows(AN_BETS)), 'betTypes')).toEqual(
    [],
  );
  const again = s.again();
  expect([again.writes, again.changed]).toEqual([[], false]);
}

/** A live table opened at `start`, p1 and p2 bought in before any round (no dealer yet). */
function seated(start: string): Scenario<AnalystState> {
  const rules = { dealing: 'live' };
  return new Scenario<AnalystState>(model, { players: 0, rules, start }).given((d) => [
    ...d.execute('OpenTable', { tableId: 'T1', rules }, ADMIN),
    ...d.execute('BuyIn', { playerId: 'p1', amount: 50_000 }, ADMIN),
    ...d.execute('BuyIn', { playerId: 'p2', amount: 40_000 }, ADMIN),
  ]);
}

describe('analysts: the summary tables', () => {
  test('given buy-ins before any round, when a coup settles, then its hold is summed with the dealer, the drop without one, the bets per bet type', () => {
    const s = seated('2025-01-01T10:00:00.000Z');
    s.when((d) => d.liveRound(COUPS.bankerNatural, STAKES));
    const day = { gaming_day: '2025-01-01', table_id: 'T1', shift: 'day' };
    expect(s.rows(AN_SUM_HOLD)).toEqual([
      expect.objectContaining({ ...day, dealer_id: '', coups: 0, drop_amount: 90_000, facts: 2 }),
      expect.objectContaining({
        ...day,
        dealer_id: 'dealer-1',
        coups: 1,
        handle: 2_000,
        win: 50,
        commission: 50,
        theo_win: 1_000 * odds.player!.houseEdge + 1_000 * odds.banker!.houseEdge,
        facts: 1,
      }),
    ]);
    expect(s.rows(AN_SUM_BET_TYPES).map((r) => [r['bet_type'], r['coups'], r['handle'], r['win']])).toEqual([
      ['banker:commission', 1, 1_000, -950],
      ['player', 1, 1_000, 1_000],
    ]);
    expectSumsOfFacts(s);
  });

  test('given a settled coup, when a card of it is corrected, then its sums follow the new result', () => {
    const s = seated('2025-01-01T10:00:00.000Z').given((d) => d.liveRound(COUPS.bankerNatural, STAKES));
    s.when(correctSettled(1, '6d', 'misread'));
    expect(s.row(AN_SUM_BET_TYPES, { bet_type: 'player' })).toMatchObject({ corrected_bets: 1, facts: 1 });
    expect(s.row(AN_SUM_HOLD, { dealer_id: 'dealer-1' })).toMatchObject({ coups: 1, corrections: 1 });
    expectSumsOfFacts(s);
  });

  test('given a coup settled just before the swing shift, when it is voided just after, then its shift keeps a row of zeros and the void is in the swing shift', () => {
    const s = seated('2025-01-01T13:59:40.000Z').given((d) => d.liveRound(COUPS.bankerNatural, STAKES));
    expect(s.row(AN_COUPS, { round_no: 1 })).toMatchObject({ shift: 'day' });
    s.when((d) => {
      d.setTime('2025-01-01T14:00:05.000Z');
      return d.execute('VoidRound', { roundNo: 1, reason: 'shoe found short' }, SUPER);
    });
    expect(s.row(AN_SUM_HOLD, { shift: 'day', dealer_id: 'dealer-1' })).toMatchObject({
      coups: 0,
      handle: 0,
      win: 0,
      theo_win: 0,
      facts: 0,
    });
    expect(s.row(AN_SUM_HOLD, { shift: 'swing', dealer_id: 'dealer-1' })).toMatchObject({
      voids: 1,
      facts: 1,
    });
    expect(s.row(AN_SUM_BET_TYPES, { bet_type: 'player' })).toMatchObject({
      bets: 0,
      voided_bets: 1,
      facts: 1,
    });
    expectSumsOfFacts(s);
  });

  test('given a coup settled just before the cut-over, when it is corrected after it, then the sums of its own gaming day follow', () => {
    const s = seated('2025-01-01T05:59:30.000Z').given((d) => d.liveRound(COUPS.bankerNatural, STAKES));
    s.when((d) => {
      d.setTime('2025-01-01T06:00:10.000Z');
      return correctSettled(1, '6d', 'misread')(d);
    });
    expect(s.row(AN_SUM_HOLD, { gaming_day: '2024-12-31', dealer_id: 'dealer-1' })).toMatchObject({
      coups: 1,
    });
    expect(s.row(AN_SUM_HOLD, { gaming_day: '2025-01-01' })).toMatchObject({ coups: 0, corrections: 1 });
    expectSumsOfFacts(s);
  });

  test('given a coup settled, and buy-ins on the next two gaming days, when it is voided then, then its cells are still summed; the state keeps two days and that coup', () => {
    const s = seated('2025-01-01T10:00:00.000Z').given((d) => d.liveRound(COUPS.bankerNatural, STAKES));
    for (const day of ['2025-01-02', '2025-01-03'])
      s.given((d) => {
        d.setTime(`${day}T10:00:00.000Z`);
        return d.execute('BuyIn', { playerId: 'p3', amount: 10_000 }, ADMIN);
      });
    const days = (st: AnalystState) =>
      [...new Set(Object.values(st.sums.hold).map((c) => c.gamingDay))].sort();
    expect(days(s.state())).toEqual(['2025-01-01', '2025-01-02', '2025-01-03']);
    s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'shoe found short' }, SUPER));
    expect(s.row(AN_SUM_HOLD, { gaming_day: '2025-01-01', dealer_id: 'dealer-1' })).toMatchObject({
      coups: 0,
    });
    expectSumsOfFacts(s);
    // the next round opens: the voided coup's day is final, the state drops it when the day after next begins
    s.given((d) => {
      const round = d.liveRound(COUPS.playerNatural, STAKES);
      d.setTime('2025-01-04T10:00:00.000Z');
      return [...round, ...d.execute('BuyIn', { playerId: 'p4', amount: 10_000 }, ADMIN)];
    });
    expect(days(s.state())).toEqual(['2025-01-03', '2025-01-04']);
    expectSumsOfFacts(s);
  });
});
