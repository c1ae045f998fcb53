import fc from 'fast-check';
import type { CoupFeatures } from './bets';
import { type Outcome, resolveCoup } from './coup';
import { commissionFor, settleBet, type PayoutRules, type Spot } from './settlement';

/** A two-card coup ending in `outcome` with no pair and no natural (all the main bets of the commission game need). */
function ended(outcome: Outcome): CoupFeatures {
  const [playerTotal, bankerTotal] = outcome === 'player' ? [5, 3] : outcome === 'banker' ? [3, 5] : [4, 4];
  return {
    outcome,
    playerTotal,
    bankerTotal,
    playerCards: 3,
    bankerCards: 3,
    playerNatural: false,
    bankerNatural: false,
    playerPair: false,
    bankerPair: false,
    playerPerfectPair: false,
    bankerPerfectPair: false,
  };
}

// Every spot x outcome x rule for a bet of 110 cents (commission 5.5 rounds down to 5), written out by hand.
// [spot, outcome, tiePays, commission rule, result, paid, commission]
const TABLE: [Spot, Outcome, 8 | 9, 'deducted' | 'box', string, number, number][] = [];
const rows: [Spot, Outcome, string, number, number, number, number][] = [
  // spot, outcome, result, paid (deducted), commission (deducted), paid (box), commission (box); tie pays 8
  ['player', 'player', 'win', 220, 0, 220, 0],
  ['player', 'banker', 'lose', 0, 0, 0, 0],
  ['player', 'tie', 'push', 110, 0, 110, 0],
  ['banker', 'banker', 'win', 215, 5, 220, 5],
  ['banker', 'player', 'lose', 0, 0, 0, 0],
  ['banker', 'tie', 'push', 110, 0, 110, 0],
  ['tie', 'tie', 'win', 990, 0, 990, 0],
  ['tie', 'player', 'lose', 0, 0, 0, 0],
  ['tie', 'banker', 'lose', 0, 0, 0, 0],
];
for (const [spot, outcome, result, paidD, comD, paidB, comB] of rows) {
  for (const tiePays of [8, 9] as const) {
    const tieWin = spot === 'tie' && outcome === 'tie';
    TABLE.push([spot, outcome, tiePays, 'deducted', result, tieWin ? 110 * (tiePays + 1) : paidD, comD]);
    TABLE.push([spot, outcome, tiePays, 'box', result, tieWin ? 110 * (tiePays + 1) : paidB, comB]);
  }
}

describe('settlement', () => {
  test('the table covers every spot, outcome and rule', () => expect(TABLE).toHaveLength(36));

  test.each(TABLE)(
    'given 110 cents on %s, when the coup ends %s (tie pays %i, commission %s), then %s paid %i commission %i',
    (spot, outcome, tiePays, commission, result, paid, com) => {
      expect(settleBet(spot, 110, ended(outcome), { tiePays, commission })).toEqual({
        result,
        paid,
        commission: com,
      });
    },
  );

  test.each([
    [0, 0],
    [1, 0],
    [19, 0],
    [20, 1],
    [39, 1],
    [100, 5],
    [110, 5],
    [119, 5],
    [120, 6],
    [2500, 125],
    [Number.MAX_SAFE_INTEGER, 450359962737049],
  ])('commission on %i cents is %i (5%% rounded down to the cent)', (amount, expected) => {
    expect(commissionFor(amount)).toBe(expected);
  });

  test('property: commission is floor(amount * 5 / 100), exact on multiples of 20 cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (amount) => {
        expect(commissionFor(amount)).toBe(Number((BigInt(amount) * 5n) / 100n));
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), (k) => {
        expect(commissionFor(20 * k) * 20).toBe(20 * k);
      }),
    );
  });

  test('property: a banker win pays the same in total under both commission rules', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e13 }), (amount) => {
        const d = settleBet('banker', amount, ended('banker'), { tiePays: 8, commission: 'deducted' });
        const b = settleBet('banker', amount, ended('banker'), { tiePays: 8, commission: 'box' });
        expect(d.paid + d.commission).toBe(b.paid);
        expect(d.commission).toBe(b.commission);
      }),
    );
  });

  const rules: PayoutRules = { tiePays: 8, commission: 'deducted' };
  test.each([[0], [-100], [1.5], [NaN], [Infinity], ['100'], [2 ** 53], [2 ** 52]])(
    'amount %p is INVALID_AMOUNT',
    (amount) => {
      expect(() => settleBet('player', amount as number, ended('player'), rules)).toThrow(
        expect.objectContaining({ code: 'INVALID_AMOUNT' }),
      );
    },
  );

  test.each([[-1], [0.5], ['20']])('commissionFor(%p) is INVALID_AMOUNT', (amount) => {
    expect(() => commissionFor(amount as number)).toThrow(
      expect.objectContaining({ code: 'INVALID_AMOUNT' }),
    );
  });

  test('unknown spot, outcome or rules are INVALID_ARGUMENT', () => {
    const bad = { code: 'INVALID_ARGUMENT' };
    expect(() => settleBet('pair' as Spot, 100, ended('player'), rules)).toThrow(
      expect.objectContaining(bad),
    );
    expect(() => settleBet('player', 100, 'draw' as unknown as CoupFeatures, rules)).toThrow(
      expect.objectContaining(bad),
    );
    expect(() => settleBet('tie', 100, ended('tie'), { tiePays: 7 as 8, commission: 'box' })).toThrow(
      expect.objectContaining(bad),
    );
    expect(() => settleBet('tie', 100, ended('tie'), { tiePays: 8, commission: 'none' as 'box' })).toThrow(
      expect.objectContaining(bad),
    );
  });
});

describe('settleBet takes a resolved coup or its features, told apart by the cards', () => {
  test('a resolved coup (cards listed) is read through coupFeatures, not as features', () => {
    // player 5+4 vs banker 3+3: a natural player win with a banker pair
    const coup = resolveCoup(['5c', '3d', '4c', '3h']);
    expect(settleBet('bankerPair', 100, coup, { tiePays: 8, commission: 'deducted' }).paid).toBe(1200);
    expect(settleBet('playerPair', 100, coup, { tiePays: 8, commission: 'deducted' }).paid).toBe(0);
  });

  test('a resolved coup that also carries a stray playerPair field is still read from its cards', () => {
    const coup = { ...resolveCoup(['5c', '3d', '4c', '3h']), playerPair: true };
    expect(settleBet('playerPair', 100, coup, { tiePays: 8, commission: 'deducted' }).paid).toBe(0);
  });
});
