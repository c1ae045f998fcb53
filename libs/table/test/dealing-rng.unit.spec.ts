import { type CoupResult, nextPosition, fullShoeCounts, seedFromHex, shuffleShoe } from '@coup/engine';
import { type TableEvent, fold, replyFor, playerOf } from '../src';
import { T0, bet, buy, cmd, continueHistory, coupAt, findSeed, given, history, open, seed } from './support';

const isBanker = (r: CoupResult) => r.outcome === 'banker';
const isPlayer = (r: CoupResult) => r.outcome === 'player';
const isTie = (r: CoupResult) => r.outcome === 'tie';

/** An rng table with p1, p2 (100,000 each), a shoe from `s`, round 1 open. */
function bettingWith(s: string, rules: Record<string, unknown> = {}): TableEvent[] {
  return history(
    open(rules),
    buy('p1', 100_000),
    buy('p2', 100_000),
    cmd('StartShoe', { seed: s }),
    cmd('OpenBetting', {}),
  );
}

function startOf(events: readonly TableEvent[]): number {
  return fold(events).shoe!.position;
}

describe('Deal (rng, dealer-dealt)', () => {
  const s = findSeed(isBanker, { prefix: 'banker' });
  const open1 = bettingWith(s);
  const closed = continueHistory(
    open1,
    bet(1, 'p1', 'banker', 1000),
    bet(1, 'p2', 'tie', 500),
    cmd('CloseBetting', { roundNo: 1 }),
  );

  it('deals the coup from the shoe in order, as the engine resolves it', () => {
    const start = startOf(closed);
    const { shoe, result } = coupAt(s, 8, start);
    const events = given(closed).when(cmd('Deal', { roundNo: 1 })).events;
    const dealt = events.filter((e) => e.type === 'CardDealt');
    expect(dealt).toHaveLength(result.cardsUsed);
    const cards = shoe.slice(start, start + result.cardsUsed);
    dealt.forEach((e, i) => {
      const to = nextPosition({ cards: cards.slice(0, i), remaining: fullShoeCounts(8) });
      const next = nextPosition({ cards: cards.slice(0, i + 1), remaining: fullShoeCounts(8) });
      expect(e).toEqual({
        type: 'CardDealt',
        data: {
          roundNo: 1,
          index: i,
          card: cards[i],
          ...to,
          shoePosition: start + i,
          next,
          at: T0,
          by: 'dealer-1',
          role: 'dealer',
        },
      });
    });
    expect(events[events.length - 1]).toEqual({
      type: 'CoupResolved',
      data: {
        roundNo: 1,
        shoeNo: 1,
        playerCards: result.playerCards,
        bankerCards: result.bankerCards,
        playerTotal: result.playerTotal,
        bankerTotal: result.bankerTotal,
        outcome: 'banker',
        natural: result.natural,
        cardsUsed: result.cardsUsed,
        commissionMode: 'deducted',
        settlements: [
          { playerId: 'p1', spot: 'banker', amount: 1000, result: 'win', paid: 1950, commission: 50 },
          { playerId: 'p2', spot: 'tie', amount: 500, result: 'lose', paid: 0, commission: 0 },
        ],
        at: T0,
        by: 'dealer-1',
        role: 'dealer',
      },
    });
  });

  it('pays the chips, remembers the result, returns to ready and moves the shoe on', () => {
    const then = given(closed).when(cmd('Deal', { roundNo: 1 }));
    const { result } = coupAt(s, 8, startOf(closed));
    const state = then.state;
    expect(state.phase).toBe('ready');
    expect(playerOf(state, 'p1')).toEqual({
      playerId: 'p1',
      bets: { player: 0, banker: 1000, tie: 0 },
      chips: 100_950,
      commissionOwed: 0,
      lastBets: { player: 0, banker: 1000, tie: 0 },
    });
    expect(playerOf(state, 'p2')).toEqual({
      playerId: 'p2',
      bets: { player: 0, banker: 0, tie: 500 },
      chips: 99_500,
      commissionOwed: 0,
      lastBets: { player: 0, banker: 0, tie: 500 },
    });
    expect(state.lastResult).toMatchObject({ roundNo: 1, outcome: 'banker' });
    expect(state.round?.status).toBe('resolved');
    expect(state.shoe?.position).toBe(startOf(closed) + result.cardsUsed);
    expect(state.shoe?.coups).toBe(1);
  });

  it('answers with the coup and its settlements', () => {
    const c = cmd('Deal', { roundNo: 1 });
    const then = given(closed).when(c);
    expect(replyFor(c, then.events, then.state)).toMatchObject({
      roundNo: 1,
      outcome: 'banker',
      settlements: [
        { playerId: 'p1', spot: 'banker', amount: 1000, result: 'win', paid: 1950, commission: 50 },
        { playerId: 'p2', spot: 'tie', amount: 500, result: 'lose', paid: 0, commission: 0 },
      ],
      shoeEnded: null,
      nextShoe: null,
      nextRound: null,
    });
  });

  it('owes the commission to the box on box tables (paid in full, commission owed)', () => {
    const t = continueHistory(
      bettingWith(s, { commission: 'box' }),
      bet(1, 'p1', 'banker', 1000),
      cmd('CloseBetting', { roundNo: 1 }),
    );
    const then = given(t)
      .when(cmd('Deal', { roundNo: 1 }))
      .thenMatch([
        ...Array.from({ length: coupAt(s, 8, startOf(t)).result.cardsUsed }, () => ({
          type: 'CardDealt' as const,
        })),
        {
          type: 'CoupResolved',
          data: {
            commissionMode: 'box',
            settlements: [
              { playerId: 'p1', spot: 'banker', amount: 1000, result: 'win', paid: 2000, commission: 50 },
            ],
          },
        },
      ]);
    expect(playerOf(then.state, 'p1')).toMatchObject({ chips: 101_000, commissionOwed: 50 });
  });

  it('pays player 1:1 and loses banker bets on a player win', () => {
    const sp = findSeed(isPlayer, { prefix: 'player' });
    const t = continueHistory(
      bettingWith(sp),
      bet(1, 'p1', 'player', 2500),
      bet(1, 'p2', 'banker', 2500),
      cmd('CloseBetting', { roundNo: 1 }),
    );
    const coup = given(t)
      .when(cmd('Deal', { roundNo: 1 }))
      .events.find((e) => e.type === 'CoupResolved');
    expect(coup?.data).toMatchObject({
      outcome: 'player',
      settlements: [
        { playerId: 'p1', spot: 'player', amount: 2500, result: 'win', paid: 5000, commission: 0 },
        { playerId: 'p2', spot: 'banker', amount: 2500, result: 'lose', paid: 0, commission: 0 },
      ],
    });
  });

  it.each([
    [8, 900],
    [9, 1000],
  ])('pays a tie %d:1 and pushes player and banker bets', (tiePays, paid) => {
    const st = findSeed(isTie, { prefix: 'tie' });
    const t = continueHistory(
      bettingWith(st, { tiePays }),
      bet(1, 'p1', 'tie', 100),
      bet(1, 'p1', 'player', 300),
      bet(1, 'p2', 'banker', 400),
      cmd('CloseBetting', { roundNo: 1 }),
    );
    const then = given(t).when(cmd('Deal', { roundNo: 1 }));
    expect(then.events.find((e) => e.type === 'CoupResolved')?.data).toMatchObject({
      outcome: 'tie',
      settlements: [
        { playerId: 'p1', spot: 'player', amount: 300, result: 'push', paid: 300, commission: 0 },
        { playerId: 'p1', spot: 'tie', amount: 100, result: 'win', paid, commission: 0 },
        { playerId: 'p2', spot: 'banker', amount: 400, result: 'push', paid: 400, commission: 0 },
      ],
    });
    expect(playerOf(then.state, 'p1')?.chips).toBe(100_000 - 400 + 300 + paid);
    expect(playerOf(then.state, 'p2')?.chips).toBe(100_000);
  });

  it('deals a round with no bets', () => {
    const t = continueHistory(bettingWith(s), cmd('CloseBetting', { roundNo: 1 }));
    const events = given(t).when(cmd('Deal', { roundNo: 1 })).events;
    expect(events.find((e) => e.type === 'CoupResolved')?.data).toMatchObject({ settlements: [] });
  });

  it('is refused while betting on dealer-dealt tables, and between rounds: WRONG_PHASE', () => {
    given(open1)
      .when(cmd('Deal', { roundNo: 1 }))
      .then('WRONG_PHASE');
    const dealt = continueHistory(closed, cmd('Deal', { roundNo: 1 }));
    given(dealt)
      .when(cmd('Deal', { roundNo: 1 }))
      .then('WRONG_PHASE');
    given(dealt)
      .when(cmd('Deal', { roundNo: 2 }))
      .then('WRONG_PHASE');
  });

  it('is refused for another round: WRONG_ROUND', () => {
    given(closed)
      .when(cmd('Deal', { roundNo: 2 }))
      .then('WRONG_ROUND');
  });

  it('refuses a bad nextSeed: INVALID_SEED', () => {
    given(closed)
      .when(cmd('Deal', { roundNo: 1, nextSeed: 'abc' }))
      .then('INVALID_SEED');
  });

  it('is refused on live tables: WRONG_DEALING_MODE; DealCard and CorrectCard on rng tables too', () => {
    const live = history(
      open({ dealing: 'live' }),
      cmd('StartShoe', { firstCard: '2c' }),
      cmd('OpenBetting', {}),
      cmd('CloseBetting', { roundNo: 1 }),
    );
    given(live)
      .when(cmd('Deal', { roundNo: 1 }))
      .then('WRONG_DEALING_MODE');
    given(closed)
      .when(cmd('DealCard', { roundNo: 1, card: 'Ah' }))
      .then('WRONG_DEALING_MODE');
    given(closed)
      .when(cmd('CorrectCard', { roundNo: 1, index: 0, card: 'Ah' }))
      .then('WRONG_DEALING_MODE');
  });

  it('ignores nextSeed while the shoe goes on (nothing is committed)', () => {
    given(closed)
      .when(cmd('Deal', { roundNo: 1, nextSeed: seed('unused') }))
      .events.forEach((e) => expect(e.type).not.toBe('ShoeStarted'));
  });

  it('starts the next shoe with nextSeed when the coup ends the shoe', () => {
    // play the shoe to its last coup, then deal it with a nextSeed
    let events = history(open({ decks: 1, cutCard: 26 }), cmd('StartShoe', { seed: s }));
    for (let roundNo = 1; ; roundNo++) {
      events = continueHistory(events, cmd('OpenBetting', {}), cmd('CloseBetting', { roundNo }));
      const progress = fold(events).shoe!.progress!;
      if (progress.coupsLeft === 1) {
        const next = seed('next-shoe');
        const then = given(events)
          .when(cmd('Deal', { roundNo, nextSeed: next }))
          .thenMatch([
            ...given(events)
              .when(cmd('Deal', { roundNo }))
              .events.map((e) => ({ type: e.type })),
            { type: 'ShoeStarted', data: { shoeNo: 2, seed: next } },
          ]);
        expect(then.events.map((e) => e.type).slice(-3)).toEqual([
          'CoupResolved',
          'ShoeEnded',
          'ShoeStarted',
        ]);
        expect(then.state.phase).toBe('ready');
        expect(then.state.shoe).toMatchObject({ shoeNo: 2, ended: false, coups: 0 });
        break;
      }
      events = continueHistory(events, cmd('Deal', { roundNo }));
      expect(roundNo).toBeLessThan(20);
    }
  });

  it('recomputes the same cards from the seed (no shoe stored in the events)', () => {
    const events = continueHistory(closed, cmd('Deal', { roundNo: 1 }));
    const started = events.find((e) => e.type === 'ShoeStarted');
    expect(JSON.stringify(started)).not.toMatch(/"(cards|shoe)":\[/);
    const shuffled = shuffleShoe(8, seedFromHex(s));
    const dealt = events.flatMap((e) => (e.type === 'CardDealt' ? [e.data] : []));
    for (const d of dealt) expect(d.card).toBe(shuffled[d.shoePosition]);
  });
});
