/**
 * Statistics (`st_`): counters per table and UTC day, and per table and shoe, of the main bets; and per table,
 * day and bet type (every spot the table offers, side bets included), the coups by how the bet ended and the
 * money staked and paid on it. Per-table and overall figures are sums of the rows, computed by the queries
 * (`summarize`, `summarizeBets`) beside the exact odds.
 */
import {
  type CoupResult,
  type Payout,
  type PayoutRules,
  type Spot,
  coupFeatures,
  isSideSpot,
  payoutOf,
} from '@coup/engine';
import {
  type GameMode,
  type Settlement,
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
  only,
  signed,
} from '../kernel/types';
import {
  type BetCounter,
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
  /**
   * The coup last counted, until the next betting opens (it may still be corrected or voided: its counters then
   * move on its own day and shoe); absent in states stored by older code: none.
   */
  readonly settled?: CountedCoup | null;
}

/** A coup as counted: its result (its settlements are in the events that reverse them) and where. */
export interface CountedCoup extends CoupResult {
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly day: string;
  readonly commissionMode: 'deducted' | 'box';
}

/** What the counters of one coup are made of. */
type Counted = CoupResult & {
  readonly commissionMode: 'deducted' | 'box';
  readonly settlements: readonly Settlement[];
};

/** How a bet ended, as `st_bet_results.result` names it: `lose`, `push`, `win:<num>/<den>[:commission]`. */
export function resultKey(p: Payout): string {
  if (p.result !== 'win') return p.result;
  return `win:${p.num}/${p.den}${p.commission ? ':commission' : ''}`;
}

/** Every counter of a daily or shoe row, from the ones given (a literal: one object shape for every write). */
function statsCounters(add: Partial<Record<StatsCounter, number>>): Record<StatsCounter, number> {
  return {
    coups: add.coups ?? 0,
    player_wins: add.player_wins ?? 0,
    banker_wins: add.banker_wins ?? 0,
    ties: add.ties ?? 0,
    naturals: add.naturals ?? 0,
    voids: add.voids ?? 0,
    handle_player: add.handle_player ?? 0,
    handle_banker: add.handle_banker ?? 0,
    handle_tie: add.handle_tie ?? 0,
    paid_player: add.paid_player ?? 0,
    paid_banker: add.paid_banker ?? 0,
    paid_tie: add.paid_tie ?? 0,
    commission: add.commission ?? 0,
    box_commission: add.box_commission ?? 0,
  };
}

function counterWrites(
  s: StatsState,
  day: string,
  shoeNo: number,
  add: Partial<Record<StatsCounter, number>>,
): Write[] {
  const full = statsCounters(add);
  return [
    {
      kind: 'add',
      table: ST_DAILY,
      row: {
        table_id: s.tableId,
        day,
        decks: s.decks,
        tie_pays: s.tiePays,
        commission_mode: s.commissionMode,
        game: s.game,
      },
      add: full,
    },
    {
      kind: 'add',
      table: ST_SHOES,
      row: {
        table_id: s.tableId,
        shoe_no: shoeNo,
        first_day: day,
        decks: s.decks,
        tie_pays: s.tiePays,
        commission_mode: s.commissionMode,
        game: s.game,
      },
      add: full,
    },
  ];
}

type BetTally = Record<BetCounter, number>;

// literals, field by field (Object.fromEntries and loops over the counter names were a tenth of the fold)
const noBets = (): BetTally => ({
  coups: 0,
  bets: 0,
  wins: 0,
  pushes: 0,
  losses: 0,
  handle: 0,
  paid: 0,
  commission: 0,
  box_commission: 0,
});

/** A tally of one coup (`coups` 1), counted back when `sign` is -1. */
const signedTally = (sign: 1 | -1, t: BetTally): BetTally => ({
  coups: sign,
  bets: signed(sign, t.bets),
  wins: signed(sign, t.wins),
  pushes: signed(sign, t.pushes),
  losses: signed(sign, t.losses),
  handle: signed(sign, t.handle),
  paid: signed(sign, t.paid),
  commission: signed(sign, t.commission),
  box_commission: signed(sign, t.box_commission),
});

/**
 * A coup's rows per bet type: for every spot offered (and any settled), one coup, how the bet ended (whether or
 * not anyone bet it), and the stakes settled on it; `sign` -1 counts them back (a correction's reversal, a void).
 */
function betWrites(s: StatsState, d: Counted, day: string, sign: 1 | -1): Write[] {
  const tallies = new Map<Spot, BetTally>();
  for (const spot of s.spots) tallies.set(spot, noBets());
  const box = d.commissionMode === 'box';
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
    t.box_commission += box ? st.commission : 0;
  }
  const features = coupFeatures(d);
  const writes: Write[] = [];
  for (const [spot, t] of tallies) {
    const paytable = isSideSpot(spot) ? (s.payout.paytables?.[spot] ?? null) : null;
    writes.push(
      {
        kind: 'add',
        table: ST_BET_RESULTS,
        row: {
          table_id: s.tableId,
          day,
          spot,
          result: resultKey(payoutOf(spot, features, s.payout)),
        },
        add: { coups: sign },
      },
      {
        kind: 'add',
        table: ST_BETS,
        row: {
          table_id: s.tableId,
          day,
          spot,
          paytable,
          game: s.game,
          decks: s.decks,
          tie_pays: s.tiePays,
          commission_mode: s.commissionMode,
        },
        add: signedTally(sign, t),
      },
    );
  }
  return writes;
}

/** A coup's counters on `day` and `shoeNo`: counted (`sign` 1) or counted back (-1). */
function coupWrites(s: StatsState, d: Counted, day: string, shoeNo: number, sign: 1 | -1): Write[] {
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
    coups: sign,
    player_wins: d.outcome === 'player' ? sign : 0,
    banker_wins: d.outcome === 'banker' ? sign : 0,
    ties: d.outcome === 'tie' ? sign : 0,
    naturals: d.natural ? sign : 0,
    handle_player: signed(sign, handle.player),
    handle_banker: signed(sign, handle.banker),
    handle_tie: signed(sign, handle.tie),
    paid_player: signed(sign, paid.player),
    paid_banker: signed(sign, paid.banker),
    paid_tie: signed(sign, paid.tie),
    commission: signed(sign, commission),
    box_commission: d.commissionMode === 'box' ? signed(sign, commission) : 0,
  };
  return [...counterWrites(s, day, shoeNo, add), ...betWrites(s, d, day, sign)];
}

/**
 * The coup as it is counted now (until the next betting opens), on `day` and shoe `shoeNo` (its fields picked
 * from the event's data, not a spread of it: the data holds the settlements too).
 */
function counted(d: Omit<CountedCoup, 'day' | 'shoeNo'>, day: string, shoeNo: number): CountedCoup {
  return {
    roundNo: d.roundNo,
    shoeNo,
    day,
    commissionMode: d.commissionMode,
    playerCards: d.playerCards,
    bankerCards: d.bankerCards,
    playerTotal: d.playerTotal,
    bankerTotal: d.bankerTotal,
    outcome: d.outcome,
    natural: d.natural,
    cardsUsed: d.cardsUsed,
  };
}

/**
 * A settled coup corrected: its counters move from the result it had (with the settlement reversed) to the
 * corrected one, on the coup's own day and shoe; voided: counted back, and a void counted there instead.
 */
function amended(s: StatsState, e: ProjectionEvent): Evolution<StatsState> {
  const ev = e.event;
  if (ev.type !== 'SettledCoupCorrected' && ev.type !== 'SettledCoupVoided') return only(s);
  const coup = s.settled ?? null;
  if (coup === null || coup.roundNo !== ev.data.roundNo) return only(s);
  const back = coupWrites(s, { ...coup, settlements: ev.data.reversed }, coup.day, coup.shoeNo, -1);
  if (ev.type === 'SettledCoupVoided') {
    const voided = counterWrites(s, coup.day, coup.shoeNo, { voids: 1 });
    return { state: { ...s, settled: null }, writes: [...back, ...voided] };
  }
  const d = ev.data;
  const now = counted(d, coup.day, coup.shoeNo);
  return {
    state: { ...s, settled: now },
    writes: [...back, ...coupWrites(s, d, coup.day, coup.shoeNo, 1)],
  };
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
    case 'CoupResolved': {
      const d = ev.data;
      const day = dayOf(d.at);
      return {
        state: { ...s, settled: counted(d, day, d.shoeNo) },
        writes: coupWrites(s, d, day, d.shoeNo, 1),
      };
    }
    case 'BettingOpened':
      return { state: { ...s, roundShoeNo: ev.data.shoeNo, settled: null }, writes: [] };
    case 'RoundVoided':
      return { state: s, writes: counterWrites(s, dayOf(ev.data.at), s.roundShoeNo, { voids: 1 }) };
    case 'SettledCoupCorrected':
    case 'SettledCoupVoided':
      return amended(s, e);
    default:
      return { state: s, writes: [] };
  }
}

export const statsProjection: ProjectionModel<StatsState> = {
  name: 'stats',
  prefix: 'st',
  version: 3,
  description:
    'Counters per table and day and per shoe; per table, day and bet type (side bets included); summaries with exact odds, chi-square, confidence intervals and hold. A settled coup corrected counts as corrected; voided, as a void.',
  tables: statsTables,
  handles: new Set([
    'TableOpened',
    'CoupResolved',
    'BettingOpened',
    'RoundVoided',
    'SettledCoupCorrected',
    'SettledCoupVoided',
  ]),
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
    settled: null,
  }),
  evolve: evolveStats,
};
