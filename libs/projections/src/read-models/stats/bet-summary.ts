/**
 * Statistics per bet type (pure; the query sums `st_bets` and `st_bet_results` rows and calls these): for each
 * bet, how often each of its results happened beside its exact probability (`exactBetOdds` of @coup/engine for
 * the rows' decks, mode, tie payout and paytable, weighted by coups when rows mix them), with a Wilson score
 * 95% confidence interval of the frequency; and its hold (house result / handle) beside its theoretical edge.
 */
import {
  type BetOdds,
  type GameMode,
  SIDE_BETS,
  type SideSpot,
  type Spot,
  exactBetOdds,
  isSideSpot,
} from '@coup/engine';
import { resultKey } from './fold';
import { BET_COUNTERS, type BetCounter } from './schema';
import type { Hold } from './summary';

/** A `st_bets` row: a table's day of one bet, its rules and counters. */
export type BetRow = Readonly<Record<BetCounter, number>> & {
  readonly spot: Spot;
  readonly paytable: string | null;
  readonly game: GameMode;
  readonly decks: number;
  readonly tie_pays: number;
};

/** A `st_bet_results` row's counts for one table's day, by result key. */
export type ResultCounts = ReadonlyMap<string, number>;

/** The z of a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * The Wilson score interval of a binomial proportion (k successes in n trials), 95%: unlike the normal
 * approximation, it stays within [0, 1] and is sound for rare results (Dragon 7, perfect pairs) and few coups.
 */
export function wilson95(k: number, n: number): { readonly low: number; readonly high: number } | null {
  if (n === 0) return null;
  const p = k / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  // exactly 0 and 1 at the ends (rounding would leave 1 - 1e-16)
  return { low: k === 0 ? 0 : Math.max(0, centre - half), high: k === n ? 1 : Math.min(1, centre + half) };
}

/** One way a bet ends: how often it did and how often it should. */
export interface BetResultStats {
  /** As `st_bet_results.result`: 'lose', 'push', 'win:<num>/<den>[:commission]'. */
  readonly key: string;
  readonly result: 'win' | 'push' | 'lose';
  /** A win's odds as people write them ('30:1', '1:2', '1:1 less 5%'), else null. */
  readonly pays: string | null;
  /** Coups that ended the bet so. */
  readonly count: number;
  /** count / coups, or null with no coups. */
  readonly frequency: number | null;
  /** Wilson score 95% interval of the frequency, or null with no coups. */
  readonly ci95: { readonly low: number; readonly high: number } | null;
  /** The exact probability (weighted by coups over the rows' rules). */
  readonly expected: number | null;
  /** Whether the exact probability lies in the interval (null with no coups). */
  readonly withinCi95: boolean | null;
}

/**
 * Some stakes together: the hold beside the edge (a bet type's edge is its exact house edge per unit staked,
 * pushes counted, weighted by handle, or by coups with no handle).
 */
export interface BetTotals extends Hold {
  /** Stakes settled. */
  readonly bets: number;
  readonly handle: number;
}

/** One bet type's statistics over some rows. */
export interface BetTypeStats extends BetTotals {
  readonly spot: Spot;
  readonly label: string;
  /**
   * What sets the payouts beside the spot: a side bet's paytable, the banker bet's game mode, the tie's payout
   * ('8-to-1'), the player bet's '1-to-1'. Rows of one bet type share it.
   */
  readonly variant: string;
  /** A side bet's paytable, else null. */
  readonly paytable: string | null;
  /** Coups resolved while it was offered. */
  readonly coups: number;
  readonly results: BetResultStats[];
  /** Of the stakes settled: won, pushed, lost. */
  readonly wins: number;
  readonly pushes: number;
  readonly losses: number;
}

const MAIN_LABELS: Readonly<Record<string, string>> = { player: 'Player', banker: 'Banker', tie: 'Tie' };

/** A bet's name for people ('Player', 'Dragon 7'). */
export const betLabel = (spot: Spot): string =>
  isSideSpot(spot) ? SIDE_BETS[spot].label : (MAIN_LABELS[spot] ?? spot);

/** The payout variant of a row's bet (see {@link BetTypeStats.variant}). */
export function variantOf(row: Pick<BetRow, 'spot' | 'paytable' | 'game' | 'tie_pays'>): string {
  if (isSideSpot(row.spot)) return row.paytable ?? '';
  if (row.spot === 'banker') return row.game;
  return row.spot === 'tie' ? `${row.tie_pays}-to-1` : '1-to-1';
}

const oddsCache = new Map<string, BetOdds>();

/**
 * The exact odds of one bet under these rules, memoized. Each miss computes every bet the mode allows at once
 * (one enumeration of the shoe), with this bet's paytable and the other side bets' defaults.
 */
export function betOddsFor(
  row: Pick<BetRow, 'spot' | 'paytable' | 'game' | 'decks' | 'tie_pays'>,
): BetOdds | null {
  const tiePays = row.tie_pays === 9 ? 9 : 8;
  const key = (spot: Spot, paytable: string | null) =>
    `${row.decks}|${row.game}|${tiePays}|${spot}|${paytable ?? ''}`;
  const wanted = key(row.spot, row.paytable);
  const cached = oddsCache.get(wanted);
  if (cached !== undefined) return cached;
  const paytables: Partial<Record<SideSpot, string>> =
    isSideSpot(row.spot) && row.paytable !== null ? { [row.spot]: row.paytable } : {};
  let odds;
  try {
    odds = exactBetOdds({ decks: row.decks, game: row.game, tiePays, paytables });
  } catch {
    return null; // rules the catalogue no longer knows (a paytable removed since): no expectation
  }
  for (const spot of odds.spots) {
    const bet = odds.bets[spot];
    if (bet) oddsCache.set(key(spot, bet.paytable), bet);
  }
  return oddsCache.get(wanted) ?? null;
}

/** A win's odds as people write them ('30:1', '0.54:1', '1:2', '1:1 less 5%'), from a result key; else null. */
export function paysOf(key: string): string | null {
  const m = /^win:(\d+)\/(\d+)(:commission)?$/.exec(key);
  if (!m) return null;
  const [, num, den, commission] = m;
  const ratio = den === '100' ? `${Number(num) / 100}:1` : `${num}:${den}`;
  return commission ? `${ratio} less 5%` : ratio;
}

interface Acc {
  readonly counters: Record<BetCounter, number>;
  readonly counts: Map<string, number>;
  readonly expected: Map<string, number>;
  edgeByHandle: number;
  edgeByCoups: number;
}

/** One bet type's statistics from its rows (one bet type: the same spot and variant) and their result counts. */
export function summarizeBet(rows: readonly { row: BetRow; results: ResultCounts }[]): BetTypeStats | null {
  const first = rows[0]?.row;
  if (first === undefined) return null;
  const acc: Acc = {
    counters: Object.fromEntries(BET_COUNTERS.map((k) => [k, 0])) as Record<BetCounter, number>,
    counts: new Map(),
    expected: new Map(),
    edgeByHandle: 0,
    edgeByCoups: 0,
  };
  for (const { row, results } of rows) addRow(acc, row, results);
  const c = acc.counters;
  const n = c.coups;
  const keys = [...new Set([...acc.expected.keys(), ...acc.counts.keys()])].sort(byResult);
  const houseResult = c.handle - c.paid + c.box_commission;
  return {
    spot: first.spot,
    label: betLabel(first.spot),
    variant: variantOf(first),
    paytable: isSideSpot(first.spot) ? first.paytable : null,
    coups: n,
    results: keys.map((key) => resultStats(key, acc.counts.get(key) ?? 0, n, acc.expected.get(key))),
    bets: c.bets,
    wins: c.wins,
    pushes: c.pushes,
    losses: c.losses,
    handle: c.handle,
    paid: c.paid,
    commission: c.commission,
    boxCommission: c.box_commission,
    houseResult,
    holdPercent: c.handle === 0 ? null : (houseResult / c.handle) * 100,
    theoreticalEdgePercent:
      c.handle > 0 ? (acc.edgeByHandle / c.handle) * 100 : n > 0 ? (acc.edgeByCoups / n) * 100 : null,
  };
}

function addRow(acc: Acc, row: BetRow, results: ResultCounts): void {
  for (const k of BET_COUNTERS) acc.counters[k] += row[k];
  for (const [key, count] of results) acc.counts.set(key, (acc.counts.get(key) ?? 0) + count);
  const odds = betOddsFor(row);
  if (odds === null) return;
  for (const r of odds.results) {
    const key = resultKey(r.payout);
    acc.expected.set(key, (acc.expected.get(key) ?? 0) + row.coups * r.probability);
  }
  acc.edgeByHandle += row.handle * odds.houseEdge;
  acc.edgeByCoups += row.coups * odds.houseEdge;
}

function resultStats(
  key: string,
  count: number,
  n: number,
  expectedCoups: number | undefined,
): BetResultStats {
  const ci95 = wilson95(count, n);
  const expected = n === 0 || expectedCoups === undefined ? null : expectedCoups / n;
  return {
    key,
    result: key.startsWith('win') ? 'win' : key === 'push' ? 'push' : 'lose',
    pays: paysOf(key),
    count,
    frequency: n === 0 ? null : count / n,
    ci95,
    expected,
    withinCi95: ci95 === null || expected === null ? null : expected >= ci95.low && expected <= ci95.high,
  };
}

/** Wins first (best paying first), then pushes, then losses. */
function byResult(a: string, b: string): number {
  const rank = (k: string) => (k.startsWith('win') ? 0 : k === 'push' ? 1 : 2);
  const odds = (k: string) => {
    const m = /^win:(\d+)\/(\d+)/.exec(k);
    return m ? Number(m[1]) / Number(m[2]) : 0;
  };
  return rank(a) - rank(b) || odds(b) - odds(a) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Every bet type of some rows (grouped by spot and variant, in display order), and their totals. */
export function summarizeBets(
  rows: readonly { row: BetRow; results: ResultCounts }[],
  order: readonly Spot[],
): { readonly bets: BetTypeStats[]; readonly total: BetTotals } {
  const groups = new Map<string, { row: BetRow; results: ResultCounts }[]>();
  for (const r of rows) {
    const key = `${r.row.spot}|${variantOf(r.row)}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const bets = [...groups.values()]
    .map((g) => summarizeBet(g))
    .filter((b): b is BetTypeStats => b !== null)
    .sort((a, b) => order.indexOf(a.spot) - order.indexOf(b.spot) || (a.variant < b.variant ? -1 : 1));
  let edgeCents = 0;
  const t = { bets: 0, handle: 0, paid: 0, commission: 0, boxCommission: 0 };
  for (const b of bets) {
    t.bets += b.bets;
    t.handle += b.handle;
    t.paid += b.paid;
    t.commission += b.commission;
    t.boxCommission += b.boxCommission;
    edgeCents += b.handle * ((b.theoreticalEdgePercent ?? 0) / 100);
  }
  const houseResult = t.handle - t.paid + t.boxCommission;
  return {
    bets,
    total: {
      ...t,
      houseResult,
      holdPercent: t.handle === 0 ? null : (houseResult / t.handle) * 100,
      theoreticalEdgePercent: t.handle === 0 ? null : (edgeCents / t.handle) * 100,
    },
  };
}
