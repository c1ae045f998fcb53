import fc from 'fast-check';
import { DECK, type Card } from './cards';
import { resolveCoup } from './coup';
import {
  cardsInShoe,
  coupResult,
  dealCard,
  fullShoeCounts,
  nextPosition,
  removeCard,
  startCoup,
  type CoupState,
  type ShoeCounts,
} from './dealer';
import type { EngineError } from './errors';

function deal(state: CoupState, card: string): CoupState {
  const r = dealCard(state, card);
  if (!r.ok) throw r.error;
  return r.value;
}

function dealError(state: CoupState, card: string): EngineError {
  const r = dealCard(state, card);
  if (r.ok) throw new Error(`expected ${card} to be refused`);
  return r.error;
}

describe('shoe composition', () => {
  test('a full shoe holds decks copies of each of the 52 cards', () => {
    const counts = fullShoeCounts(8);
    expect(Object.keys(counts)).toHaveLength(52);
    for (const card of DECK) expect(counts[card]).toBe(8);
    expect(cardsInShoe(counts)).toBe(416);
    expect(cardsInShoe(fullShoeCounts(1))).toBe(52);
  });

  test.each([[0], [9], [2.5], [-1]])('fullShoeCounts(%p) is INVALID_DECKS', (decks) => {
    expect(() => fullShoeCounts(decks)).toThrow(expect.objectContaining({ code: 'INVALID_DECKS' }));
  });

  test('removeCard takes one card away without changing the original', () => {
    const full = fullShoeCounts(1);
    const r = removeCard(full, 'As');
    expect(r.ok && r.value.As).toBe(0);
    expect(full.As).toBe(1);
    const again = r.ok ? removeCard(r.value, 'As') : r;
    expect(!again.ok && again.error.code).toBe('CARD_NOT_IN_SHOE');
    const bad = removeCard(full, 'Zz' as Card);
    expect(!bad.ok && bad.error.code).toBe('INVALID_CARD');
  });
});

describe('step-wise dealer', () => {
  test('given a fresh coup, when cards are dealt, then it says where each one goes', () => {
    // Player 2+3=5 draws a 4; banker A+2=3 draws (third card 4); six cards in all.
    let state = startCoup(fullShoeCounts(8));
    const seen: unknown[] = [];
    for (const c of ['2c', 'Ad', '3h', '2s', '4c', '6d']) {
      seen.push(nextPosition(state));
      expect(coupResult(state)).toBeNull();
      state = deal(state, c);
    }
    expect(seen).toEqual([
      { to: 'player', slot: 'player1' },
      { to: 'banker', slot: 'banker1' },
      { to: 'player', slot: 'player2' },
      { to: 'banker', slot: 'banker2' },
      { to: 'player', slot: 'player3' },
      { to: 'banker', slot: 'banker3' },
    ]);
    expect(nextPosition(state)).toEqual({ to: 'complete' });
    expect(coupResult(state)).toEqual(resolveCoup(['2c', 'Ad', '3h', '2s', '4c', '6d']));
    expect(state.remaining['2c']).toBe(7);
    expect(cardsInShoe(state.remaining)).toBe(416 - 6);
  });

  test('given the player stands and the banker draws, the fifth card goes to banker3', () => {
    const state = ['7c', '2d', 'Kh', 'Ks'].reduce(deal, startCoup(fullShoeCounts(8)));
    expect(nextPosition(state)).toEqual({ to: 'banker', slot: 'banker3' });
    const done = deal(state, '9h');
    expect(nextPosition(done)).toEqual({ to: 'complete' });
    expect(coupResult(done)?.bankerCards).toEqual(['2d', 'Ks', '9h']);
  });

  test('given a natural, a fifth card is refused with COUP_COMPLETE and the state is unchanged', () => {
    const state = ['Ah', '9d', '3c', 'Ks'].reduce(deal, startCoup(fullShoeCounts(8)));
    const e = dealError(state, '5h');
    expect(e.code).toBe('COUP_COMPLETE');
    expect(e.details).toEqual({ card: '5h', cardsDealt: 4 });
    expect(state.cards).toHaveLength(4);
  });

  test.each([['1h'], ['AH'], ['Ax'], ['10h'], [''], ['Ahh']])('an unknown card %p is INVALID_CARD', (c) => {
    const e = dealError(startCoup(fullShoeCounts(8)), c);
    expect(e.code).toBe('INVALID_CARD');
    expect(e.details.input).toBe(c);
  });

  test('a ninth ace of spades from eight decks is CARD_NOT_IN_SHOE', () => {
    let remaining: ShoeCounts = fullShoeCounts(8);
    for (let i = 0; i < 8; i++) {
      const r = removeCard(remaining, 'As');
      if (!r.ok) throw r.error;
      remaining = r.value;
    }
    const e = dealError(startCoup(remaining), 'As');
    expect(e.code).toBe('CARD_NOT_IN_SHOE');
    expect(e.details).toEqual({ card: 'As' });
    expect(e.message).toContain('ace of spades');
  });

  test('within one coup from a single deck, a second copy of a card is refused', () => {
    const state = deal(startCoup(fullShoeCounts(1)), 'Qh');
    expect(dealError(state, 'Qh').code).toBe('CARD_NOT_IN_SHOE');
    // the next coup starts from what the shoe still holds
    const next = startCoup(['Kd', 'Qd', 'Jd'].reduce(deal, state).remaining);
    expect(dealError(next, 'Jd').code).toBe('CARD_NOT_IN_SHOE');
  });

  test('property: the dealer and resolveCoup agree on every sequence', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...DECK), { minLength: 6, maxLength: 6 }), (cards) => {
        let state = startCoup(fullShoeCounts(8));
        const slots: string[] = [];
        for (;;) {
          const next = nextPosition(state);
          if (next.to === 'complete') break;
          slots.push(next.slot);
          state = deal(state, cards[state.cards.length]!);
        }
        const expected = resolveCoup(cards);
        expect(coupResult(state)).toEqual(expected);
        expect(state.cards).toEqual(cards.slice(0, expected.cardsUsed));
        // The slots name the hands resolveCoup gave the cards to, in order.
        const toPlayer = state.cards.filter((_, i) => slots[i]!.startsWith('player'));
        const toBanker = state.cards.filter((_, i) => slots[i]!.startsWith('banker'));
        expect(toPlayer).toEqual(expected.playerCards);
        expect(toBanker).toEqual(expected.bankerCards);
        expect(dealError(state, cards[0]!).code).toBe('COUP_COMPLETE');
        for (let i = 0; i < 4 && i < expected.cardsUsed; i++)
          expect(coupResult({ ...state, cards: cards.slice(0, i) })).toBeNull();
      }),
      { numRuns: 3000 },
    );
  });
});
