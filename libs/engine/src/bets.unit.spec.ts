/**
 * The bet catalogue checked from the outside: real card sequences resolved by `resolveCoup`, and what
 * `settleBet` must pay on every spot in every game mode under every paytable, written out by hand in cents
 * from the paytables of issue 15 (never computed by the code under test).
 */
import fc from 'fast-check';
import {
  ALL_SPOTS,
  GAME_MODES,
  type GameMode,
  SIDE_BETS,
  SIDE_SPOTS,
  type SideSpot,
  type Spot,
  coupFeatures,
  sideBetRefusal,
} from './bets';
import { DECK } from './cards';
import { type Outcome, resolveCoup } from './coup';
import { type PayoutRules, settleBet } from './settlement';

/**
 * The columns of {@link COUPS}: what 100 cents on each spot pays back (stake included: 0 a loss, 100 a push).
 * A main spot's column is per game mode; a side bet's is per paytable.
 */
const COLUMNS = [
  ['player', undefined],
  ['banker', 'commission'], // the 5% deducted: a win pays 195
  ['banker', 'no-commission'],
  ['banker', 'ez'],
  ['tie', 'tie pays 8'],
  ['tie', 'tie pays 9'],
  ['playerPair', '11-to-1'],
  ['bankerPair', '11-to-1'],
  ['eitherPair', '5-to-1'],
  ['perfectPair', '25-to-1'],
  ['perfectPair', '25-or-200-to-1'],
  ['big', '0.54-to-1'],
  ['small', '1.5-to-1'],
  ['playerDragon', 'standard'],
  ['bankerDragon', 'standard'],
  ['dragon7', '40-to-1'],
  ['panda8', '25-to-1'],
  ['super6', '12-to-1'],
  ['super6', '15-to-1'],
] as const;

type Paid = [
  player: number,
  bankerCommission: number,
  bankerNoCommission: number,
  bankerEz: number,
  tie8: number,
  tie9: number,
  playerPair: number,
  bankerPair: number,
  eitherPair: number,
  perfectPair25: number,
  perfectPair200: number,
  big: number,
  small: number,
  playerDragon: number,
  bankerDragon: number,
  dragon7: number,
  panda8: number,
  super6of12: number,
  super6of15: number,
];

interface Given {
  /** What the coup is. */
  readonly name: string;
  /** The cards in dealing order: player, banker, player, banker, then the third cards. */
  readonly cards: readonly string[];
  /** Who wins, each hand's total and cards, as the tableau must play them. */
  readonly outcome: Outcome;
  readonly player: readonly [total: number, cards: number];
  readonly banker: readonly [total: number, cards: number];
  /** What 100 cents pays on each column of {@link COLUMNS}. */
  readonly paid: Paid;
}

// prettier-ignore
const COUPS: readonly Given[] = [
  //                                                                                    P   Bc   Bnc  Bez  T8   T9   PP    BP    EP   Perf  Perf200 Big Small PDrag BDrag D7   P8   S6/12 S6/15
  { name: 'player natural 9 beats banker 7', cards: ['9h', '5c', 'Ks', '2d'], outcome: 'player', player: [9, 2], banker: [7, 2],
    paid: [200, 0,   0,   0,   0,   0,   0,    0,    0,   0,    0,     0,   250, 200,  0,    0,   0,   0,    0] },
  { name: 'natural tie 8-8', cards: ['8h', '8c', 'Kd', 'Ks'], outcome: 'tie', player: [8, 2], banker: [8, 2],
    paid: [100, 100, 100, 100, 900, 1000, 0,   0,    0,   0,    0,     0,   250, 100,  100,  0,   0,   0,    0] },
  { name: 'non-natural tie 7-7 (both stand)', cards: ['4h', '3c', '3d', '4s'], outcome: 'tie', player: [7, 2], banker: [7, 2],
    paid: [100, 100, 100, 100, 900, 1000, 0,   0,    0,   0,    0,     0,   250, 0,    0,    0,   0,   0,    0] },
  { name: 'non-natural tie 8-8 on three cards each (a player three-card 8 that ties is no Panda 8)', cards: ['Ah', 'Kc', '2d', '5s', '5c', '3h'], outcome: 'tie', player: [8, 3], banker: [8, 3],
    paid: [100, 100, 100, 100, 900, 1000, 0,   0,    0,   0,    0,     154, 0,   0,    0,    0,   0,   0,    0] },
  { name: 'player three-card 9 beats banker three-card 0 by 9 (a king and a queen are no pair)', cards: ['2h', 'Kc', '3d', 'Qs', '4c', 'Ts'], outcome: 'player', player: [9, 3], banker: [0, 3],
    paid: [200, 0,   0,   0,   0,   0,   0,    0,    0,   0,    0,     154, 0,   3100, 0,    0,   0,   0,    0] },
  { name: 'banker three-card 9 beats player three-card 0 by 9', cards: ['Th', 'Ac', 'Jd', 'Ks', 'Kc', '8s'], outcome: 'banker', player: [0, 3], banker: [9, 3],
    paid: [0,   195, 200, 200, 0,   0,   0,    0,    0,   0,    0,     154, 0,   0,    3100, 0,   0,   0,    0] },
  { name: 'banker natural 9 beats player 0 by 9: a natural pays 1:1 (a ten and a king are no pair)', cards: ['Th', '9c', 'Kh', 'Ks'], outcome: 'banker', player: [0, 2], banker: [9, 2],
    paid: [0,   195, 200, 200, 0,   0,   0,    0,    0,   0,    0,     0,   250, 0,    200,  0,   0,   0,    0] },
  { name: 'banker three-card 8 beats player three-card 0 by 8', cards: ['Th', '3c', 'Jd', 'Ks', 'Kc', '5s'], outcome: 'banker', player: [0, 3], banker: [8, 3],
    paid: [0,   195, 200, 200, 0,   0,   0,    0,    0,   0,    0,     154, 0,   0,    1100, 0,   0,   0,    0] },
  { name: 'Dragon 7: banker three-card 7 beats player three-card 0 by 7 (EZ banker pushes)', cards: ['Th', '3c', 'Jd', 'Ks', 'Kc', '4s'], outcome: 'banker', player: [0, 3], banker: [7, 3],
    paid: [0,   195, 200, 100, 0,   0,   0,    0,    0,   0,    0,     154, 0,   0,    700,  4100, 0,  0,    0] },
  { name: 'Panda 8: player three-card 8 beats banker three-card 2 by 6', cards: ['Ah', 'Kc', '2d', '2s', '5c', 'Qh'], outcome: 'player', player: [8, 3], banker: [2, 3],
    paid: [200, 0,   0,   0,   0,   0,   0,    0,    0,   0,    0,     154, 0,   500,  0,    0,   2600, 0,   0] },
  { name: 'banker three-card 6 beats player three-card 1 by 5', cards: ['5h', 'Ac', '6d', '2s', 'Kc', '3h'], outcome: 'banker', player: [1, 3], banker: [6, 3],
    paid: [0,   195, 150, 200, 0,   0,   0,    0,    0,   0,    0,     154, 0,   0,    300,  0,   0,   1300, 1600] },
  { name: 'banker two-card 6 beats player three-card 2 by 4', cards: ['2h', '6c', 'Kd', 'Qs', 'Ks'], outcome: 'banker', player: [2, 3], banker: [6, 2],
    paid: [0,   195, 150, 200, 0,   0,   0,    0,    0,   0,    0,     154, 0,   0,    200,  0,   0,   1300, 1600] },
  { name: 'player two-card 6 beats banker three-card 2 by 4', cards: ['2h', 'Kc', '4d', '2s', 'Qh'], outcome: 'player', player: [6, 2], banker: [2, 3],
    paid: [200, 0,   0,   0,   0,   0,   0,    0,    0,   0,    0,     154, 0,   200,  0,    0,   0,   0,    0] },
  { name: 'player two-card 7 beats banker three-card 4 by 3', cards: ['4h', 'Ac', '3d', '3s', 'Kh'], outcome: 'player', player: [7, 2], banker: [4, 3],
    paid: [200, 0,   0,   0,   0,   0,   0,    0,    0,   0,    0,     154, 0,   0,    0,    0,   0,   0,    0] },
  { name: 'banker two-card 7 beats player three-card 5 by 2 (a two-card 7 is no Dragon 7)', cards: ['Ah', '4c', '4d', '3s', 'Kc'], outcome: 'banker', player: [5, 3], banker: [7, 2],
    paid: [0,   195, 200, 200, 0,   0,   0,    0,    0,   0,    0,     154, 0,   0,    0,    0,   0,   0,    0] },
  { name: 'player two-card 6 beats banker three-card 5 by 1', cards: ['2h', 'Ac', '4d', '3s', 'Ah'], outcome: 'player', player: [6, 2], banker: [5, 3],
    paid: [200, 0,   0,   0,   0,   0,   0,    0,    0,   0,    0,     154, 0,   0,    0,    0,   0,   0,    0] },
  { name: 'player pair of fours, natural 8, loses to a banker natural 9', cards: ['4h', '9c', '4d', 'Ks'], outcome: 'banker', player: [8, 2], banker: [9, 2],
    paid: [0,   195, 200, 200, 0,   0,   1200, 0,    600, 0,    0,     0,   250, 0,    200,  0,   0,   0,    0] },
  { name: 'banker pair of fours, natural 8, loses to a player natural 9', cards: ['9c', '4h', 'Ks', '4d'], outcome: 'player', player: [9, 2], banker: [8, 2],
    paid: [200, 0,   0,   0,   0,   0,   0,    1200, 600, 0,    0,     0,   250, 200,  0,    0,   0,   0,    0] },
  { name: 'player pair of fives draws and loses 1-2', cards: ['5h', 'Kc', '5d', 'Qs', 'Ac', '2d'], outcome: 'banker', player: [1, 3], banker: [2, 3],
    paid: [0,   195, 200, 200, 0,   0,   1200, 0,    600, 0, 0,     154, 0,   0,    0,    0,   0,   0,    0] },
  { name: 'a pair on each hand (no perfect pair), natural tie', cards: ['4h', '9c', '4d', '9d'], outcome: 'tie', player: [8, 2], banker: [8, 2],
    paid: [100, 100, 100, 100, 900, 1000, 1200, 1200, 600, 0,    0,     0,   250, 100,  100,  0,   0,   0,    0] },
  { name: 'a player perfect pair and a banker pair', cards: ['4h', '9c', '4h', '9d'], outcome: 'tie', player: [8, 2], banker: [8, 2],
    paid: [100, 100, 100, 100, 900, 1000, 1200, 1200, 600, 2600, 2600,  0,   250, 100,  100,  0,   0,   0,    0] },
  { name: 'a banker perfect pair and a player pair', cards: ['4h', '9c', '4d', '9c'], outcome: 'tie', player: [8, 2], banker: [8, 2],
    paid: [100, 100, 100, 100, 900, 1000, 1200, 1200, 600, 2600, 2600,  0,   250, 100,  100,  0,   0,   0,    0] },
  { name: 'a perfect pair on both hands', cards: ['4h', '9c', '4h', '9c'], outcome: 'tie', player: [8, 2], banker: [8, 2],
    paid: [100, 100, 100, 100, 900, 1000, 1200, 1200, 600, 2600, 20100, 0,   250, 100,  100,  0,   0,   0,    0] },
];

const BASE: PayoutRules = { tiePays: 8, commission: 'deducted' };

/** The rules of one column: its mode (every mode when the spot is in all) and its paytable. */
function rulesOf(spot: Spot, variant: string | undefined, game: GameMode): PayoutRules {
  if (spot === 'tie') return { ...BASE, game, tiePays: variant === 'tie pays 9' ? 9 : 8 };
  if (spot === 'player' || spot === 'banker') return { ...BASE, game };
  return { ...BASE, game, paytables: { [spot]: variant } };
}

/** The modes a column is played in: the banker's column names its mode; a side bet's, where it is offered. */
function modesOf(spot: Spot, variant: string | undefined): GameMode[] {
  if (spot === 'banker') return [variant as GameMode];
  if (spot === 'player' || spot === 'tie') return [...GAME_MODES];
  return GAME_MODES.filter((game) => sideBetRefusal(spot, { game, shuffle: 'shoe' }) === null);
}

const resultOf = (paid: number): string => (paid === 0 ? 'lose' : paid === 100 ? 'push' : 'win');

const CASES = COUPS.flatMap((given) =>
  COLUMNS.flatMap(([spot, variant], i) =>
    modesOf(spot, variant).map(
      (game) => [given.name, spot, variant ?? '', game, given.paid[i]!, given] as const,
    ),
  ),
);

describe('the hand-written table', () => {
  test('covers every spot and every paytable of the catalogue', () => {
    expect([...new Set(COLUMNS.map(([spot]) => spot))]).toEqual(ALL_SPOTS);
    for (const spot of SIDE_SPOTS) {
      expect([spot, COLUMNS.filter(([s]) => s === spot).map(([, v]) => v)]).toEqual([
        spot,
        Object.keys(SIDE_BETS[spot].paytables),
      ]);
    }
  });

  test.each(COUPS.map((g) => [g.name, g] as const))('given %s, resolveCoup plays it so', (_, given) => {
    const coup = resolveCoup(given.cards);
    expect({
      outcome: coup.outcome,
      player: [coup.playerTotal, coup.playerCards.length],
      banker: [coup.bankerTotal, coup.bankerCards.length],
      cardsUsed: coup.cardsUsed,
    }).toEqual({
      outcome: given.outcome,
      player: given.player,
      banker: given.banker,
      cardsUsed: given.cards.length,
    });
  });

  test('each side bet wins at least once and each mode banker pays differently somewhere', () => {
    COLUMNS.forEach(([spot, variant], i) => {
      expect([spot, variant, COUPS.some((g) => g.paid[i]! > 100)]).toEqual([spot, variant, true]);
    });
    expect(COUPS.some((g) => g.paid[2] === 150 && g.paid[3] === 200)).toBe(true);
    expect(COUPS.some((g) => g.paid[2] === 200 && g.paid[3] === 100)).toBe(true);
  });
});

describe('settleBet on real coups', () => {
  test.each(CASES)(
    'given %s, when 100 cents are on %s (%s) at a %s table, then it pays %i',
    (_, spot, variant, game, paid, given) => {
      const coup = resolveCoup(given.cards);
      const rules = rulesOf(spot, variant || undefined, game);
      const commission = spot === 'banker' && game === 'commission' && given.outcome === 'banker' ? 5 : 0;
      const expected = { result: resultOf(paid), paid, commission };
      expect(settleBet(spot, 100, coup, rules)).toEqual(expected);
      // the features settle the same as the coup
      expect(settleBet(spot, 100, coupFeatures(coup), rules)).toEqual(expected);
    },
  );

  test.each(COUPS.map((g) => [g.name, g] as const))(
    'given %s, the commission game is the one without a game mode, the box pays the commission aside',
    (_, given) => {
      const coup = resolveCoup(given.cards);
      for (const spot of ['player', 'banker', 'tie'] as const) {
        expect(settleBet(spot, 100, coup, BASE)).toEqual(
          settleBet(spot, 100, coup, { ...BASE, game: 'commission' }),
        );
      }
      const box = settleBet('banker', 100, coup, { ...BASE, commission: 'box' });
      if (given.outcome === 'banker') expect(box).toEqual({ result: 'win', paid: 200, commission: 5 });
      else expect(box.commission).toBe(0);
    },
  );

  test('side bets settle the same in every mode that offers them, whatever the main game', () => {
    const coup = resolveCoup(['4h', '9c', '4h', '9c']);
    for (const game of GAME_MODES) {
      expect(
        settleBet('perfectPair', 100, coup, { ...BASE, game, paytables: { perfectPair: '25-or-200-to-1' } })
          .paid,
      ).toBe(20100);
    }
  });
});

describe('rounding: winnings at fractional odds round down to the cent', () => {
  const coupOf = (cards: string[]) => resolveCoup(cards);
  const BIG = ['2h', 'Kc', '3d', 'Qs', '4c', 'Ts']; // 6 cards
  const SMALL = ['9h', '5c', 'Ks', '2d']; // 4 cards
  const BANKER_6 = ['2h', '6c', 'Kd', 'Qs', 'Ks']; // banker two-card 6 wins
  const BANKER_WIN = ['Th', '9c', 'Kh', 'Ks'];
  test.each([
    // spot, cards, game, stake, paid, commission
    ['big', BIG, 'commission', 110, 169, 0], // 59.4 -> 59
    ['big', BIG, 'commission', 105, 161, 0], // 56.7 -> 56
    ['big', BIG, 'commission', 1, 1, 0], // 0.54 -> 0: the stake back, still a win
    ['big', BIG, 'commission', 50, 77, 0], // 27 exactly
    ['small', SMALL, 'commission', 110, 275, 0],
    ['small', SMALL, 'commission', 105, 262, 0], // 157.5 -> 157
    ['small', SMALL, 'commission', 1, 2, 0], // 1.5 -> 1
    ['banker', BANKER_6, 'no-commission', 110, 165, 0],
    ['banker', BANKER_6, 'no-commission', 105, 157, 0], // 52.5 -> 52
    ['banker', BANKER_6, 'no-commission', 1, 1, 0], // 0.5 -> 0
    ['banker', BANKER_WIN, 'no-commission', 105, 210, 0],
    ['banker', BANKER_WIN, 'ez', 105, 210, 0],
    ['banker', BANKER_WIN, 'commission', 110, 215, 5], // 5.5 -> 5
    ['banker', BANKER_WIN, 'commission', 119, 233, 5],
    ['banker', BANKER_6, 'commission', 120, 234, 6],
    ['super6', BANKER_6, 'no-commission', 105, 1365, 0],
    ['bankerDragon', BANKER_WIN, 'commission', 105, 210, 0],
  ] as const)(
    '%s on %j (%s) with %i cents pays %i, commission %i',
    (spot, cards, game, stake, paid, commission) => {
      expect(settleBet(spot, stake, coupOf([...cards]), { ...BASE, game })).toEqual({
        result: 'win',
        paid,
        commission,
      });
    },
  );
});

describe('sideBetRefusal: where each side bet may be offered', () => {
  test.each([
    [
      'dragon7',
      'commission',
      'shoe',
      undefined,
      /Dragon 7 is offered only on ez tables, not on a commission table/,
    ],
    ['dragon7', 'no-commission', 'shoe', undefined, /Dragon 7 is offered only on ez tables/],
    ['panda8', 'commission', 'shoe', undefined, /Panda 8 is offered only on ez tables/],
    ['panda8', 'no-commission', 'every-coup', undefined, /Panda 8 is offered only on ez tables/],
    ['super6', 'ez', 'shoe', undefined, /Super 6 is offered only on no-commission tables, not on a ez table/],
    ['super6', 'commission', 'shoe', undefined, /Super 6 is offered only on no-commission tables/],
    ['big', 'commission', 'every-coup', undefined, /Big is offered only on shoe games/],
    ['small', 'ez', 'every-coup', undefined, /Small is offered only on shoe games/],
    [
      'perfectPair',
      'commission',
      'shoe',
      '30-to-1',
      /Perfect Pair has no paytable "30-to-1": expected one of 25-to-1, 25-or-200-to-1/,
    ],
    ['super6', 'no-commission', 'shoe', '25-to-1', /Super 6 has no paytable "25-to-1"/],
    ['playerPair', 'commission', 'shoe', '5-to-1', /Player Pair has no paytable "5-to-1"/],
    ['playerDragon', 'ez', 'shoe', 'toString', /Dragon Bonus Player has no paytable "toString"/],
    ['bankerDragon', 'ez', 'shoe', '__proto__', /Dragon Bonus Banker has no paytable "__proto__"/],
    ['eitherPair', 'ez', 'shoe', '', /Either Pair has no paytable ""/],
  ] as const)(
    '%s on a %s table (%s shuffle, paytable %p) is refused',
    (spot, game, shuffle, paytable, message) => {
      expect(sideBetRefusal(spot, { game, shuffle, paytable })).toMatch(message);
    },
  );

  test.each([
    ['dragon7', 'ez', 'shoe', '40-to-1'],
    ['panda8', 'ez', 'every-coup', undefined],
    ['super6', 'no-commission', 'shoe', '15-to-1'],
    ['super6', 'no-commission', 'every-coup', '12-to-1'],
    ['big', 'commission', 'shoe', '0.54-to-1'],
    ['small', 'ez', 'shoe', undefined],
  ] as const)('%s on a %s table (%s shuffle, paytable %p) is offered', (spot, game, shuffle, paytable) => {
    expect(sideBetRefusal(spot, { game, shuffle, paytable })).toBeNull();
  });

  test('pairs and Dragon Bonus are offered in every mode and with every shuffle, under each of their paytables', () => {
    const everywhere: SideSpot[] = [
      'playerPair',
      'bankerPair',
      'eitherPair',
      'perfectPair',
      'playerDragon',
      'bankerDragon',
    ];
    for (const spot of everywhere)
      for (const game of GAME_MODES)
        for (const shuffle of ['shoe', 'every-coup'] as const)
          for (const paytable of Object.keys(SIDE_BETS[spot].paytables))
            expect([spot, game, shuffle, sideBetRefusal(spot, { game, shuffle, paytable })]).toEqual([
              spot,
              game,
              shuffle,
              null,
            ]);
  });
});

describe('sideBetRefusal: a bet that can never win is not offered', () => {
  test('Perfect Pair needs two decks (one deck holds one copy of each card)', () => {
    expect(sideBetRefusal('perfectPair', { game: 'commission', shuffle: 'shoe', decks: 1 })).toMatch(
      /Perfect Pair needs at least 2 decks/,
    );
    expect(sideBetRefusal('perfectPair', { game: 'commission', shuffle: 'shoe', decks: 2 })).toBeNull();
    expect(sideBetRefusal('playerPair', { game: 'commission', shuffle: 'shoe', decks: 1 })).toBeNull();
  });
});

describe('settleBet refuses an unknown paytable', () => {
  const coup = resolveCoup(['4h', '9c', '4h', '9c']);
  test.each([
    ['perfectPair', '30-to-1'],
    ['perfectPair', '11-to-1'], // another bet's paytable
    ['super6', '25-to-1'],
    ['playerDragon', 'toString'],
    ['bankerPair', '__proto__'],
    ['big', ''],
  ] as const)('%s under paytable %p is INVALID_ARGUMENT', (spot, paytable) => {
    expect(() => settleBet(spot, 100, coup, { ...BASE, paytables: { [spot]: paytable } })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', details: { spot, paytable } }),
    );
  });

  test('the paytable of another spot does not matter', () => {
    expect(settleBet('playerPair', 100, coup, { ...BASE, paytables: { perfectPair: 'nope' } }).paid).toBe(
      1200,
    );
  });
});

describe('properties of every settlement', () => {
  const card = fc.constantFrom(...DECK);
  const rules = fc.record({
    game: fc.constantFrom(...GAME_MODES),
    tiePays: fc.constantFrom(8 as const, 9 as const),
    commission: fc.constantFrom('deducted' as const, 'box' as const),
    paytables: fc.record(
      Object.fromEntries(SIDE_SPOTS.map((s) => [s, fc.constantFrom(...Object.keys(SIDE_BETS[s].paytables))])),
    ),
  });

  test('0 on a loss, the stake on a push, a whole number of cents from the stake up on a win, never over 201 times the stake', () => {
    fc.assert(
      fc.property(
        fc.array(card, { minLength: 6, maxLength: 6 }),
        fc.constantFrom(...ALL_SPOTS),
        fc.oneof(
          fc.integer({ min: 1, max: 1000 }),
          fc.integer({ min: 1, max: Math.floor(Number.MAX_SAFE_INTEGER / 201) }),
        ),
        rules,
        (cards, spot, amount, r) => {
          const s = settleBet(spot, amount, resolveCoup(cards), r as PayoutRules);
          if (s.result === 'lose') expect(s).toEqual({ result: 'lose', paid: 0, commission: 0 });
          if (s.result === 'push') expect(s).toEqual({ result: 'push', paid: amount, commission: 0 });
          if (s.result === 'win') {
            expect(Number.isSafeInteger(s.paid)).toBe(true);
            expect(s.paid).toBeGreaterThanOrEqual(amount);
          }
          expect(s.paid).toBeLessThanOrEqual(amount * (1 + 200));
          expect(s.commission === 0 || (spot === 'banker' && r.game === 'commission')).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
