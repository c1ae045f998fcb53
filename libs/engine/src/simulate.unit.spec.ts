import fc from 'fast-check';
import {
  GAME_MODES,
  type GameMode,
  MAIN_SPOTS,
  SIDE_BETS,
  SIDE_SPOTS,
  type SideSpot,
  defaultPaytable,
  isSideSpot,
  sideBetRefusal,
} from './bets';
import { DECK, rankIndex, rankOf, type Card } from './cards';
import { resolveCoup, type Outcome } from './coup';
import { settleBet } from './settlement';
import { exactOdds } from './odds';
import { exactBetOdds } from './odds-bets';
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
} from './simulate';
import { type BetPayoutCount, type BetTally, type SimulatedBets, orderedCardIds } from './simulate-bets';
import { betZScores, simulationZScores } from './simulate-z';

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

/** The shoes `simulate` plays from a seed, as cards: the card indices of the decks shuffled shoe after shoe. */
function shoesOf(decks: number, shoes: number, seed: string): Card[][] {
  const state = prngState(seed);
  const ids = orderedCardIds(decks);
  return Array.from({ length: shoes }, () => {
    shuffleInPlace(ids, state);
    return Array.from(ids, (i) => DECK[i]!);
  });
}

/** The tallies by the reference path: each coup of each shoe resolved by resolveCoup and settled by settleBet. */
function referenceTallies(
  shoes: Card[][],
  play: { cutCard: number; burn: boolean },
  bets: Required<Pick<SimulatedBets, 'game' | 'tiePays' | 'commission' | 'sideBets' | 'stake'>> &
    SimulatedBets,
): BetTally[] {
  const rules = {
    game: bets.game,
    tiePays: bets.tiePays,
    commission: bets.commission,
    paytables: bets.paytables,
  };
  const spots = [...MAIN_SPOTS, ...SIDE_SPOTS.filter((s) => bets.sideBets.includes(s))];
  const tallies = spots.map((spot) => ({
    spot,
    paytable: isSideSpot(spot) ? (bets.paytables?.[spot] ?? defaultPaytable(spot)) : null,
    results: { win: 0, push: 0, lose: 0 },
    staked: 0,
    paid: 0,
    commission: 0,
    net: 0,
    payouts: [] as BetPayoutCount[],
  }));
  for (const shoe of shoes) {
    for (const { start } of referencePlay(shoe, play.cutCard, play.burn).coups) {
      const coup = resolveCoup(shoe.slice(start, start + 6));
      spots.forEach((spot, k) => {
        const s = settleBet(spot, bets.stake, coup, rules);
        const t = tallies[k]!;
        t.results[s.result]++;
        t.staked += bets.stake;
        t.paid += s.paid;
        t.commission += s.commission;
        const net = s.paid - bets.stake - (bets.commission === 'box' ? s.commission : 0);
        t.net += net;
        const i = t.payouts.findIndex((p) => p.result === s.result && p.paid === s.paid);
        if (i < 0) t.payouts.push({ ...s, net, coups: 1 });
        else t.payouts[i] = { ...t.payouts[i]!, coups: t.payouts[i]!.coups + 1 };
      });
    }
  }
  for (const t of tallies) t.payouts.sort((a, b) => b.paid - a.paid || b.net - a.net);
  return tallies;
}

/** Every side bet a mode offers. */
const offeredIn = (game: GameMode): SideSpot[] =>
  SIDE_SPOTS.filter((spot) => sideBetRefusal(spot, { game, shuffle: 'shoe' }) === null);

describe('simulate with bets', () => {
  test('plays the same shoes as without bets', () => {
    const plain = simulate({ decks: 8, shoes: 40, seed: 'same shoes' });
    for (const game of GAME_MODES) {
      const { bets, ...rest } = simulate({
        decks: 8,
        shoes: 40,
        seed: 'same shoes',
        bets: { game, sideBets: offeredIn(game) },
      });
      expect(rest).toEqual(plain);
      const [player, banker, tie, playerPair, bankerPair] = bets!.tallies;
      expect(player!.results).toEqual({
        win: plain.outcomes.player,
        push: plain.outcomes.tie,
        lose: plain.outcomes.banker,
      });
      expect(banker!.results.lose).toBe(plain.outcomes.player);
      expect(tie!.results).toEqual({
        win: plain.outcomes.tie,
        push: 0,
        lose: plain.coups - plain.outcomes.tie,
      });
      expect(playerPair!.results.win).toBe(plain.pairs.player);
      expect(bankerPair!.results.win).toBe(plain.pairs.banker);
    }
  });

  test.each([
    [8, 'commission', 9, 'box', 110, { perfectPair: '25-or-200-to-1' }, 16, true],
    [8, 'no-commission', 8, 'deducted', 105, { super6: '15-to-1' }, 16, true],
    [6, 'ez', 8, 'deducted', 100, {}, 14, false],
    [1, 'commission', 8, 'deducted', 1, {}, 12, true],
  ] as const)(
    '%i decks, %s, tie pays %i, commission %s, %i cents, paytables %j: every bet as resolveCoup and settleBet settle each coup',
    (decks, game, tiePays, commission, stake, paytables, cutCard, burn) => {
      const bets = { game, tiePays, commission, stake, sideBets: offeredIn(game), paytables };
      const r = simulate({ decks, shoes: 12, seed: `reference ${game}`, cutCard, burn, bets });
      expect(r.bets).toEqual({
        rules: {
          game,
          tiePays,
          commission,
          paytables: Object.fromEntries(
            bets.sideBets.map((s) => [s, (paytables as Record<string, string>)[s] ?? defaultPaytable(s)]),
          ),
        },
        stake,
        tallies: referenceTallies(shoesOf(decks, 12, `reference ${game}`), { cutCard, burn }, bets),
      });
    },
  );

  test('property: any mode, side bets, paytables and stake settle as the reference path', () => {
    const setup = fc
      .record({
        game: fc.constantFrom(...GAME_MODES),
        tiePays: fc.constantFrom(8 as const, 9 as const),
        commission: fc.constantFrom('deducted' as const, 'box' as const),
        stake: fc.integer({ min: 1, max: 1_000_000 }),
        decks: fc.integer({ min: 1, max: 8 }),
        seed: fc.string({ minLength: 1, maxLength: 8 }),
        picks: fc.array(fc.boolean(), { minLength: SIDE_SPOTS.length, maxLength: SIDE_SPOTS.length }),
        tables: fc.array(fc.nat(), { minLength: SIDE_SPOTS.length, maxLength: SIDE_SPOTS.length }),
      })
      .map(({ picks, tables, ...rest }) => {
        const sideBets = offeredIn(rest.game).filter((s) => picks[SIDE_SPOTS.indexOf(s)]);
        const paytables = Object.fromEntries(
          sideBets.map((s) => {
            const names = Object.keys(SIDE_BETS[s].paytables);
            return [s, names[tables[SIDE_SPOTS.indexOf(s)]! % names.length]!];
          }),
        );
        return { ...rest, sideBets, paytables };
      });
    fc.assert(
      fc.property(setup, ({ decks, seed, ...bets }) => {
        const r = simulate({ decks, shoes: 2, seed, bets });
        expect(r.bets!.tallies).toEqual(
          referenceTallies(shoesOf(decks, 2, seed), { cutCard: 16, burn: true }, bets),
        );
      }),
      { numRuns: 25 },
    );
  });

  test('defaults: the commission game, tie pays 8, commission deducted, 100 cents, no side bet', () => {
    const r = simulate({ decks: 8, shoes: 3, seed: 'defaults', bets: {} });
    expect(r.bets!.rules).toEqual({ game: 'commission', tiePays: 8, commission: 'deducted', paytables: {} });
    expect(r.bets!.stake).toBe(100);
    expect(r.bets!.tallies.map((t) => [t.spot, t.paytable, t.staked])).toEqual([
      ['player', null, 100 * r.coups],
      ['banker', null, 100 * r.coups],
      ['tie', null, 100 * r.coups],
    ]);
  });

  test.each([
    [
      { game: 'commission', sideBets: ['dragon7'] },
      /Dragon 7 is offered only on ez tables, not on a commission table/,
    ],
    [{ game: 'ez', sideBets: ['super6'] }, /Super 6 is offered only on no-commission tables/],
    [
      { sideBets: ['perfectPair'], paytables: { perfectPair: '30-to-1' } },
      /Perfect Pair has no paytable "30-to-1"/,
    ],
    [
      { sideBets: ['playerPair'], paytables: { perfectPair: '25-to-1' } },
      /paytable is given for "perfectPair", which is not an offered side bet/,
    ],
    [{ sideBets: ['playerPair', 'playerPair'] }, /sideBets must list distinct side bets/],
    [{ sideBets: ['player'] }, /sideBets must list distinct side bets/],
    [{ sideBets: 'big' }, /sideBets must list distinct side bets/],
    [{ game: 'punto' }, /game must be commission, no-commission, ez and tiePays 8 or 9, got "punto"/],
    [{ tiePays: 7 }, /tiePays 8 or 9, got "commission" and 7/],
    [{ commission: 'none' }, /commission must be 'deducted' or 'box', got "none"/],
    [{ stake: 0 }, /stake must be a positive whole number of cents/],
    [{ stake: 1.5 }, /stake must be a positive whole number of cents/],
    [{ stake: 2 ** 40 }, /small enough for exact totals over 10 shoes/],
  ])('bets %j are refused: %s', (bets, message) => {
    expect(() => simulate({ decks: 8, shoes: 10, seed: 1, bets: bets as SimulatedBets })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(message) }),
    );
  });
});

describe('betZScores', () => {
  const figures = {
    probabilities: { win: 0.25, push: 0, lose: 0.75 },
    ev: 0, // wins pay 3 to 1
    results: [
      { net: 3, probability: 0.25 },
      { net: -1, probability: 0.75 },
    ],
  };
  const tally = (win: number, lose: number, stake = 100): BetTally => ({
    spot: 'playerPair',
    paytable: '11-to-1',
    results: { win, push: 0, lose },
    staked: (win + lose) * stake,
    paid: win * 4 * stake,
    commission: 0,
    net: (win * 3 - lose) * stake,
    payouts: [
      { result: 'win', paid: 4 * stake, commission: 0, net: 3 * stake, coups: win },
      { result: 'lose', paid: 0, commission: 0, net: -stake, coups: lose },
    ],
  });

  test('(count - n p) / sqrt(n p (1 - p)) per result; the return against n ev over sqrt(n var)', () => {
    // n = 10,000: sd of the wins sqrt(1875) = 43.30; var of one coup 0.25 * 9 + 0.75 - 0 = 3, sd sqrt(30000) = 173.2
    const [z] = betZScores([tally(2600, 7400)], { playerPair: figures });
    expect(z!.spot).toBe('playerPair');
    expect(z!.win).toBeCloseTo(100 / Math.sqrt(1875), 12);
    expect(z!.lose).toBeCloseTo(-100 / Math.sqrt(1875), 12);
    expect(z!.push).toBe(0);
    expect(z!.return).toBeCloseTo(400 / Math.sqrt(30000), 12);
    expect(z!.payouts).toEqual([
      { net: 3, z: z!.win },
      { net: -1, z: z!.lose },
    ]);
    expect(betZScores([tally(2500, 7500, 700)], { playerPair: figures })[0]).toEqual({
      spot: 'playerPair',
      win: 0,
      push: 0,
      lose: 0,
      payouts: [
        { net: 3, z: 0 },
        { net: -1, z: 0 },
      ],
      return: 0,
    });
  });

  test('a result that cannot happen but did is infinitely far; bets without odds are left out', () => {
    const [z] = betZScores([{ ...tally(2500, 7499), results: { win: 2500, push: 1, lose: 7499 } }], {
      playerPair: figures,
    });
    expect(z!.push).toBe(Infinity);
    // a win paying 2 to 1, which the odds do not have
    const t = tally(2500, 7500);
    const [y] = betZScores(
      [{ ...t, payouts: [{ ...t.payouts[0]!, paid: 300, net: 200, coups: 1 }, ...t.payouts] }],
      { playerPair: figures },
    );
    expect(y!.payouts).toEqual([
      { net: 3, z: 0 },
      { net: -1, z: 0 },
      { net: 2, z: Infinity },
    ]);
    expect(betZScores([tally(1, 1)], {})).toEqual([]);
  });
});

describe('simulated bets agree with their exact odds', () => {
  test.each([
    ['commission', 8, 'box', {}],
    ['no-commission', 9, 'deducted', { super6: '12-to-1', perfectPair: '25-or-200-to-1' }],
    ['no-commission', 8, 'deducted', { super6: '15-to-1' }],
    ['ez', 8, 'deducted', {}],
  ] as const)(
    '%s, tie pays %i, commission %s, paytables %j: every result, payout and return within 4 standard errors (about 160,000 coups)',
    (game, tiePays, commission, paytables) => {
      const sideBets = offeredIn(game);
      const r = simulate({
        decks: 8,
        shoes: 2000,
        seed: `exact ${game} ${JSON.stringify(paytables)}`,
        bets: { game, tiePays, commission, sideBets, paytables },
      });
      const exact = exactBetOdds({ decks: 8, game, tiePays, paytables, spots: [...MAIN_SPOTS, ...sideBets] });
      const z = betZScores(r.bets!.tallies, exact.bets);
      expect(z.map((s) => s.spot)).toEqual([...MAIN_SPOTS, ...sideBets]);
      for (const { spot, payouts, ...scores } of z) {
        const named = [
          ...Object.entries(scores),
          ...payouts.map(({ net, z }) => [`pays ${net}`, z] as const),
        ];
        for (const [name, value] of named) {
          expect([spot, name, Math.abs(value) < 4]).toEqual([spot, name, true]);
        }
        // every payout seen is one the exact odds have
        expect(payouts.length).toBe(exact.bets[spot]!.results.length);
      }
    },
  );
});
