/**
 * Statistics (`st_`): counters per table and UTC day, and per table and shoe, of the main bets; and per table,
 * day and bet type (every spot the table offers, side bets included), the coups by how the bet ended and the
 * money staked and paid on it. Per-table and overall figures are sums of the rows, computed by the queries
 * (`summarize`, `summarizeBets`) beside the exact odds.
 */
import { type Payout, type PayoutRules, type Spot, coupFeatures, isSideSpot, payoutOf } from '@coup/engine';
import {
  type CoupResolvedData,
  type GameMode,
  type TableRules,
  gameOf,
  offeredSpots,
  payoutRulesOf,
} from '@coup/table';
import {
  type Evolution,
  type ProjectionEvent,
  type ProjectionModel,
  type Write,
  byTable,
  dayOf,
  once,
} from '../kernel/types';
import {
  BET_COUNTERS,
  type BetCounter,
  STATS_COUNTERS,
  ST_BETS,
  ST_BET_RESULTS,
  ST_DAILY,
  ST_SHOES,
  type StatsCounter,
  statsTables,
} from './schema';

export * from './schema';
export * from './summary';

export interface StatsState {
  readonly position: number;
  readonly tableId: string;
  readonly decks: number;
  readonly tiePays: 8 | 9;
  readonly commissionMode: 'deducted' | 'box';
  /** The shoe of the current round (from BettingOpened: RoundVoided does not name it). */
  readonly roundShoeNo: number;
  readonly game: GameMode;
  /** What each bet pays at this table (the mode, tie payout, paytables). */
  readonly payout: PayoutRules;
  /** The spots the table offers, in display order. */
  readonly spots: readonly Spot[];
}

/** How a bet ended, as `st_bet_results.result` names it: `lose`, `push`, `win:<num>/<den>[:commission]`. */
export function resultKey(p: Payout): string {
  if (p.result !== 'win') return p.result;
  return `win:${p.num}/${p.den}${p.commission ? ':commission' : ''}`;
}

function counterWrites(
  s: StatsState,
  day: string,
  shoeNo: number,
  add: Partial<Record<StatsCounter, number>>,
): Write[] {
  const full: Record<string, number> = {};
  for (const k of STATS_COUNTERS) full[k] = add[k] ?? 0;
  const rules = { decks: s.decks, tie_pays: s.tiePays, commission_mode: s.commissionMode, game: s.game };
  return [
    { kind: 'add', table: ST_DAILY, row: { table_id: s.tableId, day, ...rules }, add: full },
    {
      kind: 'add',
      table: ST_SHOES,
      row: { table_id: s.tableId, shoe_no: shoeNo, first_day: day, ...rules },
      add: full,
    },
  ];
}

type BetTally = Record<BetCounter, number>;

const noBets = (): BetTally => Object.fromEntries(BET_COUNTERS.map((k) => [k, 0])) as BetTally;

/**
 * A coup's rows per bet type: for every spot offered (and any settled), one coup, how the bet ended (whether or
 * not anyone bet it), and the stakes settled on it.
 */
function betWrites(s: StatsState, d: CoupResolvedData, day: string): Write[] {
  const tallies = new Map<Spot, BetTally>(s.spots.map((spot) => [spot, noBets()]));
  for (const st of d.settlements) {
    let t = tallies.get(st.spot);
    if (t === undefined) tallies.set(st.spot, (t = noBets()));
    t.bets += 1;
    t.wins += st.result === 'win' ? 1 : 0;
    t.pushes += st.result === 'push' ? 1 : 0;
    t.losses += st.result === 'lose' ? 1 : 0;
    t.handle += st.amount;
    t.paid += st.paid;
    t.commission += st.commission;
    t.box_commission += d.commissionMode === 'box' ? st.commission : 0;
  }
  const features = coupFeatures(d);
  const writes: Write[] = [];
  for (const [spot, t] of tallies) {
    t.coups = 1;
    const key = { table_id: s.tableId, day, spot };
    const paytable = isSideSpot(spot) ? (s.payout.paytables?.[spot] ?? null) : null;
    writes.push(
      {
        kind: 'add',
        table: ST_BET_RESULTS,
        row: { ...key, result: resultKey(payoutOf(spot, features, s.payout)) },
        add: { coups: 1 },
      },
      {
        kind: 'add',
        table: ST_BETS,
        row: {
          ...key,
          paytable,
          game: s.game,
          decks: s.decks,
          tie_pays: s.tiePays,
          commission_mode: s.commissionMode,
        },
        add: t,
      },
    );
  }
  return writes;
}

function coupResolved(s: StatsState, d: CoupResolvedData): Write[] {
  const handle = { player: 0, banker: 0, tie: 0 };
  const paid = { player: 0, banker: 0, tie: 0 };
  let commission = 0;
  for (const st of d.settlements) {
    // the main bets' counters (every bet type, side bets included: st_bets)
    if (st.spot === 'player' || st.spot === 'banker' || st.spot === 'tie') {
      handle[st.spot] += st.amount;
      paid[st.spot] += st.paid;
    }
    commission += st.commission;
  }
  const add: Partial<Record<StatsCounter, number>> = {
    coups: 1,
    player_wins: d.outcome === 'player' ? 1 : 0,
    banker_wins: d.outcome === 'banker' ? 1 : 0,
    ties: d.outcome === 'tie' ? 1 : 0,
    naturals: d.natural ? 1 : 0,
    handle_player: handle.player,
    handle_banker: handle.banker,
    handle_tie: handle.tie,
    paid_player: paid.player,
    paid_banker: paid.banker,
    paid_tie: paid.tie,
    commission,
    box_commission: d.commissionMode === 'box' ? commission : 0,
  };
  const day = dayOf(d.at);
  return [...counterWrites(s, day, d.shoeNo, add), ...betWrites(s, d, day)];
}

function opened(s: StatsState, r: TableRules): StatsState {
  return {
    ...s,
    decks: r.decks,
    tiePays: r.tiePays,
    commissionMode: r.commission,
    game: gameOf(r),
    payout: payoutRulesOf(r),
    spots: offeredSpots(r),
  };
}

function evolveStats(state: StatsState, e: ProjectionEvent): Evolution<StatsState> {
  return once(state, e, evolveStatsStep);
}

function evolveStatsStep(s: StatsState, e: ProjectionEvent): Evolution<StatsState> {
  const ev = e.event;
  switch (ev.type) {
    case 'TableOpened':
      return { state: opened(s, ev.data.rules), writes: [] };
    case 'CoupResolved':
      return { state: s, writes: coupResolved(s, ev.data) };
    case 'BettingOpened':
      return { state: { ...s, roundShoeNo: ev.data.shoeNo }, writes: [] };
    case 'RoundVoided':
      return { state: s, writes: counterWrites(s, dayOf(ev.data.at), s.roundShoeNo, { voids: 1 }) };
    default:
      return { state: s, writes: [] };
  }
}

export const statsProjection: ProjectionModel<StatsState> = {
  name: 'stats',
  prefix: 'st',
  version: 2,
  description:
    'Counters per table and day and per shoe; per table, day and bet type (side bets included); summaries with exact odds, chi-square, confidence intervals and hold.',
  tables: statsTables,
  handles: new Set(['TableOpened', 'CoupResolved', 'BettingOpened', 'RoundVoided']),
  keyOf: byTable,
  initial: (tableId) => ({
    position: 0,
    tableId,
    decks: 8,
    tiePays: 8,
    commissionMode: 'deducted',
    roundShoeNo: 0,
    game: 'commission',
    payout: { game: 'commission', tiePays: 8, commission: 'deducted', paytables: {} },
    spots: ['player', 'banker', 'tie'],
  }),
  evolve: evolveStats,
};
