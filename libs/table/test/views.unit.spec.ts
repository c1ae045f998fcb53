import {
  EVENT_SCHEMA_VERSION,
  STATE_VERSION,
  type TableEvent,
  decide,
  evolve,
  fold,
  initialState,
  redactEvent,
  replyFor,
  tableDecider,
  tableView,
} from '../src';
import {
  T0,
  admin,
  analyst,
  bet,
  buy,
  cmd,
  commitOf,
  compliance,
  continueHistory,
  dealer,
  given,
  history,
  open,
  player,
  seed,
  supervisor,
} from './support';

const s = seed('views');
const betting = history(
  open({ commission: 'box' }),
  buy('p1', 10_000),
  buy('p2', 20_000),
  cmd('StartShoe', { seed: s }),
  cmd('OpenBetting', {}),
  bet(1, 'p1', 'player', 1000),
  bet(1, 'p2', 'banker', 2000),
  bet(1, 'p2', 'tie', 100),
);
const dealt = continueHistory(betting, cmd('CloseBetting', { roundNo: 1 }), cmd('Deal', { roundNo: 1 }));

describe('tableView', () => {
  it('shows no table before OpenTable', () => {
    expect(tableView(initialState)).toEqual({
      tableId: null,
      status: 'none',
      phase: 'none',
      rules: null,
      roundNo: 0,
      shoe: null,
      round: null,
      players: [],
      lastResult: null,
    });
  });

  it('shows staff everything but the unrevealed seed', () => {
    const view = tableView(fold(betting), dealer);
    expect(view).toMatchObject({
      tableId: 'T1',
      status: 'open',
      phase: 'betting',
      roundNo: 1,
      shoe: { shoeNo: 1, commitment: commitOf(s), seed: null, ended: false },
      round: {
        roundNo: 1,
        status: 'betting',
        deadline: null,
        bets: {
          totals: { player: 1000, banker: 2000, tie: 100 },
          bettors: 2,
          players: [
            { playerId: 'p1', player: 1000, banker: 0, tie: 0 },
            { playerId: 'p2', player: 0, banker: 2000, tie: 100 },
          ],
        },
        cards: [],
        next: null,
        result: null,
      },
      players: [
        { playerId: 'p1', chips: 9000, commissionOwed: 0 },
        { playerId: 'p2', chips: 17_900, commissionOwed: 0 },
      ],
    });
    expect(JSON.stringify(view)).not.toContain(s);
    expect(tableView(fold(betting))).toEqual(view); // no viewer: as staff see it
    expect(tableView(fold(betting), compliance)).toEqual(view);
    expect(tableView(fold(betting), analyst)).toEqual(view);
  });

  it('shows a player only itself (and everyone’s totals per spot)', () => {
    const view = tableView(fold(betting), player('p1'));
    expect(view.players).toEqual([{ playerId: 'p1', chips: 9000, commissionOwed: 0 }]);
    expect(view.round?.bets).toEqual({
      totals: { player: 1000, banker: 2000, tie: 100 },
      bettors: 2,
      players: [{ playerId: 'p1', player: 1000, banker: 0, tie: 0 }],
    });
    const stranger = tableView(fold(betting), player('p9'));
    expect(stranger.players).toEqual([]);
    expect(stranger.round?.bets.players).toEqual([]);
  });

  it('filters settlements for a player', () => {
    const state = fold(dealt);
    expect(tableView(state).lastResult?.settlements).toHaveLength(3);
    const mine = tableView(state, player('p2'));
    expect(mine.lastResult?.settlements.map((x) => x.playerId)).toEqual(['p2', 'p2']);
    expect(mine.round?.result?.settlements.map((x) => x.playerId)).toEqual(['p2', 'p2']);
    expect(tableView(state, player('p1')).lastResult?.settlements.map((x) => x.playerId)).toEqual(['p1']);
  });

  it('shows the dealt cards in order with their slots, and the result', () => {
    const view = tableView(fold(dealt));
    const coup = dealt.find((e) => e.type === 'CoupResolved');
    if (coup?.type !== 'CoupResolved') throw new Error();
    expect(view.round?.status).toBe('resolved');
    expect(view.round?.cards.map((c) => c.card)).toEqual(
      dealt.flatMap((e) => (e.type === 'CardDealt' ? [e.data.card] : [])),
    );
    expect(view.round?.cards.slice(0, 4).map((c) => c.slot)).toEqual([
      'player1',
      'banker1',
      'player2',
      'banker2',
    ]);
    expect(view.round?.result).toMatchObject({
      outcome: coup.data.outcome,
      playerTotal: coup.data.playerTotal,
    });
    expect(view.lastResult).toEqual(view.round?.result);
  });

  it('reveals the seed once the shoe has ended', () => {
    const ended = continueHistory(dealt, cmd('EndShoe', {}, supervisor));
    expect(tableView(fold(ended), player('p1')).shoe).toMatchObject({
      seed: s,
      ended: true,
      endReason: 'supervisor',
    });
  });

  it('is JSON-safe', () => {
    const view = tableView(fold(dealt));
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });
});

describe('redactEvent', () => {
  const started = betting.find((e) => e.type === 'ShoeStarted')!;
  const bet1 = betting.find((e) => e.type === 'BetPlaced' && e.data.playerId === 'p1')!;
  const bet2 = betting.find((e) => e.type === 'BetPlaced' && e.data.playerId === 'p2')!;
  const coup = dealt.find((e) => e.type === 'CoupResolved')!;

  it('never lets ShoeStarted carry the seed out', () => {
    for (const viewer of [undefined, admin, dealer, supervisor, compliance, player('p1')]) {
      const r = redactEvent(started, viewer);
      expect(r).toMatchObject({ type: 'ShoeStarted', data: { seed: null, commitment: commitOf(s) } });
      expect(JSON.stringify(r)).not.toContain(s);
    }
    expect(started).toMatchObject({ data: { seed: s } }); // the original is untouched
  });

  it('gives staff every other event as is', () => {
    for (const e of dealt.filter((x) => x.type !== 'ShoeStarted')) expect(redactEvent(e, dealer)).toBe(e);
  });

  it('gives a player only its own money events and settlements', () => {
    const p1 = player('p1');
    expect(redactEvent(bet1, p1)).toBe(bet1);
    expect(redactEvent(bet2, p1)).toBeNull();
    expect(redactEvent(buy1(), p1)).not.toBeNull();
    expect(redactEvent(coup, p1)).toMatchObject({ data: { settlements: [{ playerId: 'p1' }] } });
    const voided = continueHistory(
      betting,
      cmd('VoidRound', { roundNo: 1, reason: 'misdeal' }, supervisor),
    ).at(-1)!;
    expect(redactEvent(voided, p1)).toMatchObject({ data: { returned: [{ playerId: 'p1', amount: 1000 }] } });
    const ended = continueHistory(dealt, cmd('EndShoe', {}, supervisor)).at(-1)!;
    expect(redactEvent(ended, p1)).toBe(ended);
  });

  function buy1(): TableEvent {
    return betting.find((e) => e.type === 'PlayerBoughtIn' && e.data.playerId === 'p1')!;
  }
});

describe('replyFor', () => {
  const cases: [string, TableEvent[], ReturnType<typeof cmd>, unknown][] = [
    ['OpenTable', [], open(), { tableId: 'T1' }],
    ['BuyIn', history(open()), buy('p1', 500), { playerId: 'p1', amount: 500, chips: 500 }],
    [
      'CashOut',
      history(open(), buy('p1', 500)),
      cmd('CashOut', { playerId: 'p1' }),
      { playerId: 'p1', paid: 500, commissionCollected: 0, commissionOwed: 0 },
    ],
    [
      'PlaceBet',
      betting,
      bet(1, 'p1', 'player', 500),
      { roundNo: 1, playerId: 'p1', spot: 'player', amount: 500, spotTotal: 1500, chips: 8500 },
    ],
    [
      'ClearBets',
      betting,
      cmd('ClearBets', { roundNo: 1, playerId: 'p2' }, player('p2')),
      {
        roundNo: 1,
        playerId: 'p2',
        returned: 2100,
        bets: { player: 0, banker: 2000, tie: 100 },
        chips: 20_000,
      },
    ],
    ['CloseBetting', betting, cmd('CloseBetting', { roundNo: 1 }), { roundNo: 1, by: 'dealer' }],
    ['CloseTable', history(open()), cmd('CloseTable', {}), { tableId: 'T1', closed: true }],
  ];
  it.each(cases)('answers %s', (_type, events, command, expected) => {
    const then = given(events).when(command);
    expect(replyFor(command, then.events, then.state)).toMatchObject(expected as object);
  });

  it('answers StartShoe with the commitment, the burn and the cards left', () => {
    const c = cmd('StartShoe', { seed: s });
    const then = given(history(open())).when(c);
    const started = then.events[0]!;
    if (started.type !== 'ShoeStarted') throw new Error();
    expect(replyFor(c, then.events)).toEqual({
      shoeNo: 1,
      commitment: commitOf(s),
      burnCard: started.data.burnCard,
      burnCount: started.data.burnCount,
      cardsLeft: 416 - 1 - started.data.burnCount,
    });
  });

  it('answers Rebet with each bet placed', () => {
    const r2 = continueHistory(dealt, cmd('OpenBetting', {}));
    const c = cmd('Rebet', { roundNo: 2, playerId: 'p2' }, player('p2'));
    const then = given(r2).when(c);
    expect(replyFor(c, then.events)).toMatchObject({
      roundNo: 2,
      playerId: 'p2',
      bets: [
        { spot: 'banker', amount: 2000, spotTotal: 2000 },
        { spot: 'tie', amount: 100, spotTotal: 100 },
      ],
    });
  });

  it('answers EndShoe with the revealed seed', () => {
    const c = cmd('EndShoe', {}, supervisor);
    const then = given(dealt).when(c);
    expect(replyFor(c, then.events)).toEqual({ shoeNo: 1, seed: s, reason: 'supervisor' });
  });
});

describe('state', () => {
  it('is plain JSON: a snapshot folds on exactly like the live state', () => {
    const state = fold(betting);
    const snapshot = JSON.parse(JSON.stringify(state));
    expect(snapshot).toEqual(state);
    const rest = dealt.slice(betting.length);
    expect(fold(rest, snapshot)).toEqual(fold(rest, state));
    expect(JSON.parse(JSON.stringify(fold(dealt)))).toEqual(fold(dealt));
    // and decisions from a snapshot are the same
    const c = cmd('OpenBetting', {});
    expect(decide(c, JSON.parse(JSON.stringify(fold(dealt))))).toEqual(decide(c, fold(dealt)));
  });

  it('stays bounded however long the history: no list of past rounds, players who leave are gone', () => {
    let state = fold(history(open({ commission: 'box' }), buy('regular', 1_000_000)));
    const apply = (c: ReturnType<typeof cmd>) => {
      const d = decide(c, state);
      if (!d.ok) throw new Error(`${c.type}: ${d.error.code}`);
      state = fold(d.events, state);
    };
    const sizes: number[] = [];
    for (let coup = 1; coup <= 300; coup++) {
      if (state.phase === 'idle') apply(cmd('StartShoe', { seed: seed(`bounded-${coup}`) }));
      const visitor = `visitor-${coup}`;
      apply(buy(visitor, 5000));
      apply(cmd('OpenBetting', {}));
      apply(bet(coup, 'regular', coup % 2 ? 'banker' : 'player', 1000));
      apply(bet(coup, visitor, 'tie', 100));
      apply(cmd('CloseBetting', { roundNo: coup }));
      apply(cmd('Deal', { roundNo: coup }));
      apply(cmd('CashOut', { playerId: visitor }));
      if (coup === 30 || coup === 300) sizes.push(JSON.stringify(state).length);
    }
    expect(state.roundNo).toBe(300);
    expect(state.shoeNo).toBeGreaterThan(2);
    expect(state.players.map((p) => p.playerId)).toEqual(['regular']);
    // the same order of size after 300 coups as after 30 (numbers grow a digit or two, nothing accumulates)
    expect(sizes[1]!).toBeLessThan(sizes[0]! * 1.2);
  });

  it('carries its version', () => {
    expect(fold(dealt).version).toBe(STATE_VERSION);
    expect(initialState.version).toBe(STATE_VERSION);
  });

  it('ignores unknown event types (a newer writer)', () => {
    const state = fold(betting);
    expect(evolve(state, { type: 'SomethingNew', data: {} } as unknown as TableEvent)).toBe(state);
  });

  it('does not change the state it evolves', () => {
    const state = fold(betting);
    const before = JSON.stringify(state);
    fold(dealt.slice(betting.length), state);
    expect(JSON.stringify(state)).toBe(before);
  });

  it('exports the emmett-style bundle and a schema version per event type', () => {
    expect(tableDecider.initialState).toBe(initialState);
    expect(tableDecider.decide(open(), tableDecider.initialState).ok).toBe(true);
    const types = new Set(dealt.map((e) => e.type));
    for (const t of types) expect(EVENT_SCHEMA_VERSION[t]).toBe(1);
  });

  it('records the instant and the actor in every event', () => {
    for (const e of dealt) {
      expect(e.data.at).toBe(T0);
      if ('by' in e.data && e.type !== 'BettingClosed') expect(typeof e.data.by).toBe('string');
    }
  });
});
