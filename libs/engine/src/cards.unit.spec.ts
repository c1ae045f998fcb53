import {
  DECK,
  RANKS,
  SUITS,
  burnCount,
  cardFromSpelling,
  cardValue,
  checkDecks,
  describeCard,
  handTotal,
  isCard,
  parseCard,
  rankIndex,
  type Card,
} from './cards';
import { EngineError } from './errors';

function thrown(f: () => unknown): EngineError {
  try {
    f();
  } catch (e) {
    if (e instanceof EngineError) return e;
    throw e;
  }
  throw new Error('expected an EngineError');
}

describe('cards', () => {
  test('a deck is the 52 distinct cards, clubs A-K first', () => {
    expect(DECK).toHaveLength(52);
    expect(new Set(DECK).size).toBe(52);
    expect(DECK.slice(0, 13).join(' ')).toBe('Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc');
    expect(DECK[51]).toBe('Ks');
    for (const card of DECK) expect(isCard(card)).toBe(true);
  });

  test('parseCard accepts every rank and suit', () => {
    for (const r of RANKS) for (const s of SUITS) expect(parseCard(`${r}${s}`)).toBe(`${r}${s}`);
  });

  test.each([
    ['1h'],
    ['AH'],
    ['Ax'],
    ['10h'],
    [''],
    [5],
    [null],
    ['Ahh'],
    [undefined],
    ['ah'],
    [' Ah'],
    [{}],
  ])('parseCard rejects %p with INVALID_CARD naming the input and the format', (input) => {
    const e = thrown(() => parseCard(input));
    expect(e.code).toBe('INVALID_CARD');
    expect(e.details.input).toBe(input);
    expect(e.message).toContain('rank (A 2 3 4 5 6 7 8 9 T J Q K) then a suit (c d h s)');
    if (typeof input === 'string') expect(e.message).toContain(JSON.stringify(input));
    expect(isCard(input)).toBe(false);
  });

  test('values: ten and faces 0, ace 1, others their number', () => {
    const expected: Record<string, number> = {
      A: 1,
      '2': 2,
      '3': 3,
      '4': 4,
      '5': 5,
      '6': 6,
      '7': 7,
      '8': 8,
      '9': 9,
    };
    for (const t of ['T', 'J', 'Q', 'K']) expected[t] = 0;
    for (const r of RANKS) for (const s of SUITS) expect(cardValue(`${r}${s}`)).toBe(expected[r]);
  });

  test('burn counts: ace 1, 2-9 their number, ten and faces 10', () => {
    const expected = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10];
    RANKS.forEach((r, i) => expect(burnCount(`${r}d`)).toBe(expected[i]));
  });

  test('hand totals are the sum mod 10 (the rule text examples)', () => {
    expect(handTotal(['9c', '7d'])).toBe(6);
    expect(handTotal(['5c', '5d', '5h'])).toBe(5);
    expect(handTotal(['Tc', '9d'])).toBe(9);
    expect(handTotal(['Kc', 'Qd'])).toBe(0);
    expect(handTotal([])).toBe(0);
    expect(thrown(() => handTotal(['Ah', 'Xx' as Card])).code).toBe('INVALID_CARD');
  });

  test('rank index and description', () => {
    expect(rankIndex('Ac')).toBe(0);
    expect(rankIndex('Ts')).toBe(9);
    expect(rankIndex('Kh')).toBe(12);
    expect(describeCard('As')).toBe('ace of spades');
    expect(describeCard('Td')).toBe('ten of diamonds');
  });

  test.each([[0], [9], [1.5], ['8'], [NaN], [null]])('checkDecks rejects %p with INVALID_DECKS', (decks) => {
    expect(thrown(() => checkDecks(decks)).code).toBe('INVALID_DECKS');
  });
});

describe('cardFromSpelling (the one spelling rule of the API and the console)', () => {
  test.each([
    ['Ah', 'Ah'],
    ['ah', 'Ah'],
    ['AH', 'Ah'],
    ['10d', 'Td'],
    ['10D', 'Td'],
    ['td', 'Td'],
    [' 9 c ', '9c'],
  ])('given %p, then %p', (input, card) => {
    expect(cardFromSpelling(input)).toBe(card);
  });

  test.each(['', '1h', '11h', '10', 'Ahh', 'Zz', 'A', 7, null, undefined, 'x'.repeat(40)])(
    'given %p, then null',
    (input) => {
      expect(cardFromSpelling(input)).toBeNull();
    },
  );
});
