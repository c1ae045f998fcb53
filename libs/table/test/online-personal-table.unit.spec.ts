/**
 * A player's personal online table (`online-<playerId>`, ADR-10) takes bets and deals only from its player, and
 * its table operations (shoes, betting) only from the online game's system actors: no dealer bets or deals for the
 * player there, and nobody else is seated. The casino keeps what it needs: closing the table, cashing out, voiding.
 */
import { ONLINE_CROUPIER, type Actor, onlineCashier, onlineTableId, personalTableOwner } from '../src';
import {
  admin,
  bet,
  cmd,
  continueHistory,
  dealer,
  given,
  history,
  open,
  player,
  seed,
  supervisor,
} from './support';

const GAME = { shuffle: 'every-coup', dealtBy: 'player' };
const ann = player('ann');
const bob = player('bob');
const croupier: Actor = { id: ONLINE_CROUPIER, role: 'dealer' };
const cashier: Actor = { id: onlineCashier('ann'), role: 'admin' };

/** ann's personal table, opened and bought into by the cashier, betting opened by the croupier. */
const opened = history(
  open(GAME, onlineTableId('ann')),
  cmd('BuyIn', { playerId: 'ann', amount: 100_000 }, cashier),
  cmd('OpenBetting', { seed: seed('personal-1') }, croupier),
);
const withBet = continueHistory(opened, bet(1, 'ann', 'banker', 500));

describe('whose table it is', () => {
  it('is named after its player, and no other table has an owner', () => {
    expect(onlineTableId('ann')).toBe('online-ann');
    expect(personalTableOwner('online-ann')).toBe('ann');
    expect(personalTableOwner('online-')).toBeNull();
    expect(personalTableOwner('T1')).toBeNull();
    expect(personalTableOwner('onlineann')).toBeNull();
    expect(personalTableOwner(null)).toBeNull();
  });
});

describe('bets and deals come from its player only', () => {
  it.each<[string, Actor]>([
    ['a dealer', dealer],
    ['a supervisor', supervisor],
    ['an admin', admin],
    ['the croupier', croupier],
  ])('%s may not bet for the player: PERSONAL_TABLE', (_label, actor) => {
    given(opened)
      .when(cmd('PlaceBet', { roundNo: 1, playerId: 'ann', spot: 'player', amount: 500 }, actor))
      .then('PERSONAL_TABLE', { tableId: 'online-ann', owner: 'ann' });
  });

  it.each<[string, Actor]>([
    ['a dealer', dealer],
    ['a supervisor', supervisor],
    ['the croupier', croupier],
  ])('%s may not deal the coup, nor clear or rebet: PERSONAL_TABLE', (_label, actor) => {
    given(withBet)
      .when(cmd('Deal', { roundNo: 1, nextSeed: seed('personal-2') }, actor))
      .then('PERSONAL_TABLE');
    given(withBet)
      .when(cmd('ClearBets', { roundNo: 1, playerId: 'ann' }, actor))
      .then('PERSONAL_TABLE');
    given(withBet)
      .when(cmd('Rebet', { roundNo: 1, playerId: 'ann' }, actor))
      .then('PERSONAL_TABLE');
  });

  it('another player may not bet or deal there: PERSONAL_TABLE', () => {
    given(opened)
      .when(cmd('PlaceBet', { roundNo: 1, playerId: 'bob', spot: 'player', amount: 500 }, bob))
      .then('PERSONAL_TABLE');
    given(withBet)
      .when(cmd('Deal', { roundNo: 1 }, bob))
      .then('PERSONAL_TABLE');
  });

  it('its player bets, clears and deals', () => {
    given(opened)
      .when(bet(1, 'ann', 'player', 500))
      .thenMatch([{ type: 'BetPlaced', data: { playerId: 'ann', by: 'ann' } }]);
    given(withBet)
      .when(cmd('ClearBets', { roundNo: 1, playerId: 'ann' }, ann))
      .thenMatch([{ type: 'BetsCleared' }]);
    const dealt = given(withBet).when(cmd('Deal', { roundNo: 1, nextSeed: seed('personal-2') }, ann));
    expect(dealt.events.map((e) => e.type)).toContain('CoupResolved');
  });
});

describe('only its player is seated', () => {
  it('an admin may not seat another player: PERSONAL_TABLE', () => {
    given(opened)
      .when(cmd('BuyIn', { playerId: 'bob', amount: 10_000 }, admin))
      .then('PERSONAL_TABLE', { owner: 'ann', playerId: 'bob' });
    given(opened)
      .when(cmd('BuyIn', { playerId: 'bob', amount: 10_000 }, cashier))
      .then('PERSONAL_TABLE');
  });

  it('chips for its player are taken', () => {
    given(opened)
      .when(cmd('BuyIn', { playerId: 'ann', amount: 10_000 }, cashier))
      .thenMatch([{ type: 'PlayerBoughtIn', data: { playerId: 'ann', chips: 110_000 } }]);
  });
});

describe('shoes and betting are run by the online croupier', () => {
  const dealt = continueHistory(withBet, cmd('Deal', { roundNo: 1 }, ann));

  it.each<[string, Actor]>([
    ['a dealer', dealer],
    ['a supervisor', supervisor],
  ])('%s may not open or close betting or start a shoe: PERSONAL_TABLE', (_label, actor) => {
    given(dealt)
      .when(cmd('OpenBetting', { seed: seed('personal-3') }, actor))
      .then('PERSONAL_TABLE');
    given(dealt)
      .when(cmd('StartShoe', { seed: seed('personal-3') }, actor))
      .then('PERSONAL_TABLE');
    given(withBet)
      .when(cmd('CloseBetting', { roundNo: 1 }, actor))
      .then('PERSONAL_TABLE');
  });

  it('the croupier opens the next coup', () => {
    given(dealt)
      .when(cmd('OpenBetting', { seed: seed('personal-3') }, croupier))
      .thenMatch([{ type: 'ShoeStarted' }, { type: 'BettingOpened', data: { roundNo: 2 } }]);
  });
});

describe('the casino keeps its own powers', () => {
  it('a supervisor voids the round, every bet returned', () => {
    given(withBet)
      .when(cmd('VoidRound', { roundNo: 1, reason: 'player dispute' }, supervisor))
      .thenMatch([{ type: 'RoundVoided', data: { returned: [{ playerId: 'ann' }] } }]);
  });

  it('an admin closes the table between coups with the player cashed out', () => {
    given(opened)
      .when(cmd('CloseTable', {}, admin))
      .then('PLAYERS_SEATED', { players: ['ann'] });
    given(opened)
      .when(cmd('CloseTable', { cashOutAll: true }, admin))
      .thenMatch([
        { type: 'RoundVoided' },
        { type: 'PlayerCashedOut', data: { playerId: 'ann', paid: 100_000 } },
        { type: 'ShoeEnded' },
        { type: 'TableClosed' },
      ]);
  });
});

describe('a personal table is always the online game', () => {
  it('an online-<player> table must be player-dealt: PERSONAL_TABLE', () => {
    given([])
      .when(open({}, onlineTableId('bob')))
      .then('PERSONAL_TABLE', { tableId: 'online-bob', owner: 'bob' });
    given([])
      .when(open(GAME, onlineTableId('bob')))
      .thenMatch([{ type: 'TableOpened', data: { tableId: 'online-bob' } }]);
  });

  it('other player-dealt tables keep staff dealing (the rule is the personal table’s)', () => {
    const t = history(
      open(GAME, 'T1'),
      cmd('BuyIn', { playerId: 'ann', amount: 10_000 }, admin),
      cmd('OpenBetting', { seed: seed('shared-1') }),
      bet(1, 'ann', 'player', 500),
    );
    given(t)
      .when(cmd('PlaceBet', { roundNo: 1, playerId: 'ann', spot: 'player', amount: 500 }, dealer))
      .thenMatch([{ type: 'BetPlaced' }]);
    const dealt = given(t).when(cmd('Deal', { roundNo: 1 }, dealer)).events;
    expect(dealt[0]).toMatchObject({ type: 'BettingClosed', data: { by: 'dealer', actorId: dealer.id } });
  });
});
