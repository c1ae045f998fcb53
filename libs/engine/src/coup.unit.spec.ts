import type { Card } from './cards';
import { bankerDraws, playerDraws, resolveCoup } from './coup';
import { dealCard, fullShoeCounts, nextPosition, startCoup, coupResult, type CoupState } from './dealer';
import { EngineError } from './errors';

// The New Jersey (Atlantic City) tableau, written out here by hand, independently of the engine's code.
// Player, by two-card total 0-9: D draws, S stands, N natural.
const PLAYER_RULE = 'DDDDDDSSNN';
// Banker, by two-card total 0-9. First column: the player stood ('-'); then the value of the player's third
// card, 0 to 9. D draws, S stands, N natural.
const BANKER_RULE: readonly string[] = [
  //-  0123456789
  'D DDDDDDDDDD', // 0
  'D DDDDDDDDDD', // 1
  'D DDDDDDDDDD', // 2
  'D DDDDDDDDSD', // 3: stands only on a player's third card of 8
  'D SSDDDDDDSS', // 4: draws on 2-7
  'D SSSSDDDDSS', // 5: draws on 4-7
  'S SSSSSSDDSS', // 6: draws on 6-7; stands if the player stood
  'S SSSSSSSSSS', // 7
  'N NNNNNNNNNN', // 8
  'N NNNNNNNNNN', // 9
];
const bankerRule = (bt: number, p3: number | null): string => BANKER_RULE[bt]![p3 === null ? 0 : 2 + p3]!;

/** A card of baccarat value v, in hearts. */
const card = (v: number, suit = 'h'): Card => `${v === 0 ? 'K' : v === 1 ? 'A' : String(v)}${suit}` as Card;
const RANK_VALUE: Record<string, number> = { A: 1, T: 0, J: 0, Q: 0, K: 0 };
for (let v = 2; v <= 9; v++) RANK_VALUE[String(v)] = v;
const valueOf = (c: Card): number => RANK_VALUE[c[0]!]!;
const thirdCards: (number | null)[] = [null, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const totals = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

function dealAll(cards: readonly Card[]): { state: CoupState; slots: string[] } {
  let state = startCoup(fullShoeCounts(8));
  const slots: string[] = [];
  for (const c of cards) {
    const next = nextPosition(state);
    if (next.to === 'complete') break;
    slots.push(next.slot);
    const dealt = dealCard(state, c);
    if (!dealt.ok) throw dealt.error;
    state = dealt.value;
  }
  return { state, slots };
}

describe('the New Jersey tableau, every cell (player total x banker total x player third card or none)', () => {
  describe.each(totals)('player two-card total %i', (pt) => {
    test.each(totals)('banker two-card total %i', (bt) => {
      for (const p3 of thirdCards) {
        // Given the first four cards P1 B1 P2 B2 making these totals
        const first: Card[] = [card(pt), card(bt), 'Tc', 'Qd'];
        const natural = pt >= 8 || bt >= 8;
        // The decision functions agree with the written tableau.
        expect(playerDraws(pt)).toBe(PLAYER_RULE[pt] === 'D');
        expect(bankerDraws(bt, p3)).toBe(bankerRule(bt, p3) === 'D');

        if (!natural && PLAYER_RULE[pt] === 'D' && p3 === null) {
          // A drawing player needs a fifth card: four cards are not enough, and the error says so.
          let error: unknown;
          try {
            resolveCoup(first);
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(EngineError);
          expect((error as EngineError).code).toBe('NOT_ENOUGH_CARDS');
          expect((error as EngineError).details.needed).toBe(bankerRule(bt, null) === 'D' && bt <= 2 ? 6 : 5);
          expect((error as EngineError).details.given).toBe(4);
          continue;
        }
        // When the coup is played with the third card (if any) next, then '5d' and '6d'
        const cards: Card[] = [...first, ...(p3 === null ? [] : [card(p3, 's')]), '5d', '6d'];
        const result = resolveCoup(cards);
        // Then the hands follow the written tableau.
        let playerCards: Card[] = [first[0]!, first[2]!];
        let bankerCards: Card[] = [first[1]!, first[3]!];
        let next = 4;
        let playerThird: number | null = null;
        if (!natural) {
          if (PLAYER_RULE[pt] === 'D') {
            playerCards = [...playerCards, cards[next]!];
            playerThird = p3;
            next++;
          }
          if (bankerRule(bt, playerThird) === 'D') {
            bankerCards = [...bankerCards, cards[next]!];
            next++;
          }
        }
        const total = (hand: Card[]): number => hand.reduce((s, c) => s + valueOf(c), 0) % 10;
        const playerTotal = total(playerCards);
        const bankerTotal = total(bankerCards);
        expect(result).toEqual({
          playerCards,
          bankerCards,
          playerTotal,
          bankerTotal,
          outcome: playerTotal > bankerTotal ? 'player' : bankerTotal > playerTotal ? 'banker' : 'tie',
          natural,
          cardsUsed: next,
        });
        // And the step-wise dealer deals the same cards to the same hands.
        const { state, slots } = dealAll(cards);
        expect(state.cards).toEqual(cards.slice(0, next));
        expect(coupResult(state)).toEqual(result);
        expect(slots.filter((s) => s.startsWith('player'))).toHaveLength(playerCards.length);
        expect(slots.filter((s) => s.startsWith('banker'))).toHaveLength(bankerCards.length);
      }
    });
  });
});

describe('resolveCoup', () => {
  test('given a natural 9 for the banker, when resolved, then both stand and the banker wins', () => {
    expect(resolveCoup(['Ah', '9d', '3c', 'Ks'])).toEqual({
      playerCards: ['Ah', '3c'],
      bankerCards: ['9d', 'Ks'],
      playerTotal: 4,
      bankerTotal: 9,
      outcome: 'banker',
      natural: true,
      cardsUsed: 4,
    });
  });

  test('given both hands drawing, when resolved, then six cards are used in dealing order', () => {
    // Player 2+3=5 draws a 4 (9); banker 1+2=3 draws on a 4 and takes the 6 (9): tie.
    const r = resolveCoup(['2c', 'Ad', '3h', '2s', '4c', '6d', 'Kh']);
    expect(r.playerCards).toEqual(['2c', '3h', '4c']);
    expect(r.bankerCards).toEqual(['Ad', '2s', '6d']);
    expect([r.playerTotal, r.bankerTotal, r.outcome, r.natural, r.cardsUsed]).toEqual([
      9,
      9,
      'tie',
      false,
      6,
    ]);
  });

  test('not an array is INVALID_ARGUMENT', () => {
    expect(() => resolveCoup(null as unknown as string[])).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  test('cards after the last one used are ignored, even invalid ones', () => {
    expect(resolveCoup(['9h', '9d', 'Kc', 'Ks', 'not a card', 5 as unknown as string]).cardsUsed).toBe(4);
  });

  test.each([
    [[], 4, false],
    [['Ah', '2d', '3c'], 4, false],
    // player 0+3=3 draws; banker 0: draws whatever comes, so exactly 6 are needed
    [['Kh', 'Kd', '3c', 'Ks'], 6, true],
    // player draws; banker 7 stands whatever comes: exactly 5
    [['Kh', '7d', '3c', 'Ks'], 5, true],
    // player draws; banker 4 depends on the player's third card: at least 5
    [['Kh', '4d', '3c', 'Ks'], 5, false],
    // player 3 draws a 5; banker 4 draws on a 5: 6 needed, 5 given
    [['Kh', '4d', '3c', 'Ks', '5h'], 6, true],
    // player stands on 6, banker 2 draws: 5
    [['6h', '2d', 'Kc', 'Ks'], 5, true],
  ])('given %p, it says NOT_ENOUGH_CARDS with how many are needed (%i)', (cards, needed, exact) => {
    let error: EngineError | undefined;
    try {
      resolveCoup(cards);
    } catch (e) {
      error = e as EngineError;
    }
    expect(error?.code).toBe('NOT_ENOUGH_CARDS');
    expect(error?.details).toEqual({ needed, given: cards.length, exact });
    expect(error?.message).toContain(
      `${exact ? '' : 'at least '}${needed} cards, only ${cards.length} given`,
    );
  });

  test('an invalid card is INVALID_CARD with its index', () => {
    let error: EngineError | undefined;
    try {
      resolveCoup(['Ah', '9d', '10c', 'Ks']);
    } catch (e) {
      error = e as EngineError;
    }
    expect(error?.code).toBe('INVALID_CARD');
    expect(error?.details.index).toBe(2);
    expect(error?.message).toContain('Card 3 of the coup');
    expect(error?.message).toContain('"10c"');
  });

  test.each([
    [() => playerDraws(10)],
    [() => playerDraws(-1)],
    [() => bankerDraws(1.5, null)],
    [() => bankerDraws(3, 10)],
  ])('the decision functions reject totals outside 0-9 (%#)', (f) => {
    expect(f).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
