/**
 * The online single-player game of the rules text 000: rng, 8 decks shuffled before every hand
 * (`every-coup`), chips $1 $5 $25 $100 $500, the player presses DEAL (`dealtBy: 'player'`).
 */
import { resolveCoup, seedFromHex, shuffleShoe } from '@coup/engine';
import { type TableEvent, fold, replyFor, tableView, playerOf } from '../src';
import {
  T0,
  admin,
  bet,
  buy,
  cmd,
  commitOf,
  continueHistory,
  dealer,
  given,
  history,
  open,
  player,
  seed,
} from './support';

const GAME = {
  shuffle: 'every-coup',
  dealtBy: 'player',
  limits: { player: { min: 500 }, banker: { min: 500 }, tie: { min: 500 } },
};
const ann = player('ann');
const deal = (roundNo: number, nextSeed?: string) =>
  cmd('Deal', nextSeed === undefined ? { roundNo } : { roundNo, nextSeed }, ann);
const seated = history(open(GAME), buy('ann', 100_000));
const s1 = seed('online-1');
const s2 = seed('online-2');
const first = continueHistory(seated, cmd('OpenBetting', { seed: s1 }));

describe('the first coup opens with a seed', () => {
  it('OpenBetting { seed } shuffles the coup (commitment published) and opens betting', () => {
    const c = cmd('OpenBetting', { seed: s1 });
    const then = given(seated)
      .when(c)
      .then([
        {
          type: 'ShoeStarted',
          data: {
            shoeNo: 1,
            dealing: 'rng',
            shuffle: 'every-coup',
            decks: 8,
            length: 416,
            commitment: commitOf(s1),
            seed: s1,
            burnCard: null,
            burnCount: 0,
            firstCoupIndex: 0,
            cutCard: null,
            at: T0,
            by: dealer.id,
            role: 'dealer',
          },
        },
        {
          type: 'BettingOpened',
          data: { roundNo: 1, shoeNo: 1, deadline: null, at: T0, by: dealer.id, role: 'dealer' },
        },
      ]);
    expect(replyFor(c, then.events, then.state)).toEqual({
      roundNo: 1,
      deadline: null,
      shoeNo: 1,
      commitment: commitOf(s1),
    });
  });

  it('without a seed there is no shoe: SHOE_NOT_STARTED', () => {
    given(seated).when(cmd('OpenBetting', {})).then('SHOE_NOT_STARTED');
  });

  it('refuses a bad seed: INVALID_SEED', () => {
    given(seated)
      .when(cmd('OpenBetting', { seed: 'xyz' }))
      .then('INVALID_SEED');
  });

  it('StartShoe then OpenBetting works as well; a second seed is SHOE_IN_PROGRESS', () => {
    const started = continueHistory(seated, cmd('StartShoe', { seed: s1 }));
    given(started)
      .when(cmd('OpenBetting', { seed: s2 }))
      .then('SHOE_IN_PROGRESS');
    given(started)
      .when(cmd('OpenBetting', {}))
      .thenMatch([{ type: 'BettingOpened', data: { roundNo: 1, shoeNo: 1 } }]);
  });
});

describe('betting toward the minimum, then DEAL', () => {
  it('takes chips below the minimum while building the bet (the minimum is checked at DEAL)', () => {
    given(first)
      .when(bet(1, 'ann', 'player', 100))
      .thenMatch([{ type: 'BetPlaced', data: { spotTotal: 100 } }]);
  });

  it('refuses DEAL with no bet: MINIMUM_BET_REQUIRED', () => {
    given(first).when(deal(1, s2)).then('MINIMUM_BET_REQUIRED');
  });

  it('refuses DEAL with a spot under its minimum: MINIMUM_BET_REQUIRED', () => {
    const t = continueHistory(first, bet(1, 'ann', 'player', 500), bet(1, 'ann', 'tie', 100));
    given(t).when(deal(1, s2)).then('MINIMUM_BET_REQUIRED', { spot: 'tie', amount: 100, min: 500 });
  });

  it('the table maximum stops a chip that would pass it: BET_LIMIT', () => {
    const t = continueHistory(first, bet(1, 'ann', 'tie', 100_000));
    given(t)
      .when(bet(1, 'ann', 'tie', 100))
      .then('BET_LIMIT', { max: 100_000 });
  });

  describe('DEAL', () => {
    const placed = continueHistory(first, bet(1, 'ann', 'banker', 400), bet(1, 'ann', 'banker', 100));
    const then = given(placed).when(deal(1, s2));
    const shoe = shuffleShoe(8, seedFromHex(s1));
    const expected = resolveCoup(shoe.slice(0, 6));

    it('closes betting, deals from the top of the freshly shuffled shoe, settles, reveals, and reopens', () => {
      expect(then.events.map((e) => e.type)).toEqual([
        'BettingClosed',
        ...Array.from({ length: expected.cardsUsed }, () => 'CardDealt'),
        'CoupResolved',
        'ShoeEnded',
        'ShoeStarted',
        'BettingOpened',
      ]);
      expect(then.events[0]).toEqual({
        type: 'BettingClosed',
        data: { roundNo: 1, by: 'player', actorId: 'ann', role: 'player', at: T0 },
      });
      const dealt = then.events.flatMap((e) => (e.type === 'CardDealt' ? [e.data] : []));
      expect(dealt.map((d) => d.card)).toEqual(shoe.slice(0, expected.cardsUsed));
      expect(dealt.map((d) => d.shoePosition)).toEqual(dealt.map((_, i) => i));
      expect(then.events.find((e) => e.type === 'CoupResolved')?.data).toMatchObject({
        playerCards: expected.playerCards,
        bankerCards: expected.bankerCards,
        outcome: expected.outcome,
        settlements: [{ playerId: 'ann', spot: 'banker', amount: 500 }],
      });
      expect(then.events.find((e) => e.type === 'ShoeEnded')).toEqual({
        type: 'ShoeEnded',
        data: { shoeNo: 1, seed: s1, reason: 'every-coup', coups: 1, at: T0, by: 'ann', role: 'player' },
      });
      expect(then.events.find((e) => e.type === 'ShoeStarted')?.data).toMatchObject({
        shoeNo: 2,
        commitment: commitOf(s2),
        seed: s2,
      });
      expect(then.events.at(-1)).toMatchObject({ type: 'BettingOpened', data: { roundNo: 2, shoeNo: 2 } });
      expect(then.state.phase).toBe('betting');
    });

    it('reveals a seed that matches the commitment published before the bet', () => {
      const all = [...placed, ...then.events];
      const started = all.find((e) => e.type === 'ShoeStarted' && e.data.shoeNo === 1);
      const firstBet = all.findIndex((e) => e.type === 'BetPlaced');
      expect(all.indexOf(started!)).toBeLessThan(firstBet);
      const ended = all.find((e) => e.type === 'ShoeEnded');
      if (started?.type !== 'ShoeStarted' || ended?.type !== 'ShoeEnded') throw new Error('missing events');
      expect(commitOf(ended.data.seed!)).toBe(started.data.commitment);
    });

    it('answers with the coup, the revealed seed and the next round', () => {
      expect(replyFor(deal(1, s2), then.events, then.state)).toMatchObject({
        roundNo: 1,
        outcome: expected.outcome,
        shoeEnded: { shoeNo: 1, seed: s1, reason: 'every-coup' },
        nextShoe: { shoeNo: 2, commitment: commitOf(s2) },
        nextRound: { roundNo: 2, deadline: null },
      });
    });

    it('shows the player the finished coup and the revealed seed, but never the next seed', () => {
      const view = tableView(then.state, ann);
      expect(view.lastResult).toMatchObject({ roundNo: 1, outcome: expected.outcome });
      expect(view.shoe).toMatchObject({ shoeNo: 2, commitment: commitOf(s2), seed: null });
      expect(JSON.stringify(view)).not.toContain(s2);
    });
  });

  it('without nextSeed the table waits in idle for a new seed', () => {
    const t = continueHistory(first, bet(1, 'ann', 'player', 500));
    const then = given(t).when(deal(1));
    expect(then.events.map((e) => e.type).slice(-2)).toEqual(['CoupResolved', 'ShoeEnded']);
    expect(then.state.phase).toBe('idle');
    given([...t, ...then.events])
      .when(cmd('OpenBetting', { seed: s2 }))
      .thenMatch([{ type: 'ShoeStarted' }, { type: 'BettingOpened', data: { roundNo: 2 } }]);
  });

  it('a player who is not seated cannot deal: UNKNOWN_PLAYER', () => {
    const t = continueHistory(first, bet(1, 'ann', 'player', 500));
    given(t)
      .when(cmd('Deal', { roundNo: 1 }, player('bob')))
      .then('UNKNOWN_PLAYER');
  });

  it('staff may deal it too (closing betting as the dealer)', () => {
    const t = continueHistory(first, bet(1, 'ann', 'player', 500));
    const events = given(t).when(cmd('Deal', { roundNo: 1, nextSeed: s2 }, dealer)).events;
    expect(events[0]).toMatchObject({ type: 'BettingClosed', data: { by: 'dealer', actorId: dealer.id } });
    expect(events.map((e) => e.type).slice(-4)).toEqual([
      'CoupResolved',
      'ShoeEnded',
      'ShoeStarted',
      'BettingOpened',
    ]);
  });
});

describe('a session: buy in, bet, DEAL, rebet, clear, cash out', () => {
  function play(): TableEvent[] {
    let events = continueHistory(
      first,
      bet(1, 'ann', 'banker', 500),
      bet(1, 'ann', 'tie', 500),
      deal(1, seed('n2')),
    );
    for (let roundNo = 2; roundNo <= 5; roundNo++) {
      events = continueHistory(
        events,
        cmd('Rebet', { roundNo, playerId: 'ann' }, ann),
        deal(roundNo, seed(`n${roundNo + 1}`)),
      );
    }
    return events;
  }

  it('plays five coups with REBET, each on its own committed and revealed shuffle', () => {
    const events = play();
    const started = events.flatMap((e) => (e.type === 'ShoeStarted' ? [e.data] : []));
    const ended = events.flatMap((e) => (e.type === 'ShoeEnded' ? [e.data] : []));
    expect(started).toHaveLength(6);
    expect(ended).toHaveLength(5);
    ended.forEach((e, i) => expect(commitOf(e.seed!)).toBe(started[i]!.commitment));
    const coups = events.flatMap((e) => (e.type === 'CoupResolved' ? [e.data] : []));
    expect(coups.map((c) => c.roundNo)).toEqual([1, 2, 3, 4, 5]);
    coups.forEach((c, i) => {
      expect(c.settlements.map((s) => [s.spot, s.amount])).toEqual([
        ['banker', 500],
        ['tie', 500],
      ]);
      const expected = resolveCoup(shuffleShoe(8, seedFromHex(ended[i]!.seed!)).slice(0, 6));
      expect(c.outcome).toBe(expected.outcome);
    });
    // chips: bought 100,000, plus what the coups paid, less the stakes
    const paid = coups.flatMap((c) => c.settlements).reduce((n, s) => n + s.paid, 0);
    expect(playerOf(fold(events), 'ann')?.chips).toBe(100_000 - 5 * 1000 + paid);
  });

  it('clears a bet, and exits (cash out) only with no bet on the layout', () => {
    const events = play();
    const withBet = continueHistory(events, bet(6, 'ann', 'player', 500));
    given(withBet)
      .when(cmd('CashOut', { playerId: 'ann' }, admin))
      .then('BETS_IN_PLAY');
    const cleared = continueHistory(withBet, cmd('ClearBets', { roundNo: 6, playerId: 'ann' }, ann));
    const chips = playerOf(fold(cleared), 'ann')!.chips;
    given(cleared)
      .when(cmd('CashOut', { playerId: 'ann' }, admin))
      .thenMatch([{ type: 'PlayerCashedOut', data: { paid: chips, commissionCollected: 0 } }]);
    // and the empty auto-opened round does not keep the table from closing (with the player cashed out)
    given(cleared)
      .when(cmd('CloseTable', { cashOutAll: true }))
      .thenMatch([
        { type: 'RoundVoided' },
        { type: 'PlayerCashedOut', data: { playerId: 'ann', paid: chips } },
        { type: 'ShoeEnded' },
        { type: 'TableClosed' },
      ]);
  });
});

describe('other combinations', () => {
  it('a dealer-dealt every-coup table: the seed per coup comes with OpenBetting or Deal.nextSeed', () => {
    const t = history(
      open({ shuffle: 'every-coup' }),
      buy('p1', 10_000),
      cmd('OpenBetting', { seed: s1 }),
      bet(1, 'p1', 'player', 100),
      cmd('CloseBetting', { roundNo: 1 }),
    );
    const then = given(t).when(cmd('Deal', { roundNo: 1, nextSeed: s2 }));
    expect(then.events.map((e) => e.type).slice(-3)).toEqual(['CoupResolved', 'ShoeEnded', 'ShoeStarted']);
    expect(then.state.phase).toBe('ready');
    const after = [...t, ...then.events];
    given(after)
      .when(cmd('OpenBetting', { seed: seed(3) }))
      .then('SHOE_IN_PROGRESS');
    given(after)
      .when(cmd('OpenBetting', {}))
      .thenMatch([{ type: 'BettingOpened', data: { roundNo: 2, shoeNo: 2 } }]);
  });

  it('a player-dealt shoe table reopens betting on the same shoe', () => {
    const t = history(
      open({ dealtBy: 'player' }),
      buy('ann', 10_000),
      cmd('StartShoe', { seed: s1 }),
      cmd('OpenBetting', {}),
      bet(1, 'ann', 'player', 100),
    );
    const then = given(t).when(deal(1));
    expect(then.events.at(-1)).toMatchObject({ type: 'BettingOpened', data: { roundNo: 2, shoeNo: 1 } });
    expect(then.events.some((e) => e.type === 'ShoeEnded')).toBe(false);
  });

  it('a player may not deal a dealer-dealt table: FORBIDDEN', () => {
    const t = history(
      open(),
      buy('ann', 10_000),
      cmd('StartShoe', { seed: s1 }),
      cmd('OpenBetting', {}),
      bet(1, 'ann', 'player', 100),
    );
    given(t).when(deal(1)).then('FORBIDDEN');
  });

  it('closing betting on a player-dealt table needs the minimum too: MINIMUM_BET_REQUIRED', () => {
    given(first)
      .when(cmd('CloseBetting', { roundNo: 1 }))
      .then('MINIMUM_BET_REQUIRED');
    const t = continueHistory(first, bet(1, 'ann', 'player', 500), cmd('CloseBetting', { roundNo: 1 }));
    // betting is already closed: DEAL deals without a second BettingClosed
    const events = given(t).when(deal(1, s2)).events;
    expect(events[0]?.type).toBe('CardDealt');
    expect(events.filter((e) => e.type === 'BettingClosed')).toHaveLength(0);
    expect(events.some((e) => e.type === 'CoupResolved')).toBe(true);
  });
});
