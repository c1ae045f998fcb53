import fc from 'fast-check';
import {
  ALL_SPOTS,
  type CoupFeatures,
  GAME_MODES,
  type GameMode,
  type Payout,
  type SideSpot,
  type Spot,
  coupFeatures,
} from './bets';
import { type Card, DECK } from './cards';
import { resolveCoup } from './coup';
import { fullShoeCounts } from './dealer';
import { type BetOdds, type ExactBetOdds, exactBetOdds, exactBetOddsForShoe, exactOdds } from './odds';
import { planSpot } from './odds-plans';
import { settleBet } from './settlement';
import { forEachOrderedSix } from '../test/ordered-sequences';

const fallingProduct = (n: number, k: number): bigint => {
  let p = 1n;
  for (let i = 0; i < k; i++) p *= BigInt(n - i);
  return p;
};
const countOf = (bet: BetOdds, result: 'win' | 'push' | 'lose'): bigint =>
  bet.results.filter((r) => r.payout.result === result).reduce((s, r) => s + r.count, 0n);
const bet = (odds: ExactBetOdds, spot: Spot): BetOdds => {
  const b = odds.bets[spot];
  if (!b) throw new Error(`no odds for ${spot}`);
  return b;
};
/** a/b === c/d for exact fractions. */
const sameRatio = (a: bigint, b: bigint, c: bigint, d: bigint): boolean => a * d === b * c;

describe('exactBetOdds: every bet of every mode, full shoes', () => {
  test.each(GAME_MODES.flatMap((game) => [1, 6, 8].map((decks) => [game, decks] as const)))(
    "given %s with %i deck(s), when computed, then each bet's counts sum to the total and its edge is -ev",
    (game, decks) => {
      const odds = exactBetOdds({ decks, game });
      expect(odds.total).toBe(fallingProduct(52 * decks, 6));
      expect(odds.cards).toBe(52 * decks);
      for (const spot of odds.spots) {
        const b = bet(odds, spot);
        expect(countOf(b, 'win') + countOf(b, 'push') + countOf(b, 'lose')).toBe(odds.total);
        expect(b.probabilities.win + b.probabilities.push + b.probabilities.lose).toBeCloseTo(1, 14);
        expect(b.houseEdge).toBe(-b.ev);
        const evFromResults = b.results.reduce((s, r) => s + r.net * r.probability, 0);
        expect(b.ev).toBeCloseTo(evFromResults, 14);
      }
    },
  );

  test('given no spots, when computed, then each mode has the main bets and the side bets it may offer', () => {
    const base = ['player', 'banker', 'tie', 'playerPair', 'bankerPair', 'eitherPair', 'perfectPair', 'big'];
    const common = [...base, 'small', 'playerDragon', 'bankerDragon'];
    expect(exactBetOdds({ decks: 8 }).spots).toEqual(common);
    expect(exactBetOdds({ decks: 8, game: 'ez' }).spots).toEqual([...common, 'dragon7', 'panda8']);
    expect(exactBetOdds({ decks: 8, game: 'no-commission' }).spots).toEqual([...common, 'super6']);
  });

  test.each([1, 2, 6, 8])(
    'given %i deck(s), the main bets of the commission game equal exactOdds to the last bit',
    (decks) => {
      for (const tiePays of [8, 9] as const) {
        const odds = exactBetOdds({ decks, tiePays });
        const legacy = exactOdds({ decks, tiePays });
        for (const spot of ['player', 'banker', 'tie'] as const) {
          expect(bet(odds, spot).houseEdge).toBe(legacy.houseEdge[spot]);
          expect(bet(odds, spot).probabilities.win).toBe(legacy.probabilities[spot]);
        }
        expect(countOf(bet(odds, 'tie'), 'win')).toBe(legacy.counts.tie);
        expect(bet(odds, 'playerPair').probabilities.win).toBe(legacy.pairs.player);
      }
    },
  );

  test('given the commission game, the banker edge counting ties and leaving them out (1.06% and 1.17%)', () => {
    const banker = bet(exactBetOdds({ decks: 8 }), 'banker');
    expect((banker.houseEdge * 100).toFixed(2)).toBe('1.06');
    expect(((banker.houseEdgeExcludingPushes ?? NaN) * 100).toFixed(2)).toBe('1.17');
    expect(banker.houseEdgeExcludingPushes).toBeCloseTo(
      banker.houseEdge / (1 - banker.probabilities.push),
      15,
    );
  });

  test('given a spot list, only those are computed, in display order, with the paytables in force', () => {
    const odds = exactBetOdds({
      decks: 8,
      game: 'no-commission',
      spots: ['super6', 'banker', 'perfectPair'],
      paytables: { super6: '15-to-1', perfectPair: '25-or-200-to-1' },
    });
    expect(odds.spots).toEqual(['banker', 'perfectPair', 'super6']);
    expect(odds.paytables).toEqual({ perfectPair: '25-or-200-to-1', super6: '15-to-1' });
    expect(bet(odds, 'super6').results.map((r) => r.net)).toEqual([15, -1]);
    expect(bet(odds, 'perfectPair').results.map((r) => r.net)).toEqual([200, 25, -1]);
    expect(bet(odds, 'banker').paytable).toBeNull();
    expect(Object.keys(odds.bets)).toHaveLength(3);
  });

  test.each([
    [{ game: 'commission', spots: ['dragon7'] }, /Dragon 7 is offered only on ez tables/],
    [{ game: 'ez', spots: ['super6'] }, /Super 6 is offered only on no-commission tables/],
    [{ spots: ['lucky'] }, /Unknown spot "lucky"/],
    [
      { paytables: { super6: '20-to-1' } },
      /Super 6 has no paytable "20-to-1": expected one of 12-to-1, 15-to-1/,
    ],
    [{ paytables: { jackpot: 'x' } }, /Unknown side bet "jackpot"/],
    [{ game: 'punto' }, /Unknown game mode "punto"/],
    [{ tiePays: 7 }, /tiePays must be 8 or 9/],
  ])('given rules %j, then INVALID_ARGUMENT naming the mistake', (rules, message) => {
    const call = (): unknown => exactBetOdds({ decks: 8, ...(rules as object) });
    expect(call).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(call).toThrow(message);
  });

  test('given 9 decks, then INVALID_DECKS', () => {
    expect(() => exactBetOdds({ decks: 9 })).toThrow(expect.objectContaining({ code: 'INVALID_DECKS' }));
  });
});

describe('exactBetOddsForShoe: a remaining shoe', () => {
  test('given a full shoe as a record or as 52 counts, then it equals exactBetOdds (bar the deck count)', () => {
    for (const game of GAME_MODES) {
      const full = exactBetOdds({ decks: 6, game });
      const fromRecord = exactBetOddsForShoe(fullShoeCounts(6), { game });
      const fromArray = exactBetOddsForShoe(
        DECK.map(() => 6),
        { game },
      );
      expect(fromRecord).toEqual({ ...full, decks: null });
      expect(fromArray).toEqual(fromRecord);
    }
  });

  test('given a shoe rich in 7s and short of 8s and 9s, when computed, then Dragon 7 turns player-favourable', () => {
    const shoe: Partial<Record<Card, number>> = {};
    for (const card of DECK) {
      const rank = card.charAt(0);
      shoe[card] = rank === '7' ? 8 : rank === '8' || rank === '9' ? 0 : 3;
    }
    const odds = exactBetOddsForShoe(shoe, { game: 'ez', spots: ['dragon7', 'banker'] });
    expect(bet(odds, 'dragon7').ev).toBeGreaterThan(0);
    expect(bet(odds, 'dragon7').houseEdge).toBeLessThan(0);
  });

  test('given a missing card in the record, it holds none; unknown cards and bad counts are refused', () => {
    const bad = expect.objectContaining({ code: 'INVALID_ARGUMENT' });
    expect(exactBetOddsForShoe({ Ah: 3, Kd: 3 }, { spots: ['tie'] }).cards).toBe(6);
    expect(() => exactBetOddsForShoe({ Ah: 3, Kd: 2 })).toThrow(bad); // 5 cards
    expect(() => exactBetOddsForShoe({ Zz: 8 } as never)).toThrow(bad);
    expect(() => exactBetOddsForShoe({ Ah: -1, Kd: 9 })).toThrow(bad);
    expect(() => exactBetOddsForShoe({ Ah: 1.5, Kd: 9 })).toThrow(bad);
    expect(() => exactBetOddsForShoe(DECK.slice(1).map(() => 8))).toThrow(bad);
    expect(() => exactBetOddsForShoe(DECK.map(() => 10))).toThrow(bad); // N(N-1)...(N-5) past 2^53
    expect(() => exactBetOddsForShoe(null as never)).toThrow(bad);
  });
});

/** 52 counts: each card 0 to `max`, at least 6 cards in all. */
const composition = (max: number): fc.Arbitrary<number[]> =>
  fc
    .array(fc.integer({ min: 0, max }), { minLength: 52, maxLength: 52 })
    .filter((counts) => counts.reduce((a, b) => a + b, 0) >= 6);
const modeArb = fc.constantFrom<GameMode>(...GAME_MODES);

describe('properties', () => {
  test("for any shoe and mode, each bet's exact counts sum to N(N-1)...(N-5) and ev is their weighted net", () => {
    fc.assert(
      fc.property(composition(8), modeArb, (counts, game) => {
        const odds = exactBetOddsForShoe(counts, { game });
        const n = counts.reduce((a, b) => a + b, 0);
        expect(odds.total).toBe(fallingProduct(n, 6));
        for (const spot of odds.spots) {
          const b = bet(odds, spot);
          expect(b.results.reduce((s, r) => s + r.count, 0n)).toBe(odds.total);
          const { numerator, denominator } = b.evExact;
          // ev * total = sum of count * net, each net an exact rational with denominator 1, 2 or 100
          const hundredths = b.results.reduce((s, r) => s + r.count * BigInt(Math.round(r.net * 100)), 0n);
          expect(sameRatio(numerator, denominator, hundredths, odds.total * 100n)).toBe(true);
        }
      }),
      { numRuns: 25 },
    );
  });

  test('for any shoe, the pair bets follow the closed form: a hand pairs with sum R(R-1) / N(N-1)', () => {
    fc.assert(
      fc.property(composition(8), (counts) => {
        const odds = exactBetOddsForShoe(counts, { spots: ['playerPair', 'bankerPair'] });
        const n = counts.reduce((a, b) => a + b, 0);
        const ranks = Array.from({ length: 13 }, (_, r) => counts.filter((_, i) => i % 13 === r));
        const sameRank = ranks.reduce((s, kinds) => {
          const r = kinds.reduce((a, b) => a + b, 0);
          return s + BigInt(r * (r - 1));
        }, 0n);
        const pairs = BigInt(n * (n - 1));
        for (const spot of ['playerPair', 'bankerPair'] as const) {
          const { numerator, denominator } = bet(odds, spot).evExact;
          // 11:1: ev = 12 p - 1
          expect(sameRatio(numerator, denominator, 12n * sameRank - pairs, pairs)).toBe(true);
        }
      }),
      { numRuns: 50 },
    );
  });

  test("removing cards of one rank changes the pair bet's ev exactly as the closed form says", () => {
    const full = bet(exactBetOdds({ decks: 8 }), 'playerPair').ev;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 20 }), (rank, removed) => {
        // 8 decks less `removed` cards of one rank (spread over the suits)
        const counts = DECK.map(() => 8);
        for (let k = 0; k < removed; k++) counts[rank + 13 * (k % 4)]! -= 1;
        const n = 416 - removed;
        const r = 32 - removed;
        const pairs = BigInt(n * (n - 1));
        const sameRank = BigInt(12 * 32 * 31 + r * (r - 1));
        const b = bet(exactBetOddsForShoe(counts, { spots: ['playerPair'] }), 'playerPair');
        expect(sameRatio(b.evExact.numerator, b.evExact.denominator, 12n * sameRank - pairs, pairs)).toBe(
          true,
        );
        // One card out leaves the chance of a pair as it was (31/415); more of one rank raise it (the ranks are
        // less even: the pair bet is countable).
        if (removed === 1) expect(b.ev).toBe(full);
        else expect(b.ev).toBeGreaterThan(full);
      }),
      { numRuns: 20 },
    );
  });
});

/** Every ordered sequence of six distinct physical cards of `cards`, grouped by its coup's features. */
function featuresByIdentity(cards: readonly Card[]): Map<string, { features: CoupFeatures; count: bigint }> {
  const groups = new Map<string, { features: CoupFeatures; count: bigint }>();
  forEachOrderedSix(cards, (sequence) => {
    const features = coupFeatures(resolveCoup(sequence));
    const key = JSON.stringify(features);
    const group = groups.get(key);
    if (group) group.count += 1n;
    else groups.set(key, { features, count: 1n });
  });
  return groups;
}

describe('against brute force by card identity (resolveCoup + settleBet)', () => {
  // A few kinds, repeated, so that pairs, perfect pairs, naturals and third cards all occur.
  const POOL: readonly Card[] = [
    'Ah',
    'Ah',
    'As',
    'Kh',
    'Kh',
    'Qd',
    '9c',
    '8d',
    '7s',
    '6h',
    '5c',
    '4d',
    '3s',
    '2c',
  ];
  const tinyShoe = fc.shuffledSubarray([...POOL], { minLength: 8, maxLength: 10 });
  const rulesArb = fc.record({
    game: modeArb,
    tiePays: fc.constantFrom<8 | 9>(8, 9),
    perfectPair: fc.constantFrom('25-to-1', '25-or-200-to-1'),
    super6: fc.constantFrom('12-to-1', '15-to-1'),
  });

  test("for any tiny shoe and rules, every bet's exact counts and ev equal the brute force", () => {
    fc.assert(
      fc.property(tinyShoe, rulesArb, (cards, { game, tiePays, perfectPair, super6 }) => {
        const paytables: Partial<Record<SideSpot, string>> = { perfectPair };
        if (game === 'no-commission') paytables.super6 = super6;
        const odds = exactBetOddsForShoe(
          Object.fromEntries(DECK.map((c) => [c, cards.filter((x) => x === c).length])),
          { game, tiePays, paytables },
        );
        const groups = [...featuresByIdentity(cards).values()];
        const rules = { game, tiePays, commission: 'deducted' as const, paytables };
        for (const spot of odds.spots) {
          const tally = { win: 0n, push: 0n, lose: 0n };
          let netCents = 0n; // stake 100 cents: every paytable's winnings are whole cents
          for (const { features, count } of groups) {
            const s = settleBet(spot, 100, features, rules);
            tally[s.result] += count;
            netCents += count * BigInt(s.paid - 100);
          }
          const b = bet(odds, spot);
          expect({
            spot,
            win: countOf(b, 'win'),
            push: countOf(b, 'push'),
            lose: countOf(b, 'lose'),
          }).toEqual({
            spot,
            ...tally,
          });
          expect(sameRatio(b.evExact.numerator, b.evExact.denominator, netCents, odds.total * 100n)).toBe(
            true,
          );
        }
      }),
      { numRuns: 6 },
    );
  });
});

describe('the separability check', () => {
  test('given a payout depending on both card values and pairs, then planSpot refuses it', () => {
    const joint = (spot: Spot, f: CoupFeatures): Payout =>
      f.playerPair && f.outcome === 'player'
        ? { result: 'win', num: 20, den: 1, commission: false }
        : { result: 'lose' };
    expect(() => planSpot('playerPair', { tiePays: 8, commission: 'deducted' }, joint)).toThrow(
      /depends on both the card values and the pairs/,
    );
  });

  test('given the catalogue, every spot of every mode and paytable is decided by values or by pairs', () => {
    for (const game of GAME_MODES) {
      for (const spot of ALL_SPOTS) {
        const plan = planSpot(spot, {
          game,
          tiePays: 8,
          commission: 'deducted',
          paytables: { perfectPair: '25-or-200-to-1' },
        });
        expect(plan.source).toBe(/Pair$/.test(spot) ? 'pairs' : 'values');
      }
    }
  });
});
