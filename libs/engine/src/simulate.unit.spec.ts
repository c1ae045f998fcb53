import fc from 'fast-check';
import { rankIndex, rankOf, type Card } from './cards';
import { resolveCoup, type Outcome } from './coup';
import { exactOdds } from './odds';
import { advanceShoe, startShoeProgress, startShoeProgressAt } from './shoe';
import { shuffleShoe } from './shuffle';
import {
  TALLY,
  newTally,
  orderedRanks,
  playShoe,
  prngNext,
  prngState,
  shuffleInPlace,
  simulate,
  simulationZScores,
} from './simulate';

interface Played {
  start: number;
  used: number;
  outcome: Outcome;
  natural: boolean;
}

/** The reference path: ShoeProgress and resolveCoup, one coup at a time, on the same shoe order. */
function referencePlay(shoe: readonly Card[], cutCard: number, burn: boolean) {
  let progress = burn
    ? startShoeProgress(shoe.length, shoe[0]!, cutCard)
    : startShoeProgressAt(shoe.length, 0, cutCard);
  const coups: Played[] = [];
  const pairs = { player: 0, banker: 0 };
  while (!progress.ended) {
    const r = resolveCoup(shoe.slice(progress.position, progress.position + 6));
    coups.push({ start: progress.position, used: r.cardsUsed, outcome: r.outcome, natural: r.natural });
    if (rankOf(r.playerCards[0]!) === rankOf(r.playerCards[1]!)) pairs.player++;
    if (rankOf(r.bankerCards[0]!) === rankOf(r.bankerCards[1]!)) pairs.banker++;
    progress = advanceShoe(progress, r.cardsUsed);
  }
  return { coups, pairs };
}

function fastPlay(shoe: readonly Card[], cutCard: number, burn: boolean) {
  const coups: Played[] = [];
  const tally = newTally();
  const n = playShoe(
    Uint8Array.from(shoe, rankIndex),
    { cutCard, burn },
    tally,
    (start, used, outcome, natural) => coups.push({ start, used, outcome, natural }),
  );
  return { coups, tally, n };
}

describe('the fast path and the reference path agree on the same shoe order', () => {
  test.each([
    [8, 16, true],
    [8, 16, false],
    [6, 14, true],
    [1, 12, true],
    [8, 60, true],
  ])('%i decks, cut card %i, burn %p, over several seeded shoes', (decks, cutCard, burn) => {
    for (let k = 0; k < 8; k++) {
      const seed = new Uint8Array(32).fill(k + 7 * decks + cutCard);
      const shoe = shuffleShoe(decks, seed);
      const ref = referencePlay(shoe, cutCard, burn);
      const fast = fastPlay(shoe, cutCard, burn);
      expect(fast.coups).toEqual(ref.coups);
      expect(fast.n).toBe(ref.coups.length);
      const count = (o: Outcome) => ref.coups.filter((c) => c.outcome === o).length;
      expect(Array.from(fast.tally)).toEqual([
        ref.coups.length,
        count('player'),
        count('banker'),
        count('tie'),
        ref.coups.filter((c) => c.natural).length,
        ref.pairs.player,
        ref.pairs.banker,
      ]);
    }
  });

  test('property: on random shoe orders too', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 12, max: 40 }),
        (seed, cut) => {
          const shoe = shuffleShoe(8, seed);
          expect(fastPlay(shoe, cut, true).coups).toEqual(referencePlay(shoe, cut, true).coups);
        },
      ),
      { numRuns: 40 },
    );
  });

  test('without the burn the first coup starts at the first card', () => {
    const shoe = shuffleShoe(8, new Uint8Array(32));
    expect(fastPlay(shoe, 16, false).coups[0]!.start).toBe(0);
    expect(fastPlay(shoe, 16, true).coups[0]!.start).toBe(7); // the turned card is a 6d: 1 + 6
  });
});

describe('the simulator PRNG and shuffle', () => {
  test('xoshiro128** gives the reference outputs for the state 1, 2, 3, 4', () => {
    const s = Uint32Array.from([1, 2, 3, 4]);
    expect(Array.from({ length: 8 }, () => prngNext(s))).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849,
    ]);
  });

  test('the shuffle draws from the same generator (its state ends where prngNext would be)', () => {
    const a = prngState('x');
    const b = Uint32Array.from(a);
    shuffleInPlace(orderedRanks(8), a);
    let steps = 0;
    while (steps < 1000 && Array.from(a).join() !== Array.from(b).join()) {
      prngNext(b);
      steps++;
    }
    // 415 draws, two per word, plus a few rejected words.
    expect(steps).toBeGreaterThanOrEqual(208);
    expect(steps).toBeLessThan(230);
  });

  test('property: a permutation, deterministic per state', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.integer({ min: 1, max: 8 }), (seed, decks) => {
        const a = orderedRanks(decks);
        const b = orderedRanks(decks);
        shuffleInPlace(a, prngState(seed));
        shuffleInPlace(b, prngState(seed));
        expect(a).toEqual(b);
        expect(Array.from(a).sort((x, y) => x - y)).toEqual(
          Array.from(orderedRanks(decks)).sort((x, y) => x - y),
        );
      }),
      { numRuns: 50 },
    );
  });

  test('every order of three items is equally likely (chi-square over 60,000 shuffles)', () => {
    const state = prngState('three');
    const counts = new Map<string, number>();
    for (let k = 0; k < 60_000; k++) {
      const items = Uint8Array.from([0, 1, 2]);
      shuffleInPlace(items, state);
      const key = items.join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    const chi2 = [...counts.values()].reduce((s, c) => s + (c - 10_000) ** 2 / 10_000, 0);
    expect(chi2).toBeLessThan(20.5); // 5 degrees of freedom: p = 0.001
  });

  test('each card is equally likely at the first position of a shoe (chi-square over 26,000 shoes)', () => {
    const state = prngState('first');
    const ids = Uint8Array.from({ length: 52 }, (_, i) => i);
    const counts = new Array<number>(52).fill(0);
    for (let k = 0; k < 26_000; k++) {
      shuffleInPlace(ids, state);
      counts[ids[0]!]!++;
    }
    const chi2 = counts.reduce((s, c) => s + (c - 500) ** 2 / 500, 0);
    expect(chi2).toBeLessThan(87); // 51 degrees of freedom: p = 0.0015
  });
});

describe('simulate', () => {
  test('reproducible from its seed, different for another seed', () => {
    const a = simulate({ decks: 8, shoes: 50, seed: 'same' });
    expect(simulate({ decks: 8, shoes: 50, seed: 'same' })).toEqual(a);
    expect(simulate({ decks: 8, shoes: 50, seed: 'other' })).not.toEqual(a);
    expect(simulate({ decks: 8, shoes: 50, seed: 7 })).toEqual(simulate({ decks: 8, shoes: 50, seed: '7' }));
  });

  test('counts are consistent', () => {
    const r = simulate({ decks: 6, shoes: 300, seed: 1, cutCard: 20 });
    expect(r.decks).toBe(6);
    expect(r.shoes).toBe(300);
    expect(r.outcomes.player + r.outcomes.banker + r.outcomes.tie).toBe(r.coups);
    expect(r.handsPerShoe.mean).toBe(r.coups / 300);
    expect(r.handsPerShoe.min).toBeLessThanOrEqual(r.handsPerShoe.mean);
    expect(r.handsPerShoe.max).toBeGreaterThanOrEqual(r.handsPerShoe.mean);
    // 312 cards, at most 11 burned, the cut card 20 from the end: between 281 / 6 and 301 / 4 coups.
    expect(r.handsPerShoe.min).toBeGreaterThanOrEqual(46);
    expect(r.handsPerShoe.max).toBeLessThanOrEqual(76);
    expect(r.naturals).toBeLessThan(r.coups);
  });

  test('progress is reported in order, ending with every shoe done', () => {
    const calls: [number, number][] = [];
    simulate({ decks: 1, shoes: 250, seed: 's', onProgress: (done, total) => calls.push([done, total]) });
    expect(calls.at(-1)).toEqual([250, 250]);
    expect(calls.length).toBeGreaterThanOrEqual(100);
    for (let i = 1; i < calls.length; i++) expect(calls[i]![0]).toBeGreaterThan(calls[i - 1]![0]);
  });

  test('agrees with the exact odds within 4 standard errors (about 1,000,000 coups)', () => {
    const r = simulate({ decks: 8, shoes: 12_500, seed: 'statistics' });
    expect(r.coups).toBeGreaterThan(1_000_000);
    const z = simulationZScores(r, exactOdds({ decks: 8 }));
    for (const [name, value] of Object.entries(z)) {
      expect([name, Math.abs(value) < 4]).toEqual([name, true]);
    }
  });

  test('z-scores are (count - n p) / sqrt(n p (1 - p))', () => {
    const odds = exactOdds({ decks: 8 });
    const n = 1_000_000;
    const fake = {
      decks: 8,
      shoes: 1,
      coups: n,
      outcomes: { player: 446_247, banker: 458_597 + 1000, tie: 95_156 - 1000 },
      naturals: 343_049,
      pairs: { player: 74_699, banker: 74_699 },
      handsPerShoe: { min: 1, max: 1, mean: 1 },
    };
    const z = simulationZScores(fake, odds);
    const p = odds.probabilities.banker;
    expect(z.banker).toBeCloseTo((fake.outcomes.banker - n * p) / Math.sqrt(n * p * (1 - p)), 12);
    expect(z.banker).toBeGreaterThan(1.9);
    expect(Math.abs(z.player)).toBeLessThan(0.01);
  });

  test.each([
    [{ decks: 0, shoes: 1, seed: 1 }, 'INVALID_DECKS'],
    [{ decks: 8, shoes: 0, seed: 1 }, 'INVALID_ARGUMENT'],
    [{ decks: 8, shoes: 1.5, seed: 1 }, 'INVALID_ARGUMENT'],
    [{ decks: 8, shoes: 1, seed: '' }, 'INVALID_SEED'],
    [{ decks: 8, shoes: 1, seed: NaN }, 'INVALID_SEED'],
    [{ decks: 8, shoes: 1, seed: 1, cutCard: 5 }, 'INVALID_ARGUMENT'],
    [{ decks: 8, shoes: 1, seed: 1, burn: 'yes' as unknown as boolean }, 'INVALID_ARGUMENT'],
  ])('%p is refused with %s', (options, code) => {
    expect(() => simulate(options)).toThrow(expect.objectContaining({ code }));
  });

  test('the tally slots are stable', () => {
    expect(TALLY).toEqual({
      coups: 0,
      player: 1,
      banker: 2,
      tie: 3,
      naturals: 4,
      playerPairs: 5,
      bankerPairs: 6,
    });
  });
});
