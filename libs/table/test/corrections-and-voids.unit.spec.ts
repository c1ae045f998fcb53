import { fold, replyFor, tableView, playerOf } from '../src';
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
  supervisor,
} from './support';

const ready = liveReady();
const dealing = continueHistory(
  ready,
  cmd('OpenBetting', {}),
  bet(1, 'p1', 'player', 1000),
  bet(1, 'p2', 'banker', 2000),
  bet(1, 'p2', 'tie', 500),
  cmd('CloseBetting', { roundNo: 1 }),
);
const correct = (index: number, card: string, roundNo = 1) =>
  cmd('CorrectCard', { roundNo, index, card }, supervisor);

describe('CorrectCard (supervisor, live, before the coup resolves)', () => {
  const two = continueHistory(dealing, ...dealCards(1, ['2c', '9c']));

  it('replaces the card and records who, the old and the new card', () => {
    const c = correct(1, '8c');
    const then = given(two)
      .when(c)
      .then([
        {
          type: 'CardCorrected',
          data: {
            roundNo: 1,
            index: 1,
            oldCard: '9c',
            newCard: '8c',
            next: { to: 'player', slot: 'player2' },
            at: T0,
            by: supervisor.id,
            role: 'supervisor',
          },
        },
      ]);
    expect(replyFor(c, then.events, then.state)).toEqual({
      roundNo: 1,
      index: 1,
      oldCard: '9c',
      newCard: '8c',
      next: { to: 'player', slot: 'player2' },
    });
    expect(then.state.round?.cards.map((x) => x.card)).toEqual(['2c', '8c']);
    // the shoe composition gets the old card back and loses the new one
    expect(then.state.shoe?.remaining?.['9c']).toBe(8);
    expect(then.state.shoe?.remaining?.['8c']).toBe(7);
  });

  it('re-places later cards when the correction changes who draws', () => {
    // P 2h 2d = 4 draws 5c (player3); banker 3h 2s = 5 would then draw: not complete yet
    const five = continueHistory(dealing, ...dealCards(1, ['2h', '3h', '2d', '2s', '5c']));
    expect(fold(five).round?.cards[4]).toEqual({ card: '5c', to: 'player', slot: 'player3' });
    // with 4d instead of 2d the player stands on 6, the banker (5) draws: 5c was the banker's third card
    given(five)
      .when(correct(2, '4d'))
      .thenMatch([
        { type: 'CardCorrected', data: { index: 2, oldCard: '2d', newCard: '4d', next: { to: 'complete' } } },
        {
          type: 'CoupResolved',
          data: {
            playerCards: ['2h', '4d'],
            bankerCards: ['3h', '2s', '5c'],
            playerTotal: 6,
            bankerTotal: 0,
            outcome: 'player',
          },
        },
      ]);
  });

  it('resolves the coup when the corrected cards complete it', () => {
    const four = continueHistory(dealing, ...dealCards(1, ['2c', '9c', '3c', '5c'])); // P 5, B 4: player draws next
    const c = correct(3, 'Tc'); // banker 9: a natural
    const then = given(four)
      .when(c)
      .thenMatch([
        { type: 'CardCorrected', data: { next: { to: 'complete' } } },
        {
          type: 'CoupResolved',
          data: {
            bankerCards: ['9c', 'Tc'],
            outcome: 'banker',
            natural: true,
            settlements: [
              { playerId: 'p1', spot: 'player', result: 'lose', paid: 0 },
              { playerId: 'p2', spot: 'banker', result: 'win', paid: 3900, commission: 100 },
              { playerId: 'p2', spot: 'tie', result: 'lose', paid: 0 },
            ],
          },
        },
      ]);
    expect(replyFor(c, then.events, then.state)).toMatchObject({ outcome: 'banker', roundNo: 1 });
    expect(then.state.phase).toBe('ready');
  });

  it('refuses a correction that would make cards already dealt superfluous: CORRECTION_CONFLICT', () => {
    // P 2h 2d = 4 drew 3s; with 6d the player has a natural 8 and the coup ended after four cards
    const five = continueHistory(dealing, ...dealCards(1, ['2h', '3h', '2d', '2s', '5c']));
    given(five).when(correct(2, '6d')).then('CORRECTION_CONFLICT', { cardsNeeded: 4, cardsDealt: 5 });
  });

  it('refuses replacing a card with itself: CORRECTION_CONFLICT', () => {
    given(two).when(correct(0, '2c')).then('CORRECTION_CONFLICT');
  });

  it.each([2, -1, 0.5, '0'])('refuses index %p: INVALID_INDEX', (index) => {
    given(two)
      .when(cmd('CorrectCard', { roundNo: 1, index: index as number, card: 'Ah' }, supervisor))
      .then('INVALID_INDEX');
  });

  it('refuses a card the shoe cannot hold: CARD_NOT_IN_SHOE', () => {
    const aces = continueHistory(dealing, ...dealCards(1, ['As', 'As', 'As', 'As', 'As']));
    const round2 = continueHistory(
      aces.concat(),
      ...dealCards(1, ['As']),
      cmd('OpenBetting', {}),
      cmd('CloseBetting', { roundNo: 2 }),
      ...dealCards(2, ['As', 'As', '2c']),
    );
    given(round2)
      .when(correct(2, 'As', 2))
      .then('CARD_NOT_IN_SHOE');
    given(round2)
      .when(correct(2, 'Ad', 2))
      .thenMatch([{ type: 'CardCorrected' }]);
  });

  it('refuses a bad card: INVALID_CARD', () => {
    given(two).when(correct(0, 'XX')).then('INVALID_CARD');
  });

  it('is refused outside dealing: WRONG_PHASE, and for another round: WRONG_ROUND', () => {
    given(ready).when(correct(0, 'Ah')).then('WRONG_PHASE');
    // the coup just settled is corrected only with a reason (see the settled-coup corrections)
    given(continueHistory(dealing, ...dealCards(1, CARDS.bankerNatural)))
      .when(correct(0, 'Ah'))
      .then('INVALID_REASON');
    given(two)
      .when(correct(0, 'Ah', 2))
      .then('WRONG_ROUND');
  });

  it('needs a supervisor: a dealer is FORBIDDEN', () => {
    given(two)
      .when(cmd('CorrectCard', { roundNo: 1, index: 0, card: 'Ah' }, dealer))
      .then('FORBIDDEN');
  });
});

describe('VoidRound (supervisor)', () => {
  it('returns every bet of the round and names who voided it and why', () => {
    const c = cmd('VoidRound', { roundNo: 1, reason: '  card dropped on the floor ' }, supervisor);
    const then = given(dealing)
      .when(c)
      .then([
        {
          type: 'RoundVoided',
          data: {
            roundNo: 1,
            reason: 'card dropped on the floor',
            returned: [
              { playerId: 'p1', amount: 1000 },
              { playerId: 'p2', amount: 2500 },
            ],
            cardsDealt: 0,
            at: T0,
            by: supervisor.id,
            role: 'supervisor',
          },
        },
      ]);
    expect(playerOf(then.state, 'p1')?.chips).toBe(100_000);
    expect(playerOf(then.state, 'p2')?.chips).toBe(100_000);
    expect(then.state.phase).toBe('ready');
    expect(then.state.round).toMatchObject({
      status: 'voided',
      voided: { reason: 'card dropped on the floor', by: supervisor.id },
    });
    expect(replyFor(c, then.events, then.state)).toMatchObject({
      roundNo: 1,
      returned: [{ playerId: 'p1' }, { playerId: 'p2' }],
    });
  });

  it('voids during betting too', () => {
    const betting = continueHistory(ready, cmd('OpenBetting', {}), bet(1, 'p1', 'tie', 300));
    given(betting)
      .when(cmd('VoidRound', { roundNo: 1, reason: 'equipment fault' }, supervisor))
      .thenMatch([{ type: 'RoundVoided', data: { returned: [{ playerId: 'p1', amount: 300 }] } }]);
  });

  it('keeps the dealt cards on record and moves the shoe past them', () => {
    const three = continueHistory(dealing, ...dealCards(1, ['2c', '9c', '3c']));
    const then = given(three)
      .when(cmd('VoidRound', { roundNo: 1, reason: 'misdeal' }, supervisor))
      .thenMatch([{ type: 'RoundVoided', data: { cardsDealt: 3 } }]);
    const view = tableView(then.state);
    expect(view.round?.cards.map((c) => c.card)).toEqual(['2c', '9c', '3c']);
    expect(view.round?.status).toBe('voided');
    expect(then.state.shoe?.position).toBe(6 + 3);
    expect(then.state.shoe?.remaining?.['9c']).toBe(7);
    // the next round opens and deals from the next card
    const next = continueHistory(
      [...three, ...then.events],
      cmd('OpenBetting', {}),
      cmd('CloseBetting', { roundNo: 2 }),
    );
    given(next)
      .when(cmd('DealCard', { roundNo: 2, card: 'Ah' }))
      .thenMatch([{ type: 'CardDealt', data: { roundNo: 2, index: 0, shoePosition: 9 } }]);
  });

  it('does not count as the one more coup after the cut card', () => {
    // 1 deck, cut card 26 from the end (index 26); turned 5h: first coup at 6. Coups of four cards: 6-9, 10-13,
    // 14-17, 18-21, 22-25, 26-29 (the cut card comes out)
    const deck = [
      '2c',
      '9c',
      '3c',
      'Tc',
      '2d',
      '9d',
      '3d',
      'Td',
      '2h',
      '9h',
      '3h',
      'Th',
      '2s',
      '9s',
      '3s',
      'Ts',
    ];
    const more = [
      '4c',
      '5c',
      '4d',
      'Kc',
      '4h',
      '5d',
      '4s',
      'Kd',
      '6c',
      '6d',
      '6h',
      '6s',
      '7c',
      '7d',
      '7h',
      '7s',
    ];
    const cards = [...deck, ...more];
    let events = history(
      open({ dealing: 'live', decks: 1, cutCard: 26 }),
      cmd('StartShoe', { firstCard: '5h' }),
    );
    for (let r = 1; r <= 6; r++) {
      events = continueHistory(
        events,
        cmd('OpenBetting', {}),
        cmd('CloseBetting', { roundNo: r }),
        ...dealCards(r, cards.slice((r - 1) * 4, r * 4)),
      );
    }
    const state = fold(events);
    expect(state.shoe?.progress).toMatchObject({ cutCardOut: true, coupsLeft: 1 });
    expect(state.phase).toBe('ready');
    // round 7 is voided after one card: the shoe goes on
    events = continueHistory(
      events,
      cmd('OpenBetting', {}),
      cmd('CloseBetting', { roundNo: 7 }),
      cmd('DealCard', { roundNo: 7, card: '8c' }),
      cmd('VoidRound', { roundNo: 7, reason: 'misdeal' }, supervisor),
    );
    expect(events.filter((e) => e.type === 'ShoeEnded')).toHaveLength(0);
    expect(fold(events).phase).toBe('ready');
    // round 8 is the one more coup
    events = continueHistory(events, cmd('OpenBetting', {}), cmd('CloseBetting', { roundNo: 8 }));
    const then = given(events).when(cmd('DealCard', { roundNo: 8, card: '8d' }));
    expect(then.events.map((e) => e.type)).toEqual(['CardDealt']);
    events = continueHistory(events, ...dealCards(8, ['8d', '8h', '8s', 'Jc']));
    expect(events.at(-1)).toMatchObject({ type: 'ShoeEnded', data: { reason: 'cut-card', coups: 7 } });
  });

  it.each([
    ['empty', ''],
    ['too short', 'ab'],
    ['blank', '     '],
    ['too long', 'x'.repeat(501)],
    ['not a string', 42],
  ])('refuses a reason that is %s: INVALID_REASON', (_label, reason) => {
    given(dealing)
      .when(cmd('VoidRound', { roundNo: 1, reason: reason as string }, supervisor))
      .then('INVALID_REASON');
  });

  it('is refused between rounds: WRONG_PHASE, and for another round: WRONG_ROUND', () => {
    given(ready)
      .when(cmd('VoidRound', { roundNo: 1, reason: 'misdeal' }, supervisor))
      .then('WRONG_PHASE');
    given(dealing)
      .when(cmd('VoidRound', { roundNo: 2, reason: 'misdeal' }, supervisor))
      .then('WRONG_ROUND');
  });

  it('needs a supervisor: a dealer is FORBIDDEN', () => {
    given(dealing)
      .when(cmd('VoidRound', { roundNo: 1, reason: 'misdeal' }, dealer))
      .then('FORBIDDEN');
  });

  it('voids an rng round before the deal (the seed stays committed for the next round)', () => {
    const t = history(
      open(),
      buy('p1', 1000),
      cmd('StartShoe', { seed: seed(7) }),
      cmd('OpenBetting', {}),
      bet(1, 'p1', 'player', 1000),
    );
    const then = given(t).when(cmd('VoidRound', { roundNo: 1, reason: 'dispute' }, supervisor));
    expect(playerOf(then.state, 'p1')?.chips).toBe(1000);
    expect(then.state.shoe).toMatchObject({ ended: false, revealed: false });
    expect(tableView(then.state).shoe?.seed).toBeNull();
  });
});
