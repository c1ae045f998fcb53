/**
 * The best case of a player's stakes: the most they can pay back on any coup (every stake returned with the best
 * payout its spot can pay, by the engine's payouts and paytables) and the most box commission they can add. It
 * keeps every balance exact: a command that puts more at stake (PlaceBet, Rebet) or adds chips (BuyIn) is refused
 * when the chips after it plus the best case of the player's stakes still to settle would pass
 * {@link MAX_CENTS}, and likewise the commission owed. A settlement, or a correction's new settlement of the same
 * stakes, never pays more than that best case, so chips and commission owed stay safe integers (exact cents)
 * whatever the coup.
 */
import {
  type CoupFeatures,
  type Payout,
  type PayoutRules,
  type Spot,
  payoutOf,
  settleBet,
} from '@coup/engine';
import { type TableState, betsOf, playerOf } from './state';
import {
  type SideSpot,
  type SpotAmounts,
  type TableRules,
  addStake,
  amountOn,
  payoutRulesOf,
  stakedSpots,
} from './vocabulary';

/** The most cents a balance may hold: past it a JS number no longer counts every cent exactly. */
export const MAX_CENTS = Number.MAX_SAFE_INTEGER;

/** What stakes can add at most on one coup: to the chips (stakes included), and to the box commission owed. */
export interface BestCase {
  readonly paid: number;
  readonly commission: number;
}

let allFeatures: readonly CoupFeatures[] | null = null;

/**
 * Every combination of the facts a payout reads: the totals (and so the outcome), the cards in each hand, the
 * pairs in each (none, of a rank, perfect); a hand is a natural when its two cards total 8 or 9. It holds more than
 * the coups that can happen, so the best payout found is never below that of a real coup.
 */
function everyFeatures(): readonly CoupFeatures[] {
  if (allFeatures !== null) return allFeatures;
  const out: CoupFeatures[] = [];
  const pairs = [
    { pair: false, perfect: false },
    { pair: true, perfect: false },
    { pair: true, perfect: true },
  ];
  for (let playerTotal = 0; playerTotal <= 9; playerTotal++)
    for (let bankerTotal = 0; bankerTotal <= 9; bankerTotal++) {
      const outcome = playerTotal > bankerTotal ? 'player' : playerTotal < bankerTotal ? 'banker' : 'tie';
      for (const playerCards of [2, 3])
        for (const bankerCards of [2, 3])
          for (const p of pairs)
            for (const b of pairs)
              out.push({
                outcome,
                playerTotal,
                bankerTotal,
                playerCards,
                bankerCards,
                playerNatural: playerCards === 2 && playerTotal >= 8,
                bankerNatural: bankerCards === 2 && bankerTotal >= 8,
                playerPair: p.pair,
                bankerPair: b.pair,
                playerPerfectPair: p.perfect,
                bankerPerfectPair: b.perfect,
              });
    }
  allFeatures = Object.freeze(out);
  return allFeatures;
}

type Case = { readonly payout: Payout; readonly features: CoupFeatures };

/** Whether win `a` pays more per unit than win `b` (their odds compared as fractions). */
function higher(a: Payout, b: Payout): boolean {
  return a.result === 'win' && b.result === 'win' && a.num * b.den > b.num * a.den;
}

/**
 * The case that pays a stake most among `cases` of one kind: the win at the highest odds (winnings round down to
 * the cent, never below those of lower odds), else a push, else a loss.
 */
function bestOf(cases: readonly Case[]): Case | undefined {
  let best: Case | undefined;
  for (const c of cases) {
    const r = c.payout.result;
    const b = best?.payout.result;
    if (
      best === undefined ||
      (r === 'win' && (b !== 'win' || higher(c.payout, best.payout))) ||
      (r === 'push' && b === 'lose')
    )
      best = c;
  }
  return best;
}

/** Memo of {@link payoutCases} by spot and payout rules (a handful of keys: pure, it only saves time). */
const cases = new Map<string, readonly CoupFeatures[]>();

/**
 * A coup's features for each payout of `spot` under these rules that may pay a stake most: the best win with
 * commission and the best without (which pays more can depend on the stake), or the best of a push and a loss.
 */
function payoutCases(spot: Spot, rules: PayoutRules): readonly CoupFeatures[] {
  const paytable = rules.paytables?.[spot as SideSpot] ?? '';
  const key = `${spot}|${rules.game ?? 'commission'}|${rules.tiePays}|${rules.commission}|${paytable}`;
  const known = cases.get(key);
  if (known !== undefined) return known;
  const all = everyFeatures().map((features): Case => ({
    payout: payoutOf(spot, features, rules),
    features,
  }));
  const commission = (c: Case) => c.payout.result === 'win' && c.payout.commission;
  const found = [bestOf(all.filter(commission)), bestOf(all.filter((c) => !commission(c)))]
    .filter((c): c is Case => c !== undefined)
    .map((c) => c.features);
  cases.set(key, Object.freeze(found));
  return found;
}

/**
 * The best case of `bets` at a table with these rules: each stake settled (by the engine's `settleBet`) on the
 * coup that pays it most, summed; the commission counts on box-commission tables only (elsewhere it is deducted
 * from what is paid). Each stake is within the table's limits (at most `MAX_LIMIT`), so the sums are exact.
 */
export function bestCaseOf(bets: SpotAmounts, rules: TableRules): BestCase {
  const payout = payoutRulesOf(rules);
  let paid = 0;
  let commission = 0;
  for (const spot of stakedSpots(bets)) {
    const amount = amountOn(bets, spot);
    let spotPaid = 0;
    let spotCommission = 0;
    for (const f of payoutCases(spot, payout)) {
      const s = settleBet(spot, amount, f, payout);
      spotPaid = Math.max(spotPaid, s.paid);
      spotCommission = Math.max(spotCommission, s.commission);
    }
    paid += spotPaid;
    commission += spotCommission;
  }
  return { paid, commission: rules.commission === 'box' ? commission : 0 };
}

/**
 * What the player's stakes still to settle could add to its chips at most: those on the layout of the open round
 * (their best case); or, once the round's coup settled (until the next round opens), what a correction settling
 * them again could pay beyond what they were paid (nothing for a player who cashed out since: it keeps the coup as
 * it was settled). A void pays back less: the stakes alone.
 */
export function pendingPaid(state: TableState, rules: TableRules, playerId: string): number {
  const round = state.round;
  if (round === null) return 0;
  if (round.status === 'betting' || round.status === 'dealing')
    return bestCaseOf(betsOf(state, playerId), rules).paid;
  if (round.status !== 'resolved' || round.result === null) return 0;
  if ((round.cashedOut ?? []).includes(playerId) || playerOf(state, playerId) === undefined) return 0;
  let stakes: SpotAmounts = { player: 0, banker: 0, tie: 0 };
  let paid = 0;
  for (const s of round.result.settlements) {
    if (s.playerId !== playerId) continue;
    stakes = addStake(stakes, s.spot, s.amount);
    paid += s.paid;
  }
  return Math.max(0, bestCaseOf(stakes, rules).paid - paid);
}
