import type { Card } from './cards';
import { resolveCoup } from './coup';
import { exactCountsByValue, exactOdds, ratioToNumber } from './odds';
import { forEachOrderedSix } from '../test/ordered-sequences';

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;
const percent2 = (x: number): string => (x * 100).toFixed(2);
const fallingProduct = (n: bigint, k: number): bigint => {
  let p = 1n;
  for (let i = 0n; i < BigInt(k); i++) p *= n - i;
  return p;
};

describe('exact odds, 8 decks', () => {
  const odds = exactOdds({ decks: 8 });

  test('the counts of ordered six-card sequences are exactly the published ones', () => {
    expect(odds.counts.total).toBe(4_998_398_275_503_360n);
    expect(odds.counts.banker).toBe(2_292_252_566_437_888n);
    expect(odds.counts.player).toBe(2_230_518_282_592_256n);
    expect(odds.counts.tie).toBe(475_627_426_473_216n);
    expect(odds.counts.total).toBe(fallingProduct(416n, 6));
  });

  test('the probabilities agree with the published figures to every digit', () => {
    expect(round6(odds.probabilities.banker)).toBe(0.458597);
    expect(round6(odds.probabilities.player)).toBe(0.446247);
    expect(round6(odds.probabilities.tie)).toBe(0.095156);
  });

  test('house edges: banker 1.06%, player 1.24%, tie 14.36% at 8:1 and 4.84% at 9:1', () => {
    expect(odds.tiePays).toBe(8);
    expect(percent2(odds.houseEdge.banker)).toBe('1.06');
    expect(percent2(odds.houseEdge.player)).toBe('1.24');
    expect(percent2(odds.houseEdge.tie)).toBe('14.36');
    const nine = exactOdds({ decks: 8, tiePays: 9 });
    expect(percent2(nine.houseEdge.tie)).toBe('4.84');
    expect(nine.houseEdge.banker).toBe(odds.houseEdge.banker);
  });

  test('the edges are the payout arithmetic on the probabilities', () => {
    const { player: p, banker: b, tie: t } = odds.probabilities;
    expect(odds.houseEdge.player).toBeCloseTo(b - p, 15);
    expect(odds.houseEdge.banker).toBeCloseTo(p - 0.95 * b, 15);
    expect(odds.houseEdge.tie).toBeCloseTo(1 - 9 * t, 15);
  });

  test('the natural, counted independently over the first four cards', () => {
    // By value: 0 has 128 cards, 1-9 have 32 each.
    const c = [128, 32, 32, 32, 32, 32, 32, 32, 32, 32];
    let naturals = 0n;
    for (let p1 = 0; p1 < 10; p1++)
      for (let b1 = 0; b1 < 10; b1++)
        for (let p2 = 0; p2 < 10; p2++)
          for (let b2 = 0; b2 < 10; b2++) {
            if ((p1 + p2) % 10 < 8 && (b1 + b2) % 10 < 8) continue;
            const left = [...c];
            let ways = 1n;
            for (const v of [p1, b1, p2, b2]) ways *= BigInt(left[v]!--);
            naturals += ways;
          }
    expect(odds.counts.natural).toBe(naturals * 412n * 411n);
    expect(odds.natural).toBe(Number(odds.counts.natural) / Number(odds.counts.total));
  });

  test('pairs: the first two cards of a hand of one rank, (4d - 1) / (52d - 1)', () => {
    expect(odds.pairs.player).toBe(31 / 415);
    expect(odds.pairs.banker).toBe(31 / 415);
  });
});

describe.each([[6], [1]])('exact odds, %i deck(s)', (decks) => {
  const odds = exactOdds({ decks });
  test('counts sum to the total and probabilities to 1', () => {
    const { total, player: p, banker: b, tie: t } = odds.counts;
    expect(p + b + t).toBe(total);
    expect(total).toBe(fallingProduct(BigInt(52 * decks), 6));
    expect(odds.probabilities.player + odds.probabilities.banker + odds.probabilities.tie).toBeCloseTo(1, 14);
    expect(odds.pairs.player).toBeCloseTo((4 * decks - 1) / (52 * decks - 1), 15);
    expect(odds.decks).toBe(decks);
  });
});

test('6 decks agree with the published figures: banker 0.458653, player 0.446279, tie 0.095069, tie edge 14.44%', () => {
  const odds = exactOdds({ decks: 6 });
  expect(round6(odds.probabilities.banker)).toBe(0.458653);
  expect(round6(odds.probabilities.player)).toBe(0.446279);
  expect(round6(odds.probabilities.tie)).toBe(0.095069);
  expect(percent2(odds.houseEdge.tie)).toBe('14.44');
  expect(percent2(odds.houseEdge.banker)).toBe('1.06');
  expect(percent2(odds.houseEdge.player)).toBe('1.24');
});

describe('the enumeration against brute force', () => {
  test('a small shoe: every ordered six-card sequence of physical cards resolved by resolveCoup', () => {
    // 11 cards holding every value: two of value 0, one each of 1-9.
    const cards: Card[] = ['Kh', 'Qs', 'Ah', '2h', '3h', '4h', '5h', '6h', '7h', '8h', '9h'];
    const byValue = [2, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    const counts = { player: 0n, banker: 0n, tie: 0n, natural: 0n };
    forEachOrderedSix(cards, (sequence) => {
      const r = resolveCoup(sequence);
      counts[r.outcome] += 1n;
      if (r.natural) counts.natural += 1n;
    });
    expect(exactCountsByValue(byValue)).toEqual({ total: fallingProduct(11n, 6), ...counts });
  });

  test('bad compositions are INVALID_ARGUMENT', () => {
    const bad = expect.objectContaining({ code: 'INVALID_ARGUMENT' });
    expect(() => exactCountsByValue([1, 1, 1, 1, 1])).toThrow(bad);
    expect(() => exactCountsByValue([1, 1, 1, 1, 1, 0, 0, 0, 0, 0])).toThrow(bad); // 5 cards
    expect(() => exactCountsByValue([1, 1, 1, 1, 1, 1, 1, 1, 1, -1])).toThrow(bad);
    expect(() => exactCountsByValue([200, 40, 40, 40, 40, 40, 40, 40, 40, 40])).toThrow(bad); // N^6 > 2^53
  });
});

describe('options and rounding', () => {
  test.each([[0], [9], [1.5], ['8']])('decks %p is INVALID_DECKS', (decks) => {
    expect(() => exactOdds({ decks: decks as number })).toThrow(
      expect.objectContaining({ code: 'INVALID_DECKS' }),
    );
  });
  test('tiePays other than 8 or 9 is INVALID_ARGUMENT', () => {
    expect(() => exactOdds({ decks: 8, tiePays: 7 as 8 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
  test('ratios are rounded once, to the nearest double', () => {
    for (const [a, b] of [
      [1n, 3n],
      [2n, 3n],
      [-5n, 7n],
      [475627426473216n, 4998398275503360n],
      [0n, 9n],
    ] as const) {
      expect(ratioToNumber(a, b)).toBe(Number(a) / Number(b));
    }
    // 2^60 + 1 over 1 is not a double: it rounds to 2^60 (ties and below go down), 2^60 + 2^8 + 1 rounds up.
    expect(ratioToNumber(2n ** 60n + 1n, 1n)).toBe(2 ** 60);
    expect(ratioToNumber(2n ** 60n + 2n ** 7n + 1n, 1n)).toBe(2 ** 60 + 2 ** 8);
    expect(ratioToNumber(2n ** 61n + 2n ** 8n, 2n)).toBe(2 ** 60); // exactly halfway: to even
    expect(() => ratioToNumber(1n, 0n)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
