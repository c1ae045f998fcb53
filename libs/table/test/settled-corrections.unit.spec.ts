/**
 * Corrections of the coup just settled (issue 16): until the next round's betting opens (or the table's
 * `correctionSeconds`), a supervisor corrects a mis-entered card with a reason, or voids the coup. Recorded as
 * compensating events holding the reversed settlement and the new one; nothing recorded is changed.
 */
import { type Settlement, fold, playerOf, redactEvent, tableView } from '../src';
import {
  CARDS,
  admin,
  at,
  bet,
  cmd,
  continueHistory,
  dealCards,
  dealer,
  given,
  liveReady,
  player,
  supervisor,
} from './support';

/** Player 9+K natural 9 against banker 5+2: the player wins on four cards. */
const PLAYER_WINS = CARDS.playerNatural;

function settled(rules: Record<string, unknown> = {}) {
  return continueHistory(
    liveReady(rules),
    cmd('OpenBetting', {}),
    bet(1, 'p1', 'player', 1000),
    bet(1, 'p2', 'banker', 1000),
    bet(1, 'p2', 'tie', 100),
    cmd('CloseBetting', { roundNo: 1 }),
    ...dealCards(1, PLAYER_WINS),
  );
}

const correct = (index: number, card: string, reason?: string, roundNo = 1, when?: string) =>
  cmd(
    'CorrectCard',
    { roundNo, index, card: card as 'Ah', ...(reason === undefined ? {} : { reason }) },
    supervisor,
    when,
  );

const paidTo = (settlements: readonly Settlement[], playerId: string) =>
  settlements.filter((s) => s.playerId === playerId).reduce((n, s) => n + s.paid, 0);

describe('CorrectCard on the coup just settled', () => {
  const before = fold(settled());
  const chips = (id: string) => playerOf(before, id)!.chips;

  it('reverses the settlement, resolves the coup again from the corrected card and settles it anew', () => {
    // the banker's second card was a 4, not a 2: banker 5+4 natural 9 ties the player's 9
    const then = given(settled())
      .when(correct(3, '4d', 'dealer typed 2d for 4d'))
      .thenMatch([
        {
          type: 'SettledCoupCorrected',
          data: {
            roundNo: 1,
            index: 3,
            oldCard: '2d',
            newCard: '4d',
            reason: 'dealer typed 2d for 4d',
            outcome: 'tie',
            playerTotal: 9,
            bankerTotal: 9,
            natural: true,
            cardsUsed: 4,
            reversed: [
              { playerId: 'p1', spot: 'player', amount: 1000, result: 'win', paid: 2000 },
              { playerId: 'p2', spot: 'banker', amount: 1000, result: 'lose', paid: 0 },
              { playerId: 'p2', spot: 'tie', amount: 100, result: 'lose', paid: 0 },
            ],
            settlements: [
              { playerId: 'p1', spot: 'player', amount: 1000, result: 'push', paid: 1000 },
              { playerId: 'p2', spot: 'banker', amount: 1000, result: 'push', paid: 1000 },
              { playerId: 'p2', spot: 'tie', amount: 100, result: 'win', paid: 900 },
            ],
            by: supervisor.id,
            role: 'supervisor',
          },
        },
      ]);
    const after = then.state;
    expect(playerOf(after, 'p1')!.chips).toBe(chips('p1') - 1000);
    expect(playerOf(after, 'p2')!.chips).toBe(chips('p2') + 1900);
    expect(after.lastResult).toMatchObject({ outcome: 'tie', bankerCards: ['5d', '4d'] });
    expect(tableView(after).round?.cards.map((c) => c.card)).toEqual(['9d', '5d', 'Kd', '4d']);
  });

  it('may be corrected again: the second reversal is the first correction’s settlement', () => {
    const once = continueHistory(settled(), correct(3, '4d', 'dealer typed 2d for 4d'));
    const first = once.at(-1)!;
    const then = given(once)
      .when(correct(3, '3d', 'it was the three of diamonds'))
      .thenMatch([{ type: 'SettledCoupCorrected', data: { outcome: 'player', bankerTotal: 8 } }]);
    const second = then.events[0]!;
    if (first.type !== 'SettledCoupCorrected' || second.type !== 'SettledCoupCorrected') throw new Error();
    expect(second.data.reversed).toEqual(first.data.settlements);
    // back to the original result: every chip where the first settlement left it
    expect(playerOf(then.state, 'p1')!.chips).toBe(chips('p1'));
    expect(playerOf(then.state, 'p2')!.chips).toBe(chips('p2'));
  });

  it('needs a reason: INVALID_REASON, nothing recorded', () => {
    given(settled()).when(correct(3, '4d')).then('INVALID_REASON', { field: 'reason' });
    given(settled())
      .when(correct(3, '4d', 'no'))
      .then('INVALID_REASON');
  });

  it('is refused when the corrected coup would not use exactly the cards dealt: CORRECTION_CONFLICT', () => {
    // player 4+K=4 would draw a fifth card that was never dealt
    given(settled())
      .when(correct(0, '4h', 'misread'))
      .then('CORRECTION_CONFLICT', { index: 0, cardsDealt: 4 });
  });

  it('is refused once the next round’s betting has opened: CORRECTION_WINDOW_CLOSED', () => {
    const next = continueHistory(settled(), cmd('OpenBetting', {}));
    given(next)
      .when(correct(3, '4d', 'too late'))
      .then('CORRECTION_WINDOW_CLOSED', { roundNo: 1 });
    given(next)
      .when(cmd('VoidRound', { roundNo: 1, reason: 'too late' }, supervisor))
      .then('CORRECTION_WINDOW_CLOSED');
  });

  it('is refused after the table’s correctionSeconds: CORRECTION_WINDOW_CLOSED', () => {
    given(settled({ correctionSeconds: 30 }))
      .when(correct(3, '4d', 'in time', 1, at(30)))
      .thenMatch([{ type: 'SettledCoupCorrected' }]);
    given(settled({ correctionSeconds: 30 }))
      .when(correct(3, '4d', 'too late', 1, at(31)))
      .then('CORRECTION_WINDOW_CLOSED', { correctionSeconds: 30 });
  });

  it('is refused when a player of the coup has cashed out since: CORRECTION_CONFLICT, naming the player', () => {
    const gone = continueHistory(settled(), cmd('CashOut', { playerId: 'p1' }, admin));
    given(gone)
      .when(correct(3, '4d', 'misread'))
      .then('CORRECTION_CONFLICT', { players: ['p1'] });
  });

  it('takes back box commission owed on a banker win that the correction turns into a loss', () => {
    const box = continueHistory(
      liveReady({ commission: 'box' }),
      cmd('OpenBetting', {}),
      bet(1, 'p1', 'banker', 1000),
      cmd('CloseBetting', { roundNo: 1 }),
      ...dealCards(1, CARDS.bankerNatural),
    );
    expect(playerOf(fold(box), 'p1')!.commissionOwed).toBe(50);
    // the player's second card was a 7, not a 3: 2+7 natural 9 ties the banker's 9+T, and the banker bet pushes
    const then = given(box)
      .when(correct(2, '7c', 'misread'))
      .thenMatch([{ type: 'SettledCoupCorrected' }]);
    expect(playerOf(then.state, 'p1')).toMatchObject({ chips: 100_000, commissionOwed: 0 });
  });

  it('is for supervisors: a dealer is FORBIDDEN', () => {
    given(settled())
      .when(cmd('CorrectCard', { roundNo: 1, index: 3, card: '4d', reason: 'misread' }, dealer))
      .then('FORBIDDEN');
  });
});

describe('VoidRound on the coup just settled', () => {
  it('reverses the settlement and returns every stake', () => {
    const before = fold(settled());
    const then = given(settled())
      .when(cmd('VoidRound', { roundNo: 1, reason: 'shoe found short a card' }, supervisor))
      .thenMatch([
        {
          type: 'SettledCoupVoided',
          data: {
            roundNo: 1,
            reason: 'shoe found short a card',
            returned: [
              { playerId: 'p1', amount: 1000 },
              { playerId: 'p2', amount: 1100 },
            ],
          },
        },
      ]);
    const event = then.events[0]!;
    if (event.type !== 'SettledCoupVoided') throw new Error();
    for (const id of ['p1', 'p2']) {
      const returned = event.data.returned.find((r) => r.playerId === id)!.amount;
      expect(playerOf(then.state, id)!.chips).toBe(
        playerOf(before, id)!.chips - paidTo(event.data.reversed, id) + returned,
      );
    }
    expect(then.state.round).toMatchObject({ status: 'voided', result: null });
    expect(then.state.lastResult).toBeNull();
    expect(then.state.shoe?.coups).toBe(before.shoe!.coups - 1);
    // and nothing more can be done to it
    given([...settled(), ...then.events])
      .when(correct(3, '4d', 'after the void'))
      .then('WRONG_PHASE');
  });
});

describe('what a player sees of a settled coup’s correction', () => {
  it('only its own reversed and new settlements', () => {
    const events = continueHistory(settled(), correct(3, '4d', 'misread'));
    const e = redactEvent(events.at(-1)!, player('p2'));
    if (e?.type !== 'SettledCoupCorrected') throw new Error('expected the correction');
    expect(e.data.reversed.every((s) => s.playerId === 'p2')).toBe(true);
    expect(e.data.settlements.map((s) => s.spot)).toEqual(['banker', 'tie']);
  });
});

describe('a table that confirms results (rule confirmResult): the coup settles on ConfirmResult', () => {
  const dealt = continueHistory(
    liveReady({ confirmResult: true }),
    cmd('OpenBetting', {}),
    bet(1, 'p1', 'player', 1000),
    cmd('CloseBetting', { roundNo: 1 }),
    ...dealCards(1, PLAYER_WINS),
  );

  it('records the last card and waits: the coup is complete, not resolved', () => {
    expect(dealt.map((e) => e.type)).not.toContain('CoupResolved');
    expect(dealt.at(-1)).toMatchObject({ type: 'CardDealt', data: { next: { to: 'complete' } } });
    expect(fold(dealt).phase).toBe('dealing');
  });

  it('settles on the dealer’s ConfirmResult', () => {
    given(dealt)
      .when(cmd('ConfirmResult', { roundNo: 1 }, dealer))
      .thenMatch([
        { type: 'CoupResolved', data: { outcome: 'player', settlements: [{ playerId: 'p1', paid: 2000 }] } },
      ]);
  });

  it('takes a correction of the shown card before it is confirmed, still without settling', () => {
    const then = given(dealt)
      .when(correct(3, '4d'))
      .thenMatch([{ type: 'CardCorrected', data: { index: 3, newCard: '4d', next: { to: 'complete' } } }]);
    given([...dealt, ...then.events])
      .when(cmd('ConfirmResult', { roundNo: 1 }, dealer))
      .thenMatch([{ type: 'CoupResolved', data: { outcome: 'tie' } }]);
  });

  it('refuses to confirm an incomplete coup (CARD_NOT_DUE), at a table without the rule (WRONG_DEALING_MODE), and a player (FORBIDDEN)', () => {
    const partial = dealt.slice(0, -1);
    given(partial)
      .when(cmd('ConfirmResult', { roundNo: 1 }, dealer))
      .then('CARD_NOT_DUE');
    given(settled())
      .when(cmd('ConfirmResult', { roundNo: 1 }, dealer))
      .then('WRONG_DEALING_MODE');
    given(dealt)
      .when(cmd('ConfirmResult', { roundNo: 1 }, player('p1')))
      .then('FORBIDDEN');
  });

  it('is a live-table rule: INVALID_RULES on rng tables', () => {
    given([])
      .when(cmd('OpenTable', { tableId: 'T1', rules: { confirmResult: true } }, admin))
      .then('INVALID_RULES', {
        field: 'confirmResult',
      });
  });
});
