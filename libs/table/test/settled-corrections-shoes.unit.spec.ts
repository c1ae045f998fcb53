/**
 * A settled coup's correction or void once its shoe has ended, or another shoe has started, before the next
 * round's betting opens (the window is open until then): it is checked against, and changes, the coup's own shoe,
 * never the next one. And a player who cashed out since the coup settled keeps the coup as it was settled.
 */
import { type Card, seedFromHex, shuffleShoe } from '@coup/engine';
import { type TableEvent, decide, fold, playerOf } from '../src';
import {
  CARDS,
  admin,
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
  supervisor,
} from './support';

const correct = (index: number, card: string, roundNo = 1) =>
  cmd('CorrectCard', { roundNo, index, card: card as Card, reason: 'card misread at the shoe' }, supervisor);
const voidSettled = (roundNo = 1) => cmd('VoidRound', { roundNo, reason: 'shoe found short' }, supervisor);

/** A one-deck live table whose first coup (P 2c+3c, B 9c+Tc: banker natural 9) has settled. */
function oneDeckSettled(rules: Record<string, unknown> = {}): TableEvent[] {
  return history(
    open({ dealing: 'live', decks: 1, ...rules }),
    buy('p1', 100_000),
    cmd('StartShoe', { firstCard: '5h' }),
    cmd('OpenBetting', {}),
    bet(1, 'p1', 'banker', 1000),
    cmd('CloseBetting', { roundNo: 1 }),
    ...dealCards(1, CARDS.bankerNatural),
  );
}

/** The same, then the shoe ended by the supervisor and the next shoe started with `firstCard` turned. */
function nextShoeStarted(firstCard = '7c'): TableEvent[] {
  return continueHistory(
    oneDeckSettled(),
    cmd('EndShoe', {}, supervisor),
    cmd('StartShoe', { firstCard: firstCard as Card }),
  );
}

describe('a settled coup corrected after another shoe started', () => {
  it('leaves the new shoe as it was (an 8-deck shoe never holds nine of a card)', () => {
    const events = continueHistory(
      liveReady(),
      cmd('OpenBetting', {}),
      bet(1, 'p1', 'banker', 1000),
      cmd('CloseBetting', { roundNo: 1 }),
      ...dealCards(1, CARDS.bankerNatural),
      cmd('EndShoe', {}, supervisor),
      cmd('StartShoe', { firstCard: '5h' }),
    );
    const newShoe = fold(events).shoe;
    const then = given(events)
      .when(correct(2, '7c'))
      .thenMatch([{ type: 'SettledCoupCorrected', data: { shoeNo: 1, oldCard: '3c', newCard: '7c' } }]);
    expect(then.state.shoe).toEqual(newShoe);
    expect(then.state.shoe?.remaining?.['3c']).toBe(8);
  });

  it('is checked against the coup’s own shoe: a card that shoe no longer held is CARD_NOT_IN_SHOE', () => {
    // 9c was dealt to the banker in this coup: a one-deck shoe has no other (the new shoe has one)
    given(nextShoeStarted()).when(correct(2, '9c')).then('CARD_NOT_IN_SHOE', { card: '9c' });
  });

  it('is checked against the coup’s own shoe: the new shoe’s turned card was still in the old one', () => {
    // 7c is the new shoe's turned card; the old shoe still held it: player 2+7 ties the banker's 9
    const then = given(nextShoeStarted('7c'))
      .when(correct(2, '7c'))
      .thenMatch([{ type: 'SettledCoupCorrected', data: { outcome: 'tie', newCard: '7c' } }]);
    expect(then.state.shoe?.remaining?.['7c']).toBe(0);
    expect(then.state.shoe?.remaining?.['3c']).toBe(1);
    expect(then.state.round?.ownShoe?.remaining).toMatchObject({ '3c': 1, '7c': 0 });
  });

  it('a void of it takes the coup off its own shoe, not off the new one', () => {
    const then = given(nextShoeStarted())
      .when(voidSettled())
      .thenMatch([{ type: 'SettledCoupVoided', data: { shoeNo: 1 } }]);
    expect(then.state.shoe).toEqual(fold(nextShoeStarted()).shoe);
    expect(then.state.round?.ownShoe).toMatchObject({ shoeNo: 1, coups: 0 });
  });

  it('closes with the next betting as always: CORRECTION_WINDOW_CLOSED', () => {
    const opened = continueHistory(nextShoeStarted(), cmd('OpenBetting', {}));
    given(opened).when(correct(2, '7c')).then('CORRECTION_WINDOW_CLOSED', { roundNo: 1 });
    expect(fold(opened).round?.ownShoe).toBeUndefined();
  });
});

/** Deals coups from a shuffled one-deck physical shoe until the cut card ends it. */
function dealtToTheCutCard(): TableEvent[] {
  const physical = shuffleShoe(1, seedFromHex(seed('one-deck-physical')));
  let events = history(
    open({ dealing: 'live', decks: 1 }),
    buy('p1', 100_000),
    cmd('StartShoe', { firstCard: physical[0]! }),
  );
  let next = fold(events).shoe!.position;
  for (let roundNo = 1; !events.some((e) => e.type === 'ShoeEnded'); roundNo++) {
    events = continueHistory(
      events,
      cmd('OpenBetting', {}),
      bet(roundNo, 'p1', 'banker', 1000),
      cmd('CloseBetting', { roundNo }),
    );
    while (fold(events).phase === 'dealing') {
      events = continueHistory(events, cmd('DealCard', { roundNo, card: physical[next++]! }, dealer));
    }
  }
  return events;
}

describe('the last coup of a shoe, after the shoe ended', () => {
  it('can be corrected when the coup brought out the cut card (checked against its shoe)', () => {
    const events = dealtToTheCutCard();
    expect(events.at(-1)).toMatchObject({ type: 'ShoeEnded', data: { reason: 'cut-card' } });
    const state = fold(events);
    const round = state.round!;
    const remaining = state.shoe!.remaining!;
    // every card the shoe still holds: taken when the coup uses exactly the cards dealt, else CORRECTION_CONFLICT
    const first = round.cards[0]!.card;
    const held = (Object.keys(remaining) as Card[]).filter((c) => remaining[c]! > 0 && c !== first);
    let accepted = 0;
    for (const card of held) {
      const decision = decide(correct(0, card, round.roundNo), state);
      if (!decision.ok) {
        expect(decision.error.code).toBe('CORRECTION_CONFLICT');
        continue;
      }
      const after = fold(decision.events, state).shoe!.remaining!;
      expect([after[card], after[first]]).toEqual([remaining[card]! - 1, remaining[first]! + 1]);
      accepted++;
    }
    expect(accepted).toBeGreaterThan(0);
  });

  it('can be corrected and voided after a supervisor ended the shoe', () => {
    const ended = continueHistory(oneDeckSettled(), cmd('EndShoe', {}, supervisor));
    const then = given(ended)
      .when(correct(2, '7c'))
      .thenMatch([{ type: 'SettledCoupCorrected', data: { shoeNo: 1, outcome: 'tie' } }]);
    expect(then.state.shoe?.remaining).toMatchObject({ '3c': 1, '7c': 0 });
    given(ended).when(correct(2, '9c')).then('CARD_NOT_IN_SHOE');
    const voided = given(ended)
      .when(voidSettled())
      .thenMatch([{ type: 'SettledCoupVoided' }]);
    expect(voided.state.shoe).toMatchObject({ shoeNo: 1, ended: true, coups: 0 });
  });

  it('on an rng table whose Deal started the next shoe (nextSeed), a void leaves the new shoe’s coups alone', () => {
    // a one-coup shoe: every-coup tables end their shoe with each coup, and Deal's nextSeed starts the next
    const events = history(
      open({ shuffle: 'every-coup' }),
      buy('p1', 100_000),
      cmd('OpenBetting', { seed: seed('first') }),
      bet(1, 'p1', 'banker', 1000),
      cmd('CloseBetting', { roundNo: 1 }),
      cmd('Deal', { roundNo: 1, nextSeed: seed('next') }),
    );
    const before = fold(events);
    expect(before.shoe).toMatchObject({ shoeNo: 2, coups: 0 });
    expect(before.round?.ownShoe).toEqual({ shoeNo: 1, decks: 8, remaining: null, coups: 1 });
    const then = given(events)
      .when(voidSettled())
      .thenMatch([{ type: 'SettledCoupVoided', data: { shoeNo: 1 } }]);
    expect(then.state.shoe).toEqual(before.shoe);
    expect(then.state.round?.ownShoe).toMatchObject({ shoeNo: 1, coups: 0 });
  });
});

describe('a player who cashed out since the coup settled keeps the coup', () => {
  /** Box commission: p1's banker bet of 1,000 won (50 commission owed), then p1 cashed out and bought in 50. */
  function cashedOutAndBack(): TableEvent[] {
    return continueHistory(
      oneDeckSettled({ commission: 'box' }),
      cmd('CashOut', { playerId: 'p1' }, admin),
      buy('p1', 5000),
    );
  }

  it('the cash-out collected the commission owed', () => {
    const out = cashedOutAndBack().find((e) => e.type === 'PlayerCashedOut');
    expect(out).toMatchObject({ data: { paid: 100_950, commissionCollected: 50, commissionOwed: 0 } });
    expect(playerOf(fold(cashedOutAndBack()), 'p1')).toMatchObject({ chips: 5000, commissionOwed: 0 });
  });

  it('a correction that changes its settlement is refused: CORRECTION_CONFLICT naming it', () => {
    given(cashedOutAndBack())
      .when(correct(2, '7c'))
      .then('CORRECTION_CONFLICT', { players: ['p1'] });
  });

  it('a void is refused too: CORRECTION_CONFLICT naming it', () => {
    given(cashedOutAndBack())
      .when(voidSettled())
      .then('CORRECTION_CONFLICT', { players: ['p1'] });
  });

  it('a correction that leaves its settlement as it was is taken', () => {
    // p1 bet the tie and p2 the player; banker 9 beat player 5 and would beat player 9+2=1 as well
    const events = continueHistory(
      history(
        open({ dealing: 'live', decks: 1, commission: 'box' }),
        buy('p1', 100_000),
        buy('p2', 100_000),
        cmd('StartShoe', { firstCard: '5h' }),
        cmd('OpenBetting', {}),
        bet(1, 'p1', 'tie', 1000),
        bet(1, 'p2', 'player', 1000),
        cmd('CloseBetting', { roundNo: 1 }),
        ...dealCards(1, CARDS.bankerNatural),
      ),
      cmd('CashOut', { playerId: 'p1' }, admin),
      buy('p1', 5000),
    );
    // card 2 (3c) was a 7c: player 2+7 natural 9 ties the banker: p1's tie wins, and p1 has left
    given(events)
      .when(correct(2, '7c'))
      .then('CORRECTION_CONFLICT', { players: ['p1'] });
    // card 2 was an 8c: player 2+8=0 still loses to the banker, and the tie still loses
    const then = given(events)
      .when(correct(2, '8c'))
      .thenMatch([{ type: 'SettledCoupCorrected', data: { outcome: 'banker' } }]);
    expect(playerOf(then.state, 'p1')).toMatchObject({ chips: 5000, commissionOwed: 0 });
  });
});
