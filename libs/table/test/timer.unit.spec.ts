import { fold, replyFor, tableView } from '../src';
import { at, bet, buy, cmd, continueHistory, dealer, given, history, open, player, seed } from './support';

const timed = history(
  open({ bettingSeconds: 30 }),
  buy('p1', 100_000),
  cmd('StartShoe', { seed: seed('timer') }),
);
const opened = continueHistory(timed, cmd('OpenBetting', {}, dealer, at(10)));
const deadline = at(40);

describe('the betting timer', () => {
  it('puts the deadline (opening instant + bettingSeconds) in BettingOpened', () => {
    const c = cmd('OpenBetting', {}, dealer, at(10));
    const then = given(timed)
      .when(c)
      .then([
        {
          type: 'BettingOpened',
          data: { roundNo: 1, shoeNo: 1, deadline, at: at(10), by: dealer.id, role: 'dealer' },
        },
      ]);
    expect(replyFor(c, then.events, then.state)).toMatchObject({ roundNo: 1, deadline });
    expect(tableView(then.state).round?.deadline).toBe(deadline);
  });

  it('reads instants with an offset', () => {
    given(timed)
      .when(cmd('OpenBetting', {}, dealer, '2030-01-01T13:00:10+01:00'))
      .thenMatch([{ type: 'BettingOpened', data: { deadline } }]);
  });

  it('takes bets up to the deadline, and refuses them after it: BETTING_CLOSED', () => {
    given(opened)
      .when(bet(1, 'p1', 'player', 100, at(39)))
      .thenMatch([{ type: 'BetPlaced' }]);
    given(opened)
      .when(bet(1, 'p1', 'player', 100, deadline))
      .thenMatch([{ type: 'BetPlaced' }]);
    given(opened)
      .when(bet(1, 'p1', 'player', 100, '2030-01-01T12:00:40.001Z'))
      .then('BETTING_CLOSED', { deadline });
  });

  it('refuses clearing and rebetting after the deadline too: BETTING_CLOSED', () => {
    const placed = continueHistory(opened, bet(1, 'p1', 'player', 100, at(20)));
    given(placed)
      .when(cmd('ClearBets', { roundNo: 1, playerId: 'p1' }, player('p1'), at(41)))
      .then('BETTING_CLOSED');
    given(placed)
      .when(cmd('Rebet', { roundNo: 1, playerId: 'p1' }, player('p1'), at(41)))
      .then('BETTING_CLOSED');
  });

  it('closes by timer at or after the deadline', () => {
    given(opened)
      .when(cmd('CloseBetting', { roundNo: 1, byTimer: true }, dealer, deadline))
      .then([
        {
          type: 'BettingClosed',
          data: { roundNo: 1, by: 'timer', actorId: dealer.id, role: 'dealer', at: deadline },
        },
      ]);
    given(opened)
      .when(cmd('CloseBetting', { roundNo: 1, byTimer: true }, dealer, at(95)))
      .thenMatch([{ type: 'BettingClosed', data: { by: 'timer' } }]);
  });

  it('refuses the timer before the deadline: DEADLINE_NOT_REACHED', () => {
    given(opened)
      .when(cmd('CloseBetting', { roundNo: 1, byTimer: true }, dealer, at(39)))
      .then('DEADLINE_NOT_REACHED', { deadline });
  });

  it('lets the dealer close before the deadline', () => {
    given(opened)
      .when(cmd('CloseBetting', { roundNo: 1 }, dealer, at(11)))
      .thenMatch([{ type: 'BettingClosed', data: { by: 'dealer' } }]);
  });

  it('refuses the timer on a round without one: DEADLINE_NOT_REACHED', () => {
    const untimed = history(open(), cmd('StartShoe', { seed: seed(1) }), cmd('OpenBetting', {}));
    given(untimed)
      .when(cmd('CloseBetting', { roundNo: 1, byTimer: true }, dealer, at(1000)))
      .then('DEADLINE_NOT_REACHED', { deadline: null });
  });

  it('refuses a late timer once the dealer closed: WRONG_PHASE (the scheduler may race the dealer)', () => {
    const closed = continueHistory(opened, cmd('CloseBetting', { roundNo: 1 }, dealer, at(20)));
    given(closed)
      .when(cmd('CloseBetting', { roundNo: 1, byTimer: true }, dealer, deadline))
      .then('WRONG_PHASE');
  });

  it('gives each round its own deadline', () => {
    const r2 = continueHistory(
      opened,
      cmd('CloseBetting', { roundNo: 1, byTimer: true }, dealer, deadline),
      cmd('Deal', { roundNo: 1 }, dealer, at(45)),
      cmd('OpenBetting', {}, dealer, at(60)),
    );
    expect(fold(r2).round?.deadline).toBe(at(90));
  });
});
