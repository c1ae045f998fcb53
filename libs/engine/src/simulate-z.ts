/**
 * How far a simulation is from the exact odds, in standard errors: the outcomes, naturals and pairs of
 * {@link simulate}, and each bet it staked.
 */
import type { Spot } from './bets';
import type { ExactOdds } from './odds';
import type { SimulationResult } from './simulate';
import type { BetTally } from './simulate-bets';

/** How far each simulated frequency is from the exact probability, in standard errors. */
export interface SimulationZScores {
  readonly player: number;
  readonly banker: number;
  readonly tie: number;
  readonly natural: number;
  readonly playerPair: number;
  readonly bankerPair: number;
}

/**
 * z-scores of a simulation against the exact odds: `(count - n p) / sqrt(n p (1 - p))` for each outcome, the
 * natural and each pair, with n the number of coups.
 */
export function simulationZScores(result: SimulationResult, odds: ExactOdds): SimulationZScores {
  const n = result.coups;
  const z = (count: number, p: number): number => (count - n * p) / Math.sqrt(n * p * (1 - p));
  return {
    player: z(result.outcomes.player, odds.probabilities.player),
    banker: z(result.outcomes.banker, odds.probabilities.banker),
    tie: z(result.outcomes.tie, odds.probabilities.tie),
    natural: z(result.naturals, odds.natural),
    playerPair: z(result.pairs.player, odds.pairs.player),
    bankerPair: z(result.pairs.banker, odds.pairs.banker),
  };
}

/**
 * What {@link betZScores} needs of a bet's exact odds (a bet of `exactBetOdds`): the probability of each
 * result, the expected value per unit staked, and every payout's net gain per unit staked with its probability.
 */
export interface ExactBetFigures {
  readonly probabilities: { readonly win: number; readonly push: number; readonly lose: number };
  readonly ev: number;
  readonly results: readonly { readonly net: number; readonly probability: number }[];
}

/** How far a bet's simulated results are from its exact odds, in standard errors. */
export interface BetZScores {
  readonly spot: Spot;
  readonly win: number;
  readonly push: number;
  readonly lose: number;
  /** Each exact payout (its net gain per unit staked) and each payout seen that the exact odds do not have. */
  readonly payouts: readonly { readonly net: number; readonly z: number }[];
  /** The mean net result per coup (in stakes) against the exact expected value. */
  readonly return: number;
}

/** `(x - mean) / sd`, or 0 when both are exactly equal and sd is 0 (a result that cannot vary), else infinite. */
function score(x: number, mean: number, sd: number): number {
  if (sd > 0) return (x - mean) / sd;
  return x === mean ? 0 : (x - mean) * Infinity;
}

/** The coups with each exact payout, and the payouts seen that have none (their nets in stakes). */
function payoutScores(t: BetTally, o: ExactBetFigures, n: number): { net: number; z: number }[] {
  const stake = t.staked / n;
  const same = (a: number, b: number) => Math.abs(a - b) < 1e-9;
  const scores = o.results.map((r) => {
    const coups = t.payouts.filter((p) => same(p.net / stake, r.net)).reduce((c, p) => c + p.coups, 0);
    return {
      net: r.net,
      z: score(coups, n * r.probability, Math.sqrt(n * r.probability * (1 - r.probability))),
    };
  });
  for (const p of t.payouts) {
    if (!o.results.some((r) => same(p.net / stake, r.net))) scores.push({ net: p.net / stake, z: Infinity });
  }
  return scores;
}

/**
 * z-scores of each simulated bet against its exact odds, over the n coups it was staked on: for each result
 * and each payout `(count - n p) / sqrt(n p (1 - p))` (a payout the exact odds do not have is infinitely far);
 * for the return, the net result against `n ev` stakes over `sqrt(n var)`, the variance of one coup's net from
 * the exact payouts. A bet missing from `odds` is left out. Payouts and return compare exactly only when no
 * winnings were rounded down (stakes a multiple of 100 cents).
 */
export function betZScores(
  tallies: readonly BetTally[],
  odds: Readonly<Partial<Record<Spot, ExactBetFigures>>>,
): BetZScores[] {
  const scores: BetZScores[] = [];
  for (const t of tallies) {
    const o = odds[t.spot];
    if (o === undefined) continue;
    const n = t.results.win + t.results.push + t.results.lose;
    const z = (count: number, p: number): number => score(count, n * p, Math.sqrt(n * p * (1 - p)));
    const variance = o.results.reduce((v, r) => v + r.probability * r.net * r.net, 0) - o.ev * o.ev;
    scores.push({
      spot: t.spot,
      win: z(t.results.win, o.probabilities.win),
      push: z(t.results.push, o.probabilities.push),
      lose: z(t.results.lose, o.probabilities.lose),
      payouts: payoutScores(t, o, n),
      return: score(t.net / (t.staked / n), n * o.ev, Math.sqrt(n * Math.max(variance, 0))),
    });
  }
  return scores;
}
