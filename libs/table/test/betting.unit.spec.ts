import { betsOf, fold, playerOf } from '../src';
import {
  CARDS,
  T0,
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
  player,
  seed,
  supervisor,
} from './support';

const ready = liveReady(); // live table, p1 and p2 with 100,000 each
const betting = continueHistory(ready, cmd('OpenBetting', {}));

/** Plays round `roundNo` (already open) to its end with a banker natural. */
function finish(roundNo: number) {
  return [cmd('CloseBetting', { roundNo }), ...dealCards(roundNo, CARDS.bankerNatural)];
}

describe('OpenBetting', () => {
  it('opens round 1 of the shoe (no timer: no deadline)', () => {
    given(ready)
      .when(cmd('OpenBetting', {}))
      .then([
        {
          type: 'BettingOpened',
          data: { roundNo: 1, shoeNo: 1, deadline: null, at: T0, by: dealer.id, role: 'dealer' },
        },
      ]);
    expect(fold(betting).phase).toBe('betting');
  });

  it('numbers rounds on from the last one', () => {
    const after = continueHistory(betting, ...finish(1));
    given(after)
      .when(cmd('OpenBetting', {}))
      .thenMatch([{ type: 'BettingOpened', data: { roundNo: 2 } }]);
  });

  it('is refused while a round is open: WRONG_PHASE', () => {
    given(betting).when(cmd('OpenBetting', {})).then('WRONG_PHASE');
    given(continueHistory(betting, cmd('CloseBetting', { roundNo: 1 })))
      .when(cmd('OpenBetting', {}))
      .then('WRONG_PHASE');
  });

  it('takes no seed on shoe tables: WRONG_DEALING_MODE', () => {
    given(ready)
      .when(cmd('OpenBetting', { seed: seed(1) }))
      .then('WRONG_DEALING_MODE');
  });
});

describe('PlaceBet', () => {
  it('moves the chips to the spot', () => {
    const then = given(betting)
      .when(bet(1, 'p1', 'banker', 2500))
      .then([
        {
          type: 'BetPlaced',
          data: {
            roundNo: 1,
            playerId: 'p1',
            spot: 'banker',
            amount: 2500,
            spotTotal: 2500,
            chips: 97_500,
            rebet: false,
            at: T0,
            by: 'p1',
            role: 'player',
          },
        },
      ]);
    expect(playerOf(then.state, 'p1')?.chips).toBe(97_500);
    expect(betsOf(then.state, 'p1')).toEqual({ player: 0, banker: 2500, tie: 0 });
  });

  it('adds to the spot total', () => {
    given(continueHistory(betting, bet(1, 'p1', 'tie', 500)))
      .when(bet(1, 'p1', 'tie', 100))
      .thenMatch([{ type: 'BetPlaced', data: { amount: 100, spotTotal: 600, chips: 99_400 } }]);
  });

  it('is refused when betting is not open: BETTING_CLOSED', () => {
    given(ready)
      .when(bet(1, 'p1', 'player', 100))
      .then('BETTING_CLOSED');
    const closed = continueHistory(betting, cmd('CloseBetting', { roundNo: 1 }));
    given(closed)
      .when(bet(1, 'p1', 'player', 100))
      .then('BETTING_CLOSED');
    given(continueHistory(closed, ...dealCards(1, CARDS.bankerNatural)))
      .when(bet(1, 'p1', 'player', 100))
      .then('BETTING_CLOSED');
  });

  it('is refused for another round: WRONG_ROUND', () => {
    given(betting)
      .when(bet(2, 'p1', 'player', 100))
      .then('WRONG_ROUND', { roundNo: 2, currentRoundNo: 1 });
    given(betting)
      .when(bet(0, 'p1', 'player', 100))
      .then('INVALID_COMMAND');
  });

  it('refuses a bad spot: INVALID_SPOT', () => {
    given(betting)
      .when(cmd('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'pair' as 'tie', amount: 100 }, player('p1')))
      .then('INVALID_SPOT');
  });

  it.each([0, -100, 100.5, '100', null, Number.MAX_SAFE_INTEGER + 1])(
    'refuses amount %p: INVALID_AMOUNT',
    (amount) => {
      given(betting)
        .when(
          cmd(
            'PlaceBet',
            { roundNo: 1, playerId: 'p1', spot: 'player', amount: amount as number },
            player('p1'),
          ),
        )
        .then('INVALID_AMOUNT');
    },
  );

  it('refuses an amount not made of the chips: INVALID_AMOUNT', () => {
    given(betting)
      .when(bet(1, 'p1', 'player', 150))
      .then('INVALID_AMOUNT', { unit: 100 });
    const quarters = continueHistory(
      history(open({ dealing: 'live', chips: [25, 100], limits: { player: { min: 25 } } }), buy('p1', 1000)),
      cmd('StartShoe', { firstCard: '2c' }),
      cmd('OpenBetting', {}),
    );
    given(quarters)
      .when(bet(1, 'p1', 'player', 75))
      .thenMatch([{ type: 'BetPlaced' }]);
    given(quarters)
      .when(bet(1, 'p1', 'player', 60))
      .then('INVALID_AMOUNT', { unit: 25 });
  });

  it('refuses a spot total above the maximum: BET_LIMIT', () => {
    given(betting)
      .when(bet(1, 'p1', 'tie', 100_100))
      .then('BET_LIMIT', { spot: 'tie', max: 100_000, min: 100, spotTotal: 100_100 });
    given(continueHistory(betting, bet(1, 'p1', 'tie', 100_000)))
      .when(bet(1, 'p1', 'tie', 100))
      .then('BET_LIMIT', { spotTotal: 100_100 });
    // up to the maximum is fine
    given(continueHistory(betting, bet(1, 'p1', 'tie', 99_900)))
      .when(bet(1, 'p1', 'tie', 100))
      .thenMatch([{ type: 'BetPlaced', data: { spotTotal: 100_000 } }]);
  });

  it('refuses a spot total below the minimum on dealer-dealt tables: BET_LIMIT', () => {
    const t = continueHistory(
      history(open({ dealing: 'live', limits: { player: { min: 1000 } } }), buy('p1', 100_000)),
      cmd('StartShoe', { firstCard: '2c' }),
      cmd('OpenBetting', {}),
    );
    given(t)
      .when(bet(1, 'p1', 'player', 500))
      .then('BET_LIMIT', { spot: 'player', min: 1000, spotTotal: 500 });
    given(t)
      .when(bet(1, 'p1', 'player', 1000))
      .thenMatch([{ type: 'BetPlaced' }]);
    // the limit is on the player's own spot total, not the first chip
    given(continueHistory(t, bet(1, 'p1', 'player', 1000)))
      .when(bet(1, 'p1', 'player', 100))
      .thenMatch([{ type: 'BetPlaced', data: { spotTotal: 1100 } }]);
  });

  it('refuses a bet beyond the chips: INSUFFICIENT_CHIPS', () => {
    const t = continueHistory(betting, buy('p3', 1000));
    given(t)
      .when(bet(1, 'p3', 'player', 1100))
      .then('INSUFFICIENT_CHIPS', { chips: 1000, needed: 1100 });
    given(continueHistory(t, bet(1, 'p3', 'player', 600)))
      .when(bet(1, 'p3', 'tie', 500))
      .then('INSUFFICIENT_CHIPS', { chips: 400, needed: 500 });
    given(t)
      .when(bet(1, 'p3', 'player', 1000))
      .thenMatch([{ type: 'BetPlaced', data: { chips: 0 } }]);
  });

  it('refuses player and banker together: PLAYER_AND_BANKER (tie with either is fine)', () => {
    const onPlayer = continueHistory(betting, bet(1, 'p1', 'player', 100));
    given(onPlayer)
      .when(bet(1, 'p1', 'banker', 100))
      .then('PLAYER_AND_BANKER');
    given(onPlayer)
      .when(bet(1, 'p1', 'tie', 100))
      .thenMatch([{ type: 'BetPlaced' }]);
    given(onPlayer)
      .when(bet(1, 'p2', 'banker', 100))
      .thenMatch([{ type: 'BetPlaced' }]);
    const onBanker = continueHistory(betting, bet(1, 'p1', 'banker', 100));
    given(onBanker)
      .when(bet(1, 'p1', 'player', 100))
      .then('PLAYER_AND_BANKER');
  });

  it('allows player and banker together where the rules say so', () => {
    const t = continueHistory(
      history(open({ dealing: 'live', allowPlayerAndBanker: true }), buy('p1', 10_000)),
      cmd('StartShoe', { firstCard: '2c' }),
      cmd('OpenBetting', {}),
      bet(1, 'p1', 'player', 100),
    );
    given(t)
      .when(bet(1, 'p1', 'banker', 100))
      .thenMatch([{ type: 'BetPlaced' }]);
  });

  it('refuses a player who is not seated: UNKNOWN_PLAYER', () => {
    given(betting)
      .when(bet(1, 'p9', 'player', 100))
      .then('UNKNOWN_PLAYER');
    given(betting)
      .when(cmd('PlaceBet', { roundNo: 1, playerId: 'p9', spot: 'player', amount: 100 }, dealer))
      .then('UNKNOWN_PLAYER');
  });
});

describe('ClearBets', () => {
  const placed = continueHistory(betting, bet(1, 'p1', 'player', 1000), bet(1, 'p1', 'tie', 200));

  it('returns all the player’s bets of this round', () => {
    const then = given(placed)
      .when(cmd('ClearBets', { roundNo: 1, playerId: 'p1' }, player('p1')))
      .then([
        {
          type: 'BetsCleared',
          data: {
            roundNo: 1,
            playerId: 'p1',
            bets: { player: 1000, banker: 0, tie: 200 },
            returned: 1200,
            chips: 100_000,
            at: T0,
            by: 'p1',
            role: 'player',
          },
        },
      ]);
    expect(playerOf(then.state, 'p1')?.chips).toBe(100_000);
    expect(betsOf(then.state, 'p1')).toEqual({ player: 0, banker: 0, tie: 0 });
    expect(playerOf(then.state, 'p1')?.bets).toBeNull();
    // and the player may bet again, even on the other side
    given([...placed, ...then.events])
      .when(bet(1, 'p1', 'banker', 500))
      .thenMatch([{ type: 'BetPlaced' }]);
  });

  it('is refused with no bets: NO_BETS', () => {
    given(placed)
      .when(cmd('ClearBets', { roundNo: 1, playerId: 'p2' }, player('p2')))
      .then('NO_BETS');
  });

  it('is refused outside betting: BETTING_CLOSED, or for another round: WRONG_ROUND', () => {
    given(continueHistory(placed, cmd('CloseBetting', { roundNo: 1 })))
      .when(cmd('ClearBets', { roundNo: 1, playerId: 'p1' }, player('p1')))
      .then('BETTING_CLOSED');
    given(placed)
      .when(cmd('ClearBets', { roundNo: 3, playerId: 'p1' }, player('p1')))
      .then('WRONG_ROUND');
  });

  it('refuses a player who is not seated: UNKNOWN_PLAYER', () => {
    given(placed)
      .when(cmd('ClearBets', { roundNo: 1, playerId: 'p9' }, admin))
      .then('UNKNOWN_PLAYER');
  });
});

describe('Rebet', () => {
  const rebet = (roundNo: number, playerId: string) => cmd('Rebet', { roundNo, playerId }, player(playerId));
  const round1 = continueHistory(
    betting,
    bet(1, 'p1', 'player', 1000),
    bet(1, 'p1', 'tie', 200),
    ...finish(1),
  );
  const round2 = continueHistory(round1, cmd('OpenBetting', {}));

  it('is refused before the player has bet in any round: NO_PREVIOUS_BETS', () => {
    given(betting).when(rebet(1, 'p1')).then('NO_PREVIOUS_BETS');
    given(round2).when(rebet(2, 'p2')).then('NO_PREVIOUS_BETS');
  });

  it('places the bets of the player’s last round', () => {
    given(round2)
      .when(rebet(2, 'p1'))
      .thenMatch([
        {
          type: 'BetPlaced',
          data: { roundNo: 2, spot: 'player', amount: 1000, spotTotal: 1000, rebet: true },
        },
        { type: 'BetPlaced', data: { roundNo: 2, spot: 'tie', amount: 200, spotTotal: 200, rebet: true } },
      ]);
  });

  it('adds them to bets already placed this round', () => {
    given(continueHistory(round2, bet(2, 'p1', 'player', 100)))
      .when(rebet(2, 'p1'))
      .thenMatch([
        { type: 'BetPlaced', data: { spot: 'player', amount: 1000, spotTotal: 1100 } },
        { type: 'BetPlaced', data: { spot: 'tie', amount: 200, spotTotal: 200 } },
      ]);
  });

  it('remembers the last round the player bet in, skipping rounds it sat out or cleared', () => {
    const r2 = continueHistory(
      round2,
      bet(2, 'p1', 'tie', 100),
      cmd('ClearBets', { roundNo: 2, playerId: 'p1' }, player('p1')),
      ...finish(2),
    );
    const r3 = continueHistory(r2, cmd('OpenBetting', {}));
    given(r3)
      .when(rebet(3, 'p1'))
      .thenMatch([
        { type: 'BetPlaced', data: { spot: 'player', amount: 1000 } },
        { type: 'BetPlaced', data: { spot: 'tie', amount: 200 } },
      ]);
  });

  it('repeats the bets of a voided round (a misdeal replayed)', () => {
    const voided = continueHistory(
      round2,
      bet(2, 'p1', 'banker', 700),
      cmd('VoidRound', { roundNo: 2, reason: 'dealer misdeal' }, supervisor),
      cmd('OpenBetting', {}),
    );
    given(voided)
      .when(rebet(3, 'p1'))
      .thenMatch([{ type: 'BetPlaced', data: { spot: 'banker', amount: 700 } }]);
  });

  it('is all-or-nothing against the limits: BET_LIMIT and nothing placed', () => {
    // the player spot would fit, the tie spot would pass its maximum: neither is placed
    const t = continueHistory(round2, buy('p1', 100_000), bet(2, 'p1', 'tie', 99_900));
    given(t).when(rebet(2, 'p1')).then('BET_LIMIT', { spot: 'tie', spotTotal: 100_100 });
  });

  it('is all-or-nothing against the chips: INSUFFICIENT_CHIPS and nothing placed', () => {
    // p1 lost round 1 (98,800 left); stake all but 1,100 on player: the rebet needs 1,200
    const t = continueHistory(round2, bet(2, 'p1', 'player', 97_700));
    expect(playerOf(fold(t), 'p1')?.chips).toBe(1100);
    given(t).when(rebet(2, 'p1')).then('INSUFFICIENT_CHIPS', { chips: 1100, needed: 1200 });
  });

  it('refuses when chips run short (limits fine): INSUFFICIENT_CHIPS', () => {
    const small = history(
      open({ dealing: 'live' }),
      buy('p1', 1500),
      cmd('StartShoe', { firstCard: '2c' }),
      cmd('OpenBetting', {}),
    );
    const lost = continueHistory(small, bet(1, 'p1', 'player', 1000), ...finish(1), cmd('OpenBetting', {}));
    expect(playerOf(fold(lost), 'p1')?.chips).toBe(500);
    given(lost).when(rebet(2, 'p1')).then('INSUFFICIENT_CHIPS', { chips: 500, needed: 1000 });
  });

  it('respects player-and-banker: PLAYER_AND_BANKER', () => {
    given(continueHistory(round2, bet(2, 'p1', 'banker', 100)))
      .when(rebet(2, 'p1'))
      .then('PLAYER_AND_BANKER');
  });

  it('is refused outside betting: BETTING_CLOSED', () => {
    given(round1).when(rebet(2, 'p1')).then('BETTING_CLOSED');
  });
});

describe('CloseBetting', () => {
  it('closes the round (no more bets)', () => {
    const then = given(betting)
      .when(cmd('CloseBetting', { roundNo: 1 }))
      .then([
        {
          type: 'BettingClosed',
          data: { roundNo: 1, by: 'dealer', actorId: dealer.id, role: 'dealer', at: T0 },
        },
      ]);
    expect(then.state.phase).toBe('dealing');
  });

  it('is refused outside betting: WRONG_PHASE, or for another round: WRONG_ROUND', () => {
    given(ready)
      .when(cmd('CloseBetting', { roundNo: 1 }))
      .then('WRONG_PHASE');
    given(continueHistory(betting, cmd('CloseBetting', { roundNo: 1 })))
      .when(cmd('CloseBetting', { roundNo: 1 }))
      .then('WRONG_PHASE');
    given(betting)
      .when(cmd('CloseBetting', { roundNo: 2 }))
      .then('WRONG_ROUND');
  });

  it('nothing is accepted after it: PlaceBet, ClearBets, Rebet are BETTING_CLOSED', () => {
    const closed = continueHistory(betting, bet(1, 'p1', 'player', 100), cmd('CloseBetting', { roundNo: 1 }));
    given(closed)
      .when(bet(1, 'p2', 'player', 100))
      .then('BETTING_CLOSED');
    given(closed)
      .when(cmd('ClearBets', { roundNo: 1, playerId: 'p1' }, player('p1')))
      .then('BETTING_CLOSED');
    given(closed)
      .when(cmd('Rebet', { roundNo: 1, playerId: 'p1' }, player('p1')))
      .then('BETTING_CLOSED');
  });
});
