/**
 * Bet types as the analysts' tables name them, with the house edge and variance of each from the engine's exact
 * odds (`exactBetOdds`: full enumeration with card removal, for a full shoe of the table's decks). A bet type is
 * what decides the bet's odds: its spot and what it pays at the table (the banker bet by game mode, the tie by
 * what it pays, a side bet by its paytable); its figures also depend on the decks.
 */
import { type BetOdds, type PayoutRules, type Spot, exactBetOdds, isSideSpot } from '@coup/engine';

/** One bet type's exact figures, per unit staked on one coup. */
export interface BetTypeFigures {
  /** e.g. `player`, `banker:commission`, `tie:8-to-1`, `perfectPair:25-or-200-to-1`. */
  readonly betType: string;
  readonly spot: Spot;
  /** A side bet's paytable; null on the main spots. */
  readonly paytable: string | null;
  readonly label: string;
  /** The house edge (pushes counted as coups that returned the stake): theoretical win = stake x edge. */
  readonly edge: number;
  /** The variance of the player's net result per unit staked: the variance of a bet of s is s^2 x this. */
  readonly variance: number;
  readonly probabilities: { readonly win: number; readonly push: number; readonly lose: number };
}

/** The bet type of a spot at a table with these payout rules. */
export function betTypeOf(spot: Spot, rules: PayoutRules): string {
  if (spot === 'banker') return `banker:${rules.game ?? 'commission'}`;
  if (spot === 'tie') return `tie:${rules.tiePays}-to-1`;
  if (isSideSpot(spot)) return `${spot}:${rules.paytables?.[spot] ?? 'default'}`;
  return spot;
}

/** E[X^2] - E[X]^2 over the exact payouts: the engine's probability of each net result. */
function varianceOf(odds: BetOdds): number {
  const second = odds.results.reduce((v, r) => v + r.probability * r.net * r.net, 0);
  return Math.max(second - odds.ev * odds.ev, 0);
}

const memo = new Map<string, ReadonlyMap<Spot, BetTypeFigures>>();

/**
 * The figures of each spot offered (`spots`) at a table of `decks` decks and these payout rules. Computed once
 * per combination (an exact enumeration takes about a tenth of a second) and kept.
 */
export function betTypeFigures(
  decks: number,
  rules: PayoutRules,
  spots: readonly Spot[],
): ReadonlyMap<Spot, BetTypeFigures> {
  const key = JSON.stringify([
    decks,
    rules.game ?? 'commission',
    rules.tiePays,
    rules.paytables ?? {},
    spots,
  ]);
  const known = memo.get(key);
  if (known !== undefined) return known;
  const odds = exactBetOdds({
    decks,
    game: rules.game ?? 'commission',
    tiePays: rules.tiePays,
    paytables: rules.paytables ?? {},
    spots,
  });
  const out = new Map<Spot, BetTypeFigures>();
  for (const spot of odds.spots) {
    const o = odds.bets[spot] as BetOdds;
    out.set(spot, {
      betType: betTypeOf(spot, rules),
      spot,
      paytable: o.paytable,
      label: o.label,
      edge: o.houseEdge,
      variance: varianceOf(o),
      probabilities: o.probabilities,
    });
  }
  memo.set(key, out);
  return out;
}
