/**
 * How each spot's exact counts are summed (odds-bets.ts): its payout, by `payoutOf`, for each feature bucket
 * (odds-buckets.ts) or each pair combination (odds-pairs.ts), grouped into payout classes.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion -- arrays indexed within their lengths. */
import {
  type CoupFeatures,
  type Payout,
  type PayoutRules,
  type Spot,
  defaultPaytable,
  isSideSpot,
  payoutOf,
} from './bets';
import { EngineError } from './errors';
import { BUCKETS, bucketFeatures } from './odds-buckets';
import { pairFlags } from './odds-pairs';

/** The payout function the plans are built from (a parameter so the separability check can be tested). */
export type PayoutFunction = (spot: Spot, features: CoupFeatures, rules: PayoutRules) => Payout;

/** How a spot's counts are summed: over the value buckets or the pair combinations, by payout class. */
export interface SpotPlan {
  readonly source: 'values' | 'pairs';
  /** The class of each bucket (700) or pair combination (9). */
  readonly classOf: Uint8Array;
  /** Each class's payout. */
  readonly payouts: readonly Payout[];
}

let bucketFeatureList: readonly CoupFeatures[] | undefined;
function featuresOfBuckets(): readonly CoupFeatures[] {
  bucketFeatureList ??= Object.freeze(
    Array.from({ length: BUCKETS }, (_, i) => Object.freeze(bucketFeatures(i))),
  );
  return bucketFeatureList;
}

function payoutKey(p: Payout): string {
  return p.result === 'win' ? `win ${p.num}/${p.den}${p.commission ? ' less commission' : ''}` : p.result;
}

/** Groups payouts into classes: the class of each, and each class's payout. */
function classify(payouts: readonly Payout[]): { classOf: Uint8Array; payouts: Payout[] } {
  const keys = new Map<string, number>();
  const classes: Payout[] = [];
  const classOf = new Uint8Array(payouts.length);
  payouts.forEach((p, i) => {
    const key = payoutKey(p);
    let c = keys.get(key);
    if (c === undefined) {
      c = classes.length;
      keys.set(key, c);
      classes.push(p);
    }
    classOf[i] = c;
  });
  return { classOf, payouts: classes };
}

/**
 * How to sum a spot's counts under these rules. A spot's payout must depend on the value features only or on
 * the pair flags only: checked over every bucket and pair combination.
 * @throws EngineError `INVALID_ARGUMENT` if the payout depends on both (the enumeration would need both at once).
 */
export function planSpot(spot: Spot, rules: PayoutRules, pay: PayoutFunction = payoutOf): SpotPlan {
  const buckets = featuresOfBuckets();
  const byValues = buckets.map((f) => pay(spot, f, rules));
  const byPairs = Array.from({ length: 9 }, (_, c) => pay(spot, { ...buckets[0]!, ...pairFlags(c) }, rules));
  const valueKeys = byValues.map(payoutKey);
  const pairKeys = byPairs.map(payoutKey);
  const values = new Set(valueKeys).size > 1;
  const flags = Array.from({ length: 9 }, (_, c) => pairFlags(c));
  for (let b = 0; b < BUCKETS; b++) {
    const features = { ...buckets[b]! }; // one object per bucket, its pair flags set in turn
    for (let c = 0; c < 9; c++) {
      const got = payoutKey(pay(spot, Object.assign(features, flags[c]), rules));
      if (got !== (values ? valueKeys[b] : pairKeys[c])) {
        throw new EngineError(
          'INVALID_ARGUMENT',
          `The payout of ${spot} depends on both the card values and the pairs: its exact odds need a joint enumeration`,
          { spot },
        );
      }
    }
  }
  return { source: values ? 'values' : 'pairs', ...classify(values ? byValues : byPairs) };
}

const plans = new Map<string, SpotPlan>();

/** {@link planSpot} for the catalogue's payouts, memoized per spot, mode, tie payout and paytable. */
export function cachedPlan(spot: Spot, rules: PayoutRules): SpotPlan {
  const paytable = isSideSpot(spot) ? (rules.paytables?.[spot] ?? defaultPaytable(spot)) : '';
  const key = `${spot}|${rules.game}|${rules.tiePays}|${paytable}`;
  let plan = plans.get(key);
  if (!plan) {
    plan = planSpot(spot, rules);
    plans.set(key, plan);
  }
  return plan;
}
