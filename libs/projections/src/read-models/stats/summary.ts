/**
 * Summaries of the main bets (pure; the query side sums rows and calls these): outcome frequencies beside the
 * exact odds of the tables' decks (`exactOdds` of @coup/engine), a chi-square test of the difference, naturals,
 * handle per spot, amount paid, commission, house result and hold beside the theoretical edge.
 */
import { type ExactOdds, type GameMode, exactBetOdds, exactOdds } from '@coup/engine';
import { STATS_COUNTERS, type StatsCounter } from './schema';

/** A stats row's counters with the table's rules that the expectations depend on. */
export type StatsCounters = Readonly<Record<StatsCounter, number>> & {
  readonly decks: number;
  readonly tie_pays: number;
  /** The game mode (the banker bet's edge depends on it); commission when absent. */
  readonly game?: GameMode;
};

export interface ChiSquare {
  /** Σ (observed - expected)² / expected over player, banker, tie. */
  readonly statistic: number;
  readonly degreesOfFreedom: 2;
  /** P(X² >= statistic) for 2 degrees of freedom: exp(-statistic / 2) (exact for df = 2). */
  readonly pValue: number;
}

/** What some stakes paid and kept: the house result and hold beside the theoretical edge. */
export interface Hold {
  /** Paid back, stakes included (commission deducted on deducted tables). */
  readonly paid: number;
  readonly commission: number;
  readonly boxCommission: number;
  /** handle - paid + box commission owed. */
  readonly houseResult: number;
  /** houseResult / handle x 100, or null with no handle. */
  readonly holdPercent: number | null;
  /** The exact house edge of the stakes, weighted by handle, %; null with no handle. */
  readonly theoreticalEdgePercent: number | null;
}

export interface StatsSummary extends Hold {
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
  /** The main bets' stakes (side bets: the statistics per bet type). */
  readonly handle: {
    readonly player: number;
    readonly banker: number;
    readonly tie: number;
    readonly total: number;
  };
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

const bankerEdgeCache = new Map<string, number>();

/**
 * The banker bet's house edge: the commission game's from `exactOdds` (as before game modes), the others' from
 * `exactBetOdds` of their mode (a no-commission banker 6 half paid, an EZ three-card 7 pushed).
 */
function bankerEdge(decks: number, tiePays: number, game: GameMode): number {
  if (game === 'commission') return oddsFor(decks, tiePays).houseEdge.banker;
  const key = `${decks}:${game}`;
  let edge = bankerEdgeCache.get(key);
  if (edge === undefined) {
    edge = exactBetOdds({ decks, game, spots: ['banker'] }).bets.banker?.houseEdge ?? 0;
    bankerEdgeCache.set(key, edge);
  }
  return edge;
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
      r.handle_banker * bankerEdge(r.decks, r.tie_pays, r.game ?? 'commission') +
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
