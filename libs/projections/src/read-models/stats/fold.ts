/**
 * Statistics (`st_`): counters per table and UTC day, and per table and shoe. Per-table and overall figures
 * are sums of the daily rows (`summarize`), with the outcome frequencies beside the exact odds of the tables'
 * decks (`exactOdds` of @coup/engine), a chi-square test of the difference, naturals, handle per spot, amount
 * paid, commission, house result and hold beside the theoretical edge.
 */
import { type ExactOdds, exactOdds } from '@coup/engine';
import {
  type Evolution,
  type ProjectionEvent,
  type ProjectionModel,
  type TableDef,
  type Write,
  byTable,
  dayOf,
  int,
  once,
  text,
} from '../kernel/types';

export const ST_DAILY = 'st_daily';
export const ST_SHOES = 'st_shoes';

export const STATS_COUNTERS = [
  'coups',
  'player_wins',
  'banker_wins',
  'ties',
  'naturals',
  'voids',
  'handle_player',
  'handle_banker',
  'handle_tie',
  'paid_player',
  'paid_banker',
  'paid_tie',
  'commission',
  'box_commission',
] as const;

export type StatsCounter = (typeof STATS_COUNTERS)[number];

/** A stats row's counters with the table's rules that the expectations depend on. */
export type StatsCounters = Readonly<Record<StatsCounter, number>> & {
  readonly decks: number;
  readonly tie_pays: number;
};

const DOCS: Readonly<Record<StatsCounter, string>> = {
  coups: 'Coups resolved',
  player_wins: 'Coups won by player',
  banker_wins: 'Coups won by banker',
  ties: 'Ties',
  naturals: 'Coups with a natural',
  voids: 'Rounds voided',
  handle_player: 'Stakes settled on player (cents)',
  handle_banker: 'Stakes settled on banker (cents)',
  handle_tie: 'Stakes settled on tie (cents)',
  paid_player: 'Paid back on player bets, stakes included (cents)',
  paid_banker: 'Paid back on banker bets, stakes included, commission deducted (cents)',
  paid_tie: 'Paid back on tie bets, stakes included (cents)',
  commission: 'Commission deducted or owed (cents)',
  box_commission: 'Of which owed to the commission box (not deducted from paid)',
};

const counterColumns = STATS_COUNTERS.map((name) => int(name, DOCS[name]));

const tables: readonly TableDef[] = [
  {
    name: ST_DAILY,
    doc: 'Counters per table and UTC day (of the coup time). Sum rows for a table, a date range, or overall.',
    primaryKey: ['table_id', 'day'],
    counters: STATS_COUNTERS,
    indexes: [{ name: 'day', columns: ['day'] }],
    columns: [
      text('table_id', 'Table id'),
      text('day', 'UTC day, YYYY-MM-DD'),
      int('decks', "The table's decks"),
      int('tie_pays', 'Tie pays 8 or 9 to 1'),
      text('commission_mode', "'deducted' | 'box'"),
      ...counterColumns,
    ],
  },
  {
    name: ST_SHOES,
    doc: 'Counters per table and shoe.',
    primaryKey: ['table_id', 'shoe_no'],
    counters: STATS_COUNTERS,
    columns: [
      text('table_id', 'Table id'),
      int('shoe_no', 'Shoe number'),
      text('first_day', 'UTC day of the first coup counted'),
      int('decks', "The table's decks"),
      int('tie_pays', 'Tie pays 8 or 9 to 1'),
      text('commission_mode', "'deducted' | 'box'"),
      ...counterColumns,
    ],
  },
];

export interface StatsState {
  readonly position: number;
  readonly tableId: string;
  readonly decks: number;
  readonly tiePays: 8 | 9;
  readonly commissionMode: 'deducted' | 'box';
  /** The shoe of the current round (from BettingOpened: RoundVoided does not name it). */
  readonly roundShoeNo: number;
}

function counterWrites(
  s: StatsState,
  day: string,
  shoeNo: number,
  add: Partial<Record<StatsCounter, number>>,
): Write[] {
  const full: Record<string, number> = {};
  for (const k of STATS_COUNTERS) full[k] = add[k] ?? 0;
  const rules = { decks: s.decks, tie_pays: s.tiePays, commission_mode: s.commissionMode };
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

function evolveStats(state: StatsState, e: ProjectionEvent): Evolution<StatsState> {
  return once(state, e, evolveStatsStep);
}

function evolveStatsStep(s: StatsState, e: ProjectionEvent): Evolution<StatsState> {
  const ev = e.event;
  switch (ev.type) {
    case 'TableOpened': {
      const r = ev.data.rules;
      return {
        state: { ...s, decks: r.decks, tiePays: r.tiePays, commissionMode: r.commission },
        writes: [],
      };
    }
    case 'CoupResolved': {
      const d = ev.data;
      const handle = { player: 0, banker: 0, tie: 0 };
      const paid = { player: 0, banker: 0, tie: 0 };
      let commission = 0;
      for (const st of d.settlements) {
        // side bets are not in these counters yet (issue 15's statistics per bet type)
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
      return { state: s, writes: counterWrites(s, dayOf(d.at), d.shoeNo, add) };
    }
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
  version: 1,
  description: 'Counters per table and day and per shoe; summaries with exact odds, chi-square and hold.',
  tables,
  handles: new Set(['TableOpened', 'CoupResolved', 'BettingOpened', 'RoundVoided']),
  keyOf: byTable,
  initial: (tableId) => ({
    position: 0,
    tableId,
    decks: 8,
    tiePays: 8,
    commissionMode: 'deducted',
    roundShoeNo: 0,
  }),
  evolve: evolveStats,
};

// ---------------------------------------------------------------------------------------------------------------
// Summaries (pure; the query side sums rows and calls these)

export interface ChiSquare {
  /** Σ (observed - expected)² / expected over player, banker, tie. */
  readonly statistic: number;
  readonly degreesOfFreedom: 2;
  /** P(X² >= statistic) for 2 degrees of freedom: exp(-statistic / 2) (exact for df = 2). */
  readonly pValue: number;
}

export interface StatsSummary {
  readonly coups: number;
  readonly voids: number;
  readonly outcomes: { readonly player: number; readonly banker: number; readonly tie: number };
  readonly frequencies: { readonly player: number; readonly banker: number; readonly tie: number } | null;
  /** Exact probabilities for the tables' decks (weighted by coups when rows mix deck counts). */
  readonly expected: { readonly player: number; readonly banker: number; readonly tie: number } | null;
  readonly chiSquare: ChiSquare | null;
  readonly naturals: {
    readonly count: number;
    readonly frequency: number | null;
    readonly expected: number | null;
  };
  readonly handle: {
    readonly player: number;
    readonly banker: number;
    readonly tie: number;
    readonly total: number;
  };
  readonly paid: number;
  readonly commission: number;
  readonly boxCommission: number;
  /** handle - paid + box commission owed. */
  readonly houseResult: number;
  /** houseResult / handle x 100, or null with no handle. */
  readonly holdPercent: number | null;
  /** Σ handle per spot x the spot's exact house edge / handle x 100, or null with no handle. */
  readonly theoreticalEdgePercent: number | null;
}

const oddsCache = new Map<string, ExactOdds>();

/** `exactOdds` memoized per deck count and tie payout (it is a pure function of them). */
export function oddsFor(decks: number, tiePays: number): ExactOdds {
  const key = `${decks}:${tiePays}`;
  let odds = oddsCache.get(key);
  if (odds === undefined) {
    odds = exactOdds({ decks, tiePays: tiePays === 9 ? 9 : 8 });
    oddsCache.set(key, odds);
  }
  return odds;
}

/** Chi-square goodness of fit of observed outcome counts to expected counts (2 degrees of freedom). */
export function chiSquare(
  observed: { readonly player: number; readonly banker: number; readonly tie: number },
  expected: { readonly player: number; readonly banker: number; readonly tie: number },
): ChiSquare {
  let statistic = 0;
  for (const k of ['player', 'banker', 'tie'] as const) {
    if (expected[k] > 0) statistic += (observed[k] - expected[k]) ** 2 / expected[k];
  }
  return { statistic, degreesOfFreedom: 2, pValue: Math.exp(-statistic / 2) };
}

/** The summary of some stats rows (any mix of tables, days, shoes). */
export function summarize(rows: readonly StatsCounters[]): StatsSummary {
  const t: Record<StatsCounter, number> = Object.fromEntries(STATS_COUNTERS.map((k) => [k, 0])) as Record<
    StatsCounter,
    number
  >;
  const exp = { player: 0, banker: 0, tie: 0 };
  let expNaturals = 0;
  let edgeCents = 0;
  for (const r of rows) {
    for (const k of STATS_COUNTERS) t[k] += r[k];
    const odds = oddsFor(r.decks, r.tie_pays);
    exp.player += r.coups * odds.probabilities.player;
    exp.banker += r.coups * odds.probabilities.banker;
    exp.tie += r.coups * odds.probabilities.tie;
    expNaturals += r.coups * odds.natural;
    edgeCents +=
      r.handle_player * odds.houseEdge.player +
      r.handle_banker * odds.houseEdge.banker +
      r.handle_tie * odds.houseEdge.tie;
  }
  const outcomes = { player: t.player_wins, banker: t.banker_wins, tie: t.ties };
  const n = t.coups;
  const handle = t.handle_player + t.handle_banker + t.handle_tie;
  const paid = t.paid_player + t.paid_banker + t.paid_tie;
  const houseResult = handle - paid + t.box_commission;
  return {
    coups: n,
    voids: t.voids,
    outcomes,
    frequencies:
      n === 0 ? null : { player: outcomes.player / n, banker: outcomes.banker / n, tie: outcomes.tie / n },
    expected: n === 0 ? null : { player: exp.player / n, banker: exp.banker / n, tie: exp.tie / n },
    chiSquare: n === 0 ? null : chiSquare(outcomes, exp),
    naturals: {
      count: t.naturals,
      frequency: n === 0 ? null : t.naturals / n,
      expected: n === 0 ? null : expNaturals / n,
    },
    handle: { player: t.handle_player, banker: t.handle_banker, tie: t.handle_tie, total: handle },
    paid,
    commission: t.commission,
    boxCommission: t.box_commission,
    houseResult,
    holdPercent: handle === 0 ? null : (houseResult / handle) * 100,
    theoreticalEdgePercent: handle === 0 ? null : (edgeCents / handle) * 100,
  };
}
