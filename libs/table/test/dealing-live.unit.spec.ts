import { type Card, resolveCoup, seedFromHex, shuffleShoe } from '@coup/engine';
import { type TableEvent, decide, fold, replyFor, tableView } from '../src';
import {
  CARDS,
  T0,
  bet,
  buy,
  cmd,
  continueHistory,
  dealCards,
  dealer,
  given,
  history,
  liveReady,
  open,
  seed,
} from './support';

const ready = liveReady(); // turned 5h: burn 5, first coup at index 6
const dealing = continueHistory(
  ready,
  cmd('OpenBetting', {}),
  bet(1, 'p1', 'banker', 1000),
  cmd('CloseBetting', { roundNo: 1 }),
);
const card = (c: string, roundNo = 1) => cmd('DealCard', { roundNo, card: c });

describe('DealCard (live)', () => {
  it('records the card, where it went and where the next one goes', () => {
    const c = card('2c');
    const then = given(dealing)
      .when(c)
      .then([
        {
          type: 'CardDealt',
          data: {
            roundNo: 1,
            index: 0,
            card: '2c',
            to: 'player',
            slot: 'player1',
            shoePosition: 6,
            next: { to: 'banker', slot: 'banker1' },
            at: T0,
            by: dealer.id,
            role: 'dealer',
          },
        },
      ]);
    expect(replyFor(c, then.events, then.state)).toEqual({
      roundNo: 1,
      card: '2c',
      dealtTo: 'player',
      slot: 'player1',
      next: { to: 'banker', slot: 'banker1' },
    });
    expect(then.state.shoe?.remaining?.['2c']).toBe(7);
  });

  it('goes player, banker, player, banker, then third cards as the tableau says', () => {
    const events = continueHistory(dealing, ...dealCards(1, CARDS.sixCards));
    const dealt = events.flatMap((e) => (e.type === 'CardDealt' ? [e.data] : []));
    expect(dealt.map((d) => d.slot)).toEqual([
      'player1',
      'banker1',
      'player2',
      'banker2',
      'player3',
      'banker3',
    ]);
    expect(dealt.map((d) => d.shoePosition)).toEqual([6, 7, 8, 9, 10, 11]);
    expect(dealt[dealt.length - 1]?.next).toEqual({ to: 'complete' });
  });

  it('resolves the coup with the card that completes it, and answers with the coup', () => {
    const first = continueHistory(dealing, ...dealCards(1, CARDS.bankerNatural.slice(0, 3)));
    const c = card(CARDS.bankerNatural[3]);
    const then = given(first)
      .when(c)
      .thenMatch([
        { type: 'CardDealt', data: { index: 3, slot: 'banker2', next: { to: 'complete' } } },
        {
          type: 'CoupResolved',
          data: {
            roundNo: 1,
            playerCards: ['2c', '3c'],
            bankerCards: ['9c', 'Tc'],
            playerTotal: 5,
            bankerTotal: 9,
            outcome: 'banker',
            natural: true,
            cardsUsed: 4,
            settlements: [
              { playerId: 'p1', spot: 'banker', amount: 1000, result: 'win', paid: 1950, commission: 50 },
            ],
          },
        },
      ]);
    expect(replyFor(c, then.events, then.state)).toMatchObject({
      roundNo: 1,
      outcome: 'banker',
      bankerTotal: 9,
    });
    expect(then.state.phase).toBe('ready');
    expect(then.state.shoe?.position).toBe(10);
  });

  it.each(Object.entries(CARDS))('resolves %s as the engine does', (_name, cards) => {
    const events = continueHistory(dealing, ...dealCards(1, cards));
    const coup = events.find((e) => e.type === 'CoupResolved');
    const expected = resolveCoup(cards);
    expect(coup?.data).toMatchObject({
      playerCards: expected.playerCards,
      bankerCards: expected.bankerCards,
      outcome: expected.outcome,
      natural: expected.natural,
      cardsUsed: cards.length,
    });
  });

  it('is refused when no card is due: CARD_NOT_DUE (betting, between rounds, after the coup)', () => {
    given(ready).when(card('2c')).then('CARD_NOT_DUE');
    given(continueHistory(ready, cmd('OpenBetting', {})))
      .when(card('2c'))
      .then('CARD_NOT_DUE');
    given(continueHistory(dealing, ...dealCards(1, CARDS.bankerNatural)))
      .when(card('2c'))
      .then('CARD_NOT_DUE');
  });

  it('is refused for another round: WRONG_ROUND', () => {
    given(dealing).when(card('2c', 2)).then('WRONG_ROUND');
  });

  it.each([
    ['10c', 'Tc'],
    ['AH', 'Ah'],
    ['as', 'As'],
    [' 9 d', '9d'],
  ])("takes %p as the console spells it, recorded as the engine's %p", (spelled, card) => {
    given(dealing)
      .when(cmd('DealCard', { roundNo: 1, card: spelled as Card }))
      .thenMatch([{ type: 'CardDealt', data: { card } }]);
  });

  it.each(['', '2', '1c', '11c', 'Zz', 'A', 7, null])('refuses %p: INVALID_CARD', (bad) => {
    given(dealing)
      .when(cmd('DealCard', { roundNo: 1, card: bad as string }))
      .then('INVALID_CARD');
  });

  it('refuses a ninth ace of spades from an 8-deck shoe: CARD_NOT_IN_SHOE', () => {
    // coup 1: six aces of spades (player A A A = 3, banker A A A = 3: a tie)
    const six = continueHistory(dealing, ...dealCards(1, ['As', 'As', 'As', 'As', 'As', 'As']));
    expect(six.find((e) => e.type === 'CoupResolved')?.data).toMatchObject({ outcome: 'tie', cardsUsed: 6 });
    const coup2 = continueHistory(
      six,
      cmd('OpenBetting', {}),
      cmd('CloseBetting', { roundNo: 2 }),
      card('As', 2),
      card('As', 2),
    );
    expect(fold(coup2).shoe?.remaining?.['As']).toBe(0);
    given(coup2).when(card('As', 2)).then('CARD_NOT_IN_SHOE', { card: 'As' });
    given(coup2)
      .when(card('Ah', 2))
      .thenMatch([{ type: 'CardDealt' }]);
  });

  it('counts the turned card out of the shoe', () => {
    const oneDeck = history(
      open({ dealing: 'live', decks: 1, cutCard: 12 }),
      cmd('StartShoe', { firstCard: 'Kd' }),
    );
    const t = continueHistory(oneDeck, cmd('OpenBetting', {}), cmd('CloseBetting', { roundNo: 1 }));
    given(t).when(card('Kd')).then('CARD_NOT_IN_SHOE');
    given(t)
      .when(card('Kh'))
      .thenMatch([{ type: 'CardDealt', data: { shoePosition: 11 } }]);
  });

  it('shows the cards, the next position and the cards left while dealing', () => {
    const t = continueHistory(dealing, card('2c'), card('9c'));
    const view = tableView(fold(t));
    expect(view.round).toMatchObject({
      status: 'dealing',
      cards: [
        { index: 0, card: '2c', to: 'player', slot: 'player1' },
        { index: 1, card: '9c', to: 'banker', slot: 'banker1' },
      ],
      next: { to: 'player', slot: 'player2' },
    });
    expect(view.shoe).toMatchObject({ position: 8, cardsLeft: 408 });
  });
});

/** Deals every round of a live shoe from a shuffled deck (like a shoe reader), until the shoe ends. */
function playLiveShoe(
  cards: readonly Card[],
  start: TableEvent[],
): { all: TableEvent[]; rounds: TableEvent[][] } {
  const all = [...start];
  const rounds: TableEvent[][] = [];
  let next = fold(all).shoe!.position;
  for (let r = 0; r < 100 && fold(all).phase === 'ready'; r++) {
    const roundNo = fold(all).roundNo + 1;
    const round: TableEvent[] = [];
    const run = (c: ReturnType<typeof cmd>) => {
      const d = decide(c, fold(all));
      if (!d.ok) throw new Error(`${c.type}: ${d.error.code} ${d.error.message}`);
      all.push(...d.events);
      round.push(...d.events);
      return d.events;
    };
    run(cmd('OpenBetting', {}));
    run(bet(roundNo, 'p1', r % 2 ? 'player' : 'banker', 1000));
    run(cmd('CloseBetting', { roundNo }));
    for (;;) {
      const events = run(card(cards[next++]!, roundNo));
      if (events.some((e) => e.type === 'CoupResolved')) break;
    }
    rounds.push(round);
  }
  return { all, rounds };
}

describe('a whole live shoe: burn, coups card by card, cut card, one more coup, shoe end', () => {
  it('ends the shoe after the coup following the cut card', () => {
    const shoe = shuffleShoe(6, seedFromHex(seed('live-shoe')));
    const start = history(
      open({ dealing: 'live', decks: 6, cutCard: 150 }),
      buy('p1', 1_000_000),
      cmd('StartShoe', { firstCard: shoe[0]! }),
    );
    const { all, rounds } = playLiveShoe(shoe, start);
    const cutIndex = 6 * 52 - 150;
    const outIn = rounds.findIndex((round) =>
      round.some((e) => e.type === 'CardDealt' && e.data.shoePosition >= cutIndex),
    );
    expect(outIn).toBeGreaterThan(5);
    expect(rounds).toHaveLength(outIn + 2);
    const ended = all.filter((e) => e.type === 'ShoeEnded');
    expect(ended).toEqual([
      {
        type: 'ShoeEnded',
        data: {
          shoeNo: 1,
          seed: null,
          reason: 'cut-card',
          coups: rounds.length,
          at: T0,
          by: dealer.id,
          role: 'dealer',
        },
      },
    ]);
    expect(rounds[rounds.length - 1]!.at(-1)?.type).toBe('ShoeEnded');
    const state = fold(all);
    expect(state.phase).toBe('idle');
    given(all).when(cmd('OpenBetting', {})).then('SHOE_NOT_STARTED');
    given(all)
      .when(cmd('StartShoe', { firstCard: 'Ah' }))
      .thenMatch([{ type: 'ShoeStarted', data: { shoeNo: 2 } }]);
  });

  it('burns through rounds with no bets', () => {
    const t = continueHistory(
      ready,
      cmd('OpenBetting', {}),
      cmd('CloseBetting', { roundNo: 1 }),
      ...dealCards(1, CARDS.playerNatural),
    );
    expect(t.find((e) => e.type === 'CoupResolved')?.data).toMatchObject({
      outcome: 'player',
      settlements: [],
    });
    expect(fold(t).shoe?.position).toBe(10);
  });
});
