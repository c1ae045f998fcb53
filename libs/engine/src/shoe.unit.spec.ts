import fc from 'fast-check';
import { RANKS, type Card } from './cards';
import { advanceShoe, startShoeProgress, startShoeProgressAt, type ShoeProgress } from './shoe';

const advanceAll = (p: ShoeProgress, used: number[]): ShoeProgress => used.reduce(advanceShoe, p);

describe('the burn', () => {
  // Written out: the turned card burns its number of further cards; ace 1, tens and faces 10.
  const BURN: Record<string, number> = { A: 1, T: 10, J: 10, Q: 10, K: 10 };
  for (let v = 2; v <= 9; v++) BURN[String(v)] = v;

  test.each([...RANKS])('given a turned %s, the first coup starts after it and its burn', (rank) => {
    const p = startShoeProgress(416, `${rank}h` as Card);
    expect(p).toEqual({
      length: 416,
      position: 1 + BURN[rank]!,
      cutIndex: 400,
      cutCardOut: false,
      coupsLeft: null,
      ended: false,
    });
  });

  test('an invalid turned card is INVALID_CARD', () => {
    expect(() => startShoeProgress(416, 'Xh' as Card)).toThrow(
      expect.objectContaining({ code: 'INVALID_CARD' }),
    );
  });
});

describe('the cut card', () => {
  // Turned king: 10 burned, first coup at index 11. 97 four-card coups bring the position to 399.
  const start = startShoeProgress(416, 'Kd');
  const before = advanceAll(start, Array<number>(97).fill(4));

  test('given coups that end before the cut index, the cut card stays in', () => {
    expect(before).toMatchObject({
      position: 399,
      cutIndex: 400,
      cutCardOut: false,
      coupsLeft: null,
      ended: false,
    });
  });

  test('given a coup that crosses the cut card, it finishes, exactly one more is played, then the shoe ends', () => {
    const cut = advanceShoe(before, 4); // deals 399..402: 400 is the cut index
    expect(cut).toMatchObject({ position: 403, cutCardOut: true, coupsLeft: 1, ended: false });
    const last = advanceShoe(cut, 6);
    expect(last).toMatchObject({ position: 409, cutCardOut: true, coupsLeft: 0, ended: true });
    expect(() => advanceShoe(last, 4)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  test('a coup whose last card is just before the cut index leaves it in; the next coup brings it out', () => {
    const p = advanceAll(start, [...Array<number>(96).fill(4), 5]); // 11 + 384 = 395, then 395..399
    expect(p).toMatchObject({ position: 400, cutCardOut: false, coupsLeft: null });
    const out = advanceShoe(p, 4); // its first card is at the cut index
    expect(out).toMatchObject({ cutCardOut: true, coupsLeft: 1, ended: false });
  });

  test('a coup whose last card is at the cut index brings it out', () => {
    const p = advanceAll(start, Array<number>(96).fill(4)); // position 395
    expect(advanceShoe(p, 6)).toMatchObject({ position: 401, cutCardOut: true, coupsLeft: 1 }); // 395..400
    expect(advanceShoe(p, 5)).toMatchObject({ position: 400, cutCardOut: false, coupsLeft: null }); // 395..399
  });

  test('the cut card can be placed elsewhere', () => {
    const p = startShoeProgress(312, 'Ac', 14);
    expect(p).toMatchObject({ position: 2, cutIndex: 298 });
    expect(startShoeProgressAt(312, 0, 60)).toMatchObject({ position: 0, cutIndex: 252 });
  });

  test.each([
    [416, 11],
    [416, 406],
    [416, 16.5],
    [10, 12],
    [416.5, 16],
  ])('shoe of %p with the cut card %p from the end is INVALID_ARGUMENT', (length, cutCard) => {
    expect(() => startShoeProgress(length, 'Kd', cutCard)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  test.each([[3], [7], [4.5]])('a coup of %p cards is INVALID_ARGUMENT', (used) => {
    expect(() => advanceShoe(start, used)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  test('property: the shoe ends one coup after the coup that deals the first card at or past the cut index, and never runs out', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RANKS),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 12, max: 40 }),
        fc.array(fc.constantFrom(4, 5, 6), { minLength: 104, maxLength: 104 }),
        (rank, decks, cutCard, used) => {
          let p = startShoeProgress(52 * decks, `${rank}s` as Card, cutCard);
          const cutIndex = 52 * decks - cutCard;
          const seen: string[] = [];
          for (const n of used) {
            if (p.ended) break;
            const last = p.position + n - 1;
            const wasOut = p.cutCardOut;
            p = advanceShoe(p, n);
            if (p.position > p.length) seen.push('ran out');
            if (!wasOut)
              seen.push(last >= cutIndex ? `out:${String(p.coupsLeft)}:${p.ended}` : `in:${p.coupsLeft}`);
            else seen.push(`last:${String(p.coupsLeft)}:${p.ended}`);
          }
          // Some coups with the cut card in, then the cut coup, then exactly one more.
          expect(p.ended).toBe(true);
          expect(seen.slice(-2)).toEqual(['out:1:false', 'last:0:true']);
          expect(new Set(seen.slice(0, -2))).toEqual(new Set(seen.length > 2 ? ['in:null'] : []));
        },
      ),
      { numRuns: 300 },
    );
  });
});
