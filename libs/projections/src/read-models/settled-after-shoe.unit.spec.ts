/**
 * A settled coup corrected or voided once its shoe has ended, or the next shoe has started, before the next betting
 * opens (the decider takes it then, checked against the coup's own shoe): every read model puts it on the coup's
 * own shoe, and none changes the new shoe.
 */
import type { Actor, TableEvent } from '@coup/table';
import { COUPS, EZ_ONE_DECK } from '../testing/coups';
import type { TableDriver } from '../testing/driver';
import { Scenario, correctSettled } from '../testing/scenario';
import { AN_COUPS } from './analyst/schema-facts';
import { AN_SHOES } from './analyst/schema-dims';
import { type AnalystState, analystProjection } from './analyst';
import { EM_TABLES, type EdgeState, edgeMonitorProjection } from './edge-monitor';
import { HH_HANDS, HH_SHOES, type HandHistoryState, handHistoryProjection } from './hand-history';
import type { AnyProjection, PositionedState } from './kernel/types';
import { PL_ACCOUNTS, PL_ENTRIES } from './ledger/schema';
import { type LedgerState, ledgerProjection } from './ledger/fold';
import { RD_ROADS, type RoadsState, roadsProjection } from './roads/fold';
import { ST_SHOES, type StatsState, statsProjection } from './stats/fold';
import { type TableViewState, tableViewProjection } from './table-view/fold';

const SUPER: Actor = { id: 'super-1', role: 'supervisor' };

/** After the coup settled: its shoe ended, or ended and the next one started. */
const WINDOWS: readonly [string, (d: TableDriver) => TableEvent[]][] = [
  ['its shoe ended', (d) => d.execute('EndShoe', {}, SUPER)],
  [
    'the next shoe started',
    (d) => [...d.execute('EndShoe', {}, SUPER), ...d.execute('StartShoe', { firstCard: '7c' })],
  ],
];

/** Player 9+K natural beat banker 5+2 (p1 on player, p2 on banker, 1,000 each); card 3 was a 4d: a 9-9 tie. */
const correctToTie = correctSettled(3, '4d', 'the banker’s second card was a 4');
const voidIt = (d: TableDriver) => d.execute('VoidRound', { roundNo: 1, reason: 'shoe found short' }, SUPER);

function settledThen<S extends PositionedState>(
  model: AnyProjection,
  window: (d: TableDriver) => TableEvent[],
  rules: Record<string, unknown> = {},
): Scenario<S> {
  return Scenario.settledLive<S>(model, COUPS.playerNatural, rules).given(window);
}

function expectIdempotent(s: Scenario): void {
  const again = s.again();
  expect(again.writes).toEqual([]);
  expect(again.changed).toBe(false);
}

describe.each(WINDOWS)('a settled coup amended after %s', (_name, window) => {
  const started = _name === 'the next shoe started';

  test('hand history: the hand shows it, its own shoe counts it', () => {
    const s = settledThen<HandHistoryState>(handHistoryProjection, window);
    s.when(correctToTie);
    expect(s.row(HH_HANDS, { round_no: 1 })).toMatchObject({
      shoe_no: 1,
      status: 'resolved',
      outcome: 'tie',
    });
    expect(s.row(HH_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 1, voids: 0 });
    s.when(voidIt);
    expect(s.row(HH_HANDS, { round_no: 1 })).toMatchObject({ shoe_no: 1, status: 'voided' });
    expect(s.row(HH_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 0, voids: 1 });
    if (started) expect(s.row(HH_SHOES, { shoe_no: 2 })).toMatchObject({ coups: 0, voids: 0 });
    expectIdempotent(s);
  });

  test('roads: the bead changes on its own shoe’s road, the new road stays empty', () => {
    const s = settledThen<RoadsState>(roadsProjection, window);
    s.when(correctToTie);
    expect(s.row(RD_ROADS, { shoe_no: 1 })).toMatchObject({ outcomes: 'T', coups: 1 });
    s.when(voidIt);
    expect(s.row(RD_ROADS, { shoe_no: 1 })).toMatchObject({ outcomes: '', coups: 0 });
    if (started) expect(s.row(RD_ROADS, { shoe_no: 2 })).toMatchObject({ outcomes: '', coups: 0 });
    expectIdempotent(s);
  });

  test('statistics: the counters move on its own shoe', () => {
    const s = settledThen<StatsState>(statsProjection, window);
    s.when(correctToTie);
    expect(s.row(ST_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 1, player_wins: 0, ties: 1 });
    s.when(voidIt);
    expect(s.row(ST_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 0, ties: 0, voids: 1 });
    expect(s.rows(ST_SHOES).filter((r) => r['shoe_no'] !== 1)).toEqual([]);
    expectIdempotent(s);
  });

  test('ledger: the reversal and the new settlement, every account to the cent', () => {
    const s = settledThen<LedgerState>(ledgerProjection, window);
    s.when(correctToTie);
    // the tie pushes both bets: each player has its 50,000 back
    for (const playerId of ['p1', 'p2']) {
      expect(s.row(PL_ACCOUNTS, { player_id: playerId })).toMatchObject({ chips: 50_000, net_result: 0 });
    }
    expect(s.rows(PL_ENTRIES).filter((r) => r['kind'] === 'reversal')).toHaveLength(2);
    s.when(voidIt);
    for (const playerId of ['p1', 'p2']) {
      expect(s.row(PL_ACCOUNTS, { player_id: playerId })).toMatchObject({ chips: 50_000, net_result: 0 });
    }
    expectIdempotent(s);
  });

  test('analysts: the coup fact follows, and its own shoe no longer counts it once voided', () => {
    const s = settledThen<AnalystState>(analystProjection(), window);
    s.when(correctToTie);
    expect(s.row(AN_COUPS, { round_no: 1 })).toMatchObject({ shoe_no: 1, outcome: 'tie' });
    expect(s.row(AN_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 1 });
    s.when(voidIt);
    expect(s.row(AN_COUPS, { round_no: 1 })).toMatchObject({ status: 'voided' });
    expect(s.row(AN_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 0 });
    if (started) expect(s.row(AN_SHOES, { shoe_no: 2 })).toMatchObject({ coups: null, ended_at: null });
    expectIdempotent(s);
  });

  test('edge monitor: the new shoe’s reading is left as it was', () => {
    const s = settledThen<EdgeState>(edgeMonitorProjection, window, EZ_ONE_DECK);
    const before = s.rows(EM_TABLES);
    s.when(correctToTie);
    expect(s.rows(EM_TABLES)).toEqual(before);
    s.when(voidIt);
    expect(s.rows(EM_TABLES)).toEqual(before);
  });

  test('table view: the new shoe is left as it was; the ended shoe, the coup’s own, follows', () => {
    const s = settledThen<TableViewState>(tableViewProjection, window);
    const shoe = s.state().table.shoe!;
    const left = shoe.remaining!;
    s.when(correctToTie);
    const corrected = { ...shoe, remaining: { ...left, '2d': left['2d'] + 1, '4d': left['4d'] - 1 } };
    expect(s.state().table.shoe).toEqual(started ? shoe : corrected);
    s.when(voidIt);
    expect(s.state().table.shoe).toEqual(started ? shoe : { ...corrected, coups: shoe.coups - 1 });
  });
});
