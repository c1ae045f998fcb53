/**
 * Game modes and side bets in the decider: the rules that offer them, the bets, their settlement in the coup's
 * `CoupResolved`, and their return on a clear, a void and a rebet.
 */
import { type Spot, fold, gameOf, normalizeRules, offeredSpots } from '../src';
import {
  admin,
  buy,
  cmd,
  continueHistory,
  dealCards,
  given,
  history,
  liveReady,
  open,
  player,
  supervisor,
} from './support';

function sideBet(roundNo: number, playerId: string, spot: string, amount: number) {
  return cmd('PlaceBet', { roundNo, playerId, spot: spot as Spot, amount }, player(playerId));
}

/** Player 2+3=5 draws K (5); banker 3+T=3 draws on a 0 and takes 4: a three-card banker 7 wins (Dragon 7). */
const DRAGON_7: readonly string[] = ['2c', '3d', '3c', 'Td', 'Kc', '4h'];
/** Player 2+3=5 draws K (5); banker 3+3=6 stands on a player's 0: banker wins with 6 on five cards. */
const BANKER_SIX = ['2c', '3d', '3c', '3h', 'Kc'];
/** Player 5+4=9 natural, banker 3+3=6: a natural player win, and a pair of sixes? no: banker 3+3 is a pair. */
const PLAYER_NATURAL_BANKER_PAIR = ['5c', '3d', '4c', '3h'];

const EZ = { game: 'ez', sideBets: { dragon7: { min: 100, max: 10_000 }, panda8: {}, playerPair: {} } };

describe('OpenTable with a game mode and side bets', () => {
  it('records the mode and each side bet with its paytable and limits (defaults: the first paytable, the tie limits)', () => {
    const events = history(open(EZ));
    expect(events[0]).toMatchObject({
      type: 'TableOpened',
      data: {
        rules: {
          game: 'ez',
          sideBets: {
            playerPair: { paytable: '11-to-1', min: 100, max: 100_000 },
            dragon7: { paytable: '40-to-1', min: 100, max: 10_000 },
            panda8: { paytable: '25-to-1', min: 100, max: 100_000 },
          },
        },
      },
    });
    const rules = fold(events).rules!;
    expect(gameOf(rules)).toBe('ez');
    expect(offeredSpots(rules)).toEqual(['player', 'banker', 'tie', 'playerPair', 'dragon7', 'panda8']);
  });

  it('records a commission table without side bets exactly as before modes existed (no game, no sideBets)', () => {
    const rules = fold(history(open({}))).rules!;
    expect(Object.keys(rules)).not.toContain('game');
    expect(Object.keys(rules)).not.toContain('sideBets');
    expect(gameOf(rules)).toBe('commission');
  });

  it.each([
    [{ sideBets: { dragon7: {} } }, 'sideBets.dragon7', 'only on ez'],
    [{ game: 'ez', sideBets: { super6: {} } }, 'sideBets.super6', 'only on no-commission'],
    [{ shuffle: 'every-coup', sideBets: { big: {} } }, 'sideBets.big', 'only on shoe games'],
    [{ sideBets: { playerPair: { paytable: '12-to-1' } } }, 'sideBets.playerPair', 'no paytable'],
    [{ sideBets: { pair: {} } }, 'sideBets.pair', 'is not a side bet'],
    [{ sideBets: { playerPair: { min: 100, max: 600_000 } } }, 'sideBets.playerPair.max', "table's maximum"],
    [{ sideBets: { playerPair: { min: 150 } } }, 'sideBets.playerPair.min', 'chip unit'],
    [{ sideBets: { playerPair: { odds: 11 } } }, 'sideBets.playerPair.odds', 'not a side bet field'],
    [{ sideBets: [] }, 'sideBets', 'must be an object'],
    [{ game: 'ez', commission: 'box' }, 'commission', 'only to the commission game'],
    [{ game: 'no-commission', commission: 'box' }, 'commission', 'only to the commission game'],
    [{ game: 'punto' }, 'game', 'must be one of'],
    [{ decks: 1, cutCard: 12, sideBets: { perfectPair: {} } }, 'sideBets.perfectPair', 'can never win'],
    [{ sideBets: { playerPair: { min: null } } }, 'sideBets.playerPair.min', 'positive integer'],
    [{ sideBets: { playerPair: { paytable: null } } }, 'sideBets.playerPair.paytable', 'paytable name'],
  ])('refuses rules that make no sense: %j -> INVALID_RULES on %s', (rules, field, words) => {
    const result = normalizeRules(rules);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_RULES');
    expect(result.error.details).toMatchObject({ field });
    expect(result.error.message).toContain(words);
    given([]).when(open(rules)).then('INVALID_RULES', { field });
  });
});

it.each([
  {},
  { commission: 'box', sideBets: { playerPair: {}, big: { min: 500, max: 5000 } } },
  { game: 'no-commission', sideBets: { super6: { paytable: '15-to-1' } } },
  { game: 'ez', dealing: 'live', sideBets: { dragon7: {}, panda8: {} } },
])('recorded rules normalize again to themselves: %j', (raw) => {
  const once = normalizeRules(raw);
  if (!once.ok) throw new Error(once.error.message);
  expect(normalizeRules(once.value)).toEqual(once);
});

describe('PlaceBet on a side bet', () => {
  const opened = continueHistory(liveReady(EZ), cmd('OpenBetting', {}));
  const betting = continueHistory(opened, sideBet(1, 'p1', 'player', 1000));

  it('stakes a side bet the table offers, beside a main bet', () => {
    given(betting)
      .when(sideBet(1, 'p1', 'dragon7', 500))
      .thenMatch([
        { type: 'BetPlaced', data: { spot: 'dragon7', amount: 500, spotTotal: 500, chips: 98_500 } },
      ]);
  });

  it('refuses a side bet without a main bet in the round: MAIN_BET_REQUIRED, nothing recorded', () => {
    given(opened)
      .when(sideBet(1, 'p2', 'dragon7', 500))
      .then('MAIN_BET_REQUIRED', { playerId: 'p2' });
    // another player's main bet does not count
    given(betting)
      .when(sideBet(1, 'p2', 'panda8', 500))
      .then('MAIN_BET_REQUIRED');
    // a tie bet is a main bet
    const tie = continueHistory(opened, sideBet(1, 'p2', 'tie', 100));
    given(tie)
      .when(sideBet(1, 'p2', 'panda8', 500))
      .thenMatch([{ type: 'BetPlaced', data: { spot: 'panda8' } }]);
  });

  it('refuses a side bet the table does not offer: SPOT_NOT_OFFERED, nothing recorded', () => {
    given(betting)
      .when(sideBet(1, 'p1', 'bankerDragon', 500))
      .then('SPOT_NOT_OFFERED', { spot: 'bankerDragon' });
    given(betting)
      .when(sideBet(1, 'p1', 'super6', 500))
      .then('SPOT_NOT_OFFERED');
  });

  it('refuses an unknown spot: INVALID_SPOT', () => {
    given(betting)
      .when(sideBet(1, 'p1', 'dragon', 500))
      .then('INVALID_SPOT');
  });

  it("holds the side bet's own limits: BET_LIMIT", () => {
    const after = continueHistory(betting, sideBet(1, 'p1', 'dragon7', 10_000));
    given(after)
      .when(sideBet(1, 'p1', 'dragon7', 100))
      .then('BET_LIMIT', { spot: 'dragon7', max: 10_000 });
  });

  it('returns side bets with the main ones on ClearBets', () => {
    const placed = continueHistory(betting, sideBet(1, 'p1', 'dragon7', 500));
    given(placed)
      .when(cmd('ClearBets', { roundNo: 1, playerId: 'p1' }, player('p1')))
      .thenMatch([
        {
          type: 'BetsCleared',
          data: { bets: { player: 1000, banker: 0, tie: 0, dragon7: 500 }, returned: 1500, chips: 100_000 },
        },
      ]);
  });

  it('returns side bets on a void, in the player total', () => {
    const placed = continueHistory(
      betting,
      sideBet(1, 'p1', 'panda8', 500),
      cmd('CloseBetting', { roundNo: 1 }),
    );
    given(placed)
      .when(cmd('VoidRound', { roundNo: 1, reason: 'misdeal at the shoe' }, supervisor))
      .thenMatch([{ type: 'RoundVoided', data: { returned: [{ playerId: 'p1', amount: 1500 }] } }]);
  });

  it('repeats side bets on Rebet', () => {
    const round1 = continueHistory(
      betting,
      sideBet(1, 'p1', 'playerPair', 200),
      cmd('CloseBetting', { roundNo: 1 }),
      ...dealCards(1, DRAGON_7),
      cmd('OpenBetting', {}),
    );
    given(round1)
      .when(cmd('Rebet', { roundNo: 2, playerId: 'p1' }, player('p1')))
      .thenMatch([
        { type: 'BetPlaced', data: { spot: 'player', amount: 1000, rebet: true } },
        { type: 'BetPlaced', data: { spot: 'playerPair', amount: 200, rebet: true } },
      ]);
  });
});

describe('settlement by game mode, side bets in CoupResolved', () => {
  it('EZ: a three-card banker 7 pushes banker bets and pays Dragon 7 at 40:1; Panda 8 loses', () => {
    const dealing = continueHistory(
      liveReady(EZ),
      cmd('OpenBetting', {}),
      sideBet(1, 'p1', 'banker', 1000),
      sideBet(1, 'p1', 'dragon7', 500),
      sideBet(1, 'p2', 'tie', 100),
      sideBet(1, 'p2', 'panda8', 500),
      cmd('CloseBetting', { roundNo: 1 }),
      ...dealCards(1, DRAGON_7.slice(0, 5)),
    );
    const then = given(dealing)
      .when(cmd('DealCard', { roundNo: 1, card: '4h' }))
      .thenMatch([
        { type: 'CardDealt' },
        {
          type: 'CoupResolved',
          data: {
            outcome: 'banker',
            bankerTotal: 7,
            settlements: [
              { playerId: 'p1', spot: 'banker', amount: 1000, result: 'push', paid: 1000, commission: 0 },
              {
                playerId: 'p1',
                spot: 'dragon7',
                amount: 500,
                result: 'win',
                paid: 20_500,
                commission: 0,
                paytable: '40-to-1',
              },
              { playerId: 'p2', spot: 'tie', amount: 100, result: 'lose', paid: 0 },
              { playerId: 'p2', spot: 'panda8', amount: 500, result: 'lose', paid: 0, paytable: '25-to-1' },
            ],
          },
        },
      ]);
    const players = then.state.players;
    expect(players.find((p) => p.playerId === 'p1')?.chips).toBe(100_000 - 1500 + 1000 + 20_500);
    expect(players.find((p) => p.playerId === 'p2')?.chips).toBe(100_000 - 600);
  });

  it('no-commission: a banker 6 pays 1:2 (rounded down to the cent), Super 6 by its 15:1 paytable, Big wins on five cards', () => {
    const rules = {
      game: 'no-commission',
      sideBets: { super6: { paytable: '15-to-1' }, big: {}, small: {} },
    };
    const events = continueHistory(
      liveReady(rules),
      cmd('OpenBetting', {}),
      sideBet(1, 'p1', 'banker', 1100),
      sideBet(1, 'p1', 'super6', 200),
      sideBet(1, 'p2', 'tie', 100),
      sideBet(1, 'p2', 'big', 500),
      sideBet(1, 'p2', 'small', 500),
      cmd('CloseBetting', { roundNo: 1 }),
      ...dealCards(1, BANKER_SIX),
    );
    const resolved = events.find((e) => e.type === 'CoupResolved');
    expect(resolved?.data).toMatchObject({
      outcome: 'banker',
      bankerTotal: 6,
      cardsUsed: 5,
      settlements: [
        { playerId: 'p1', spot: 'banker', amount: 1100, result: 'win', paid: 1650, commission: 0 },
        { playerId: 'p1', spot: 'super6', amount: 200, result: 'win', paid: 3200, paytable: '15-to-1' },
        { playerId: 'p2', spot: 'tie', amount: 100, result: 'lose', paid: 0 },
        { playerId: 'p2', spot: 'big', amount: 500, result: 'win', paid: 770, paytable: '0.54-to-1' },
        { playerId: 'p2', spot: 'small', amount: 500, result: 'lose', paid: 0, paytable: '1.5-to-1' },
      ],
    });
  });

  it('commission game: pairs and Dragon Bonus settle beside the main bets, commission unchanged', () => {
    const rules = { commission: 'box', sideBets: { bankerPair: {}, playerDragon: {}, bankerDragon: {} } };
    const events = continueHistory(
      liveReady(rules),
      cmd('OpenBetting', {}),
      sideBet(1, 'p1', 'player', 1000),
      sideBet(1, 'p1', 'bankerPair', 100),
      sideBet(1, 'p2', 'banker', 100),
      sideBet(1, 'p2', 'playerDragon', 300),
      sideBet(1, 'p2', 'bankerDragon', 300),
      cmd('CloseBetting', { roundNo: 1 }),
      ...dealCards(1, PLAYER_NATURAL_BANKER_PAIR),
    );
    expect(events.find((e) => e.type === 'CoupResolved')?.data).toMatchObject({
      outcome: 'player',
      natural: true,
      settlements: [
        { playerId: 'p1', spot: 'player', amount: 1000, result: 'win', paid: 2000, commission: 0 },
        { playerId: 'p1', spot: 'bankerPair', amount: 100, result: 'win', paid: 1200, paytable: '11-to-1' },
        { playerId: 'p2', spot: 'banker', amount: 100, result: 'lose', paid: 0 },
        { playerId: 'p2', spot: 'playerDragon', amount: 300, result: 'win', paid: 600, paytable: 'standard' },
        { playerId: 'p2', spot: 'bankerDragon', amount: 300, result: 'lose', paid: 0, paytable: 'standard' },
      ],
    });
  });

  it('a player-dealt online table offers side bets too (opened by the pit)', () => {
    const events = history(
      cmd(
        'OpenTable',
        { tableId: 'solo', rules: { dealtBy: 'player', sideBets: { playerPair: {} } } },
        admin,
      ),
      buy('p1', 10_000),
    );
    expect(offeredSpots(fold(events).rules!)).toContain('playerPair');
  });
});

describe('a round takes at most maxStakes stakes (a coup’s record must fit one append of the store)', () => {
  const opened = continueHistory(liveReady({ maxStakes: 3 }), cmd('OpenBetting', {}));

  it('counts one stake per player and spot: adding to a stake is not a new one', () => {
    const two = continueHistory(opened, sideBet(1, 'p1', 'player', 100), sideBet(1, 'p1', 'tie', 100));
    given(two)
      .when(sideBet(1, 'p1', 'player', 100))
      .thenMatch([{ type: 'BetPlaced', data: { spotTotal: 200 } }]);
    given(two)
      .when(sideBet(1, 'p2', 'banker', 100))
      .thenMatch([{ type: 'BetPlaced' }]);
    const full = continueHistory(two, sideBet(1, 'p2', 'banker', 100));
    given(full)
      .when(sideBet(1, 'p2', 'tie', 100))
      .then('ROUND_FULL', { stakes: 3, max: 3 });
    // a clear frees its stakes
    const cleared = continueHistory(full, cmd('ClearBets', { roundNo: 1, playerId: 'p1' }, player('p1')));
    expect(fold(cleared).round?.stakes).toBe(1);
    given(cleared)
      .when(sideBet(1, 'p2', 'tie', 100))
      .thenMatch([{ type: 'BetPlaced' }]);
  });

  it('is 2,000 at most, and by default', () => {
    expect(normalizeRules({ maxStakes: 2001 }).ok).toBe(false);
    expect(normalizeRules({ maxStakes: 2000 }).ok).toBe(true);
    expect(fold(opened).round?.stakes).toBe(0);
  });
});
