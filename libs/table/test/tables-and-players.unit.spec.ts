import {
  COMMAND_ROLES,
  DEFAULT_RULES,
  ERROR_HTTP_STATUS,
  type Role,
  type TableCommand,
  type TableEvent,
  decide,
  fold,
  initialState,
  playerOf,
} from '../src';
import {
  CARDS,
  T0,
  admin,
  analyst,
  bet,
  buy,
  cmd,
  compliance,
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

describe('OpenTable', () => {
  it('opens a table with the defaults filled in', () => {
    given()
      .when(open())
      .then([
        {
          type: 'TableOpened',
          data: { tableId: 'T1', rules: DEFAULT_RULES, at: T0, by: admin.id, role: 'admin' },
        },
      ]);
  });

  it('records the normalized rules it was given', () => {
    const events = given().when(open({ dealing: 'live', decks: 6, tiePays: 9, commission: 'box' })).events;
    expect(events[0]).toMatchObject({
      type: 'TableOpened',
      data: { rules: { ...DEFAULT_RULES, dealing: 'live', decks: 6, tiePays: 9, commission: 'box' } },
    });
  });

  it('opens with no rules at all (defaults)', () => {
    given()
      .when(cmd('OpenTable', { tableId: 'T-9_x' }))
      .thenMatch([{ type: 'TableOpened', data: { tableId: 'T-9_x', rules: DEFAULT_RULES } }]);
  });

  it('refuses a second OpenTable: TABLE_EXISTS (also once closed)', () => {
    given(history(open())).when(open()).then('TABLE_EXISTS');
    given(history(open(), cmd('CloseTable', {})))
      .when(open({}, 'T2'))
      .then('TABLE_EXISTS');
  });

  it.each([[''], ['a b'], ['x'.repeat(65)], ['é'], [42], [null], [undefined]])(
    'refuses tableId %p: INVALID_TABLE_ID',
    (tableId) => {
      given()
        .when(cmd('OpenTable', { tableId: tableId as string }))
        .then('INVALID_TABLE_ID');
    },
  );

  it('accepts a 64-character table id', () => {
    given()
      .when(open({}, 'a'.repeat(64)))
      .thenMatch([{ type: 'TableOpened' }]);
  });

  it('refuses bad rules: INVALID_RULES naming the field', () => {
    given()
      .when(open({ decks: 9 }))
      .then('INVALID_RULES', { field: 'decks' });
    given()
      .when(open({ colour: 'green' }))
      .then('INVALID_RULES', { field: 'colour' });
  });
});

describe('commands before a table exists', () => {
  it.each([
    cmd('CloseTable', {}),
    buy('p1', 100),
    cmd('CashOut', { playerId: 'p1' }),
    cmd('StartShoe', { seed: seed(1) }),
    cmd('OpenBetting', {}),
    bet(1, 'p1', 'player', 100),
    cmd('Deal', { roundNo: 1 }),
    cmd('EndShoe', {}),
  ])('$type is refused UNKNOWN_TABLE', (command) => {
    given().when(command).then('UNKNOWN_TABLE');
  });
});

describe('malformed commands: INVALID_COMMAND', () => {
  const opened = history(open());
  const bad: [string, unknown][] = [
    ['not an object', 'OpenBetting'],
    ['an unknown type', { type: 'Shuffle', data: {}, meta: { actor: dealer, at: T0 } }],
    ['no meta', { type: 'OpenBetting', data: {} }],
    ['a bad role', { type: 'OpenBetting', data: {}, meta: { actor: { id: 'x', role: 'croupier' }, at: T0 } }],
    [
      'an empty actor id',
      { type: 'OpenBetting', data: {}, meta: { actor: { id: '', role: 'dealer' }, at: T0 } },
    ],
    ['a bad instant', { type: 'OpenBetting', data: {}, meta: { actor: dealer, at: 'yesterday' } }],
    [
      'an instant with no zone',
      { type: 'OpenBetting', data: {}, meta: { actor: dealer, at: '2030-01-01T12:00:00' } },
    ],
    [
      'an impossible date',
      { type: 'OpenBetting', data: {}, meta: { actor: dealer, at: '2030-13-45T12:00:00Z' } },
    ],
    ['data not an object', { type: 'OpenBetting', data: [1], meta: { actor: dealer, at: T0 } }],
    [
      'an unknown data field',
      { type: 'BuyIn', data: { playerId: 'p1', amount: 100, bonus: 1 }, meta: { actor: admin, at: T0 } },
    ],
    [
      'a non-integer roundNo',
      { type: 'CloseBetting', data: { roundNo: 1.5 }, meta: { actor: dealer, at: T0 } },
    ],
    [
      'a non-boolean byTimer',
      { type: 'CloseBetting', data: { roundNo: 1, byTimer: 'yes' }, meta: { actor: dealer, at: T0 } },
    ],
  ];
  it.each(bad)('refuses %s', (_label, command) => {
    const state = fold(opened);
    const d = decide(command as TableCommand, state);
    expect(d).toMatchObject({ ok: false, error: { code: 'INVALID_COMMAND' } });
  });

  it('never throws, whatever it is given', () => {
    for (const junk of [
      null,
      undefined,
      0,
      'x',
      [],
      { type: null },
      { type: 'PlaceBet', data: null, meta: null },
    ]) {
      expect(() => decide(junk as unknown as TableCommand, fold(opened))).not.toThrow();
      expect(decide(junk as unknown as TableCommand, initialState).ok).toBe(false);
    }
  });
});

describe('BuyIn', () => {
  const opened = history(open());

  it('seats the player with chips', () => {
    given(opened)
      .when(buy('p1', 50_000))
      .then([
        {
          type: 'PlayerBoughtIn',
          data: { playerId: 'p1', amount: 50_000, chips: 50_000, at: T0, by: 'boss', role: 'admin' },
        },
      ]);
  });

  it('adds to the chips of a seated player, any amount of cents', () => {
    const then = given(continueHistory(opened, buy('p1', 50_000))).when(buy('p1', 1));
    then.thenMatch([{ type: 'PlayerBoughtIn', data: { amount: 1, chips: 50_001 } }]);
    expect(playerOf(then.state, 'p1')).toEqual({
      playerId: 'p1',
      chips: 50_001,
      commissionOwed: 0,
      bets: null,
      lastBets: null,
    });
  });

  it.each([0, -100, 1.5, Number.MAX_SAFE_INTEGER + 2, NaN, Infinity, '100', null])(
    'refuses amount %p: INVALID_AMOUNT',
    (amount) => {
      given(opened)
        .when(cmd('BuyIn', { playerId: 'p1', amount: amount as number }))
        .then('INVALID_AMOUNT');
    },
  );

  it('refuses a buy-in that would make chips unsafe to count: INVALID_AMOUNT', () => {
    given(continueHistory(opened, buy('p1', Number.MAX_SAFE_INTEGER - 10)))
      .when(buy('p1', 11))
      .then('INVALID_AMOUNT');
  });

  it.each(['', ' p1', '__proto__', '-x', 'a'.repeat(65), 7])(
    'refuses player id %p: INVALID_PLAYER_ID',
    (playerId) => {
      given(opened)
        .when(cmd('BuyIn', { playerId: playerId as string, amount: 100 }))
        .then('INVALID_PLAYER_ID');
    },
  );

  it('takes player ids like emails and uuids, and odd ones like "constructor"', () => {
    for (const id of ['ann@example.com', '3f2b7c1e-0000-4000-8000-000000000000', 'constructor', 'toString']) {
      const s = given(opened).when(buy(id, 100)).state;
      expect(playerOf(s, id)).toEqual({
        playerId: id,
        chips: 100,
        commissionOwed: 0,
        bets: null,
        lastBets: null,
      });
      expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    }
  });

  it('is taken during a round', () => {
    const betting = history(open(), cmd('StartShoe', { seed: seed(1) }), cmd('OpenBetting', {}));
    given(betting)
      .when(buy('p9', 100))
      .thenMatch([{ type: 'PlayerBoughtIn' }]);
  });
});

describe('CashOut', () => {
  it('pays the chips and the player leaves', () => {
    const then = given(history(open(), buy('p1', 12_345)))
      .when(cmd('CashOut', { playerId: 'p1' }))
      .then([
        {
          type: 'PlayerCashedOut',
          data: {
            playerId: 'p1',
            paid: 12_345,
            commissionCollected: 0,
            commissionOwed: 0,
            at: T0,
            by: 'boss',
            role: 'admin',
          },
        },
      ]);
    expect(then.state.players).toEqual([]);
  });

  it('refuses a player who is not seated: UNKNOWN_PLAYER', () => {
    given(history(open()))
      .when(cmd('CashOut', { playerId: 'p1' }))
      .then('UNKNOWN_PLAYER');
    given(history(open(), buy('p1', 100), cmd('CashOut', { playerId: 'p1' })))
      .when(cmd('CashOut', { playerId: 'p1' }))
      .then('UNKNOWN_PLAYER');
  });

  it('refuses while the player has bets in an open round: BETS_IN_PLAY', () => {
    const placed = continueHistory(liveReady(), cmd('OpenBetting', {}), bet(1, 'p1', 'player', 1000));
    given(placed)
      .when(cmd('CashOut', { playerId: 'p1' }))
      .then('BETS_IN_PLAY', { playerId: 'p1', roundNo: 1 });
    // p2 has no bets: free to go
    given(placed)
      .when(cmd('CashOut', { playerId: 'p2' }))
      .thenMatch([{ type: 'PlayerCashedOut', data: { paid: 100_000 } }]);
    // and once betting is closed, still in play
    const closed = continueHistory(placed, cmd('CloseBetting', { roundNo: 1 }));
    given(closed)
      .when(cmd('CashOut', { playerId: 'p1' }))
      .then('BETS_IN_PLAY');
  });

  describe('on a commission-box table', () => {
    /** p1 wins 1,000 on banker (box: paid 2,000, 50 owed). */
    function boxWin(buyIn: number): TableEvent[] {
      return history(
        open({ dealing: 'live', commission: 'box' }),
        buy('p1', buyIn),
        cmd('StartShoe', { firstCard: '5h' }),
        cmd('OpenBetting', {}),
        bet(1, 'p1', 'banker', 1000),
        cmd('CloseBetting', { roundNo: 1 }),
        ...dealCards(1, CARDS.bankerNatural),
      );
    }

    it('collects the commission owed from the chips first', () => {
      const events = boxWin(10_000);
      const state = fold(events);
      expect(playerOf(state, 'p1')).toMatchObject({ chips: 11_000, commissionOwed: 50 });
      given(events)
        .when(cmd('CashOut', { playerId: 'p1' }))
        .thenMatch([
          { type: 'PlayerCashedOut', data: { paid: 10_950, commissionCollected: 50, commissionOwed: 0 } },
        ]);
    });

    it('keeps what the chips cannot cover as owed (the player stays on the books)', () => {
      // p1 buys in 1,000, bets it on banker and wins: 2,000 chips, 50 owed; then loses all 2,000 on player
      const events = boxWin(1000);
      expect(playerOf(fold(events), 'p1')).toMatchObject({ chips: 2000, commissionOwed: 50 });
      const all = continueHistory(
        events,
        cmd('OpenBetting', {}),
        bet(2, 'p1', 'player', 2000),
        cmd('CloseBetting', { roundNo: 2 }),
        ...dealCards(2, CARDS.bankerNatural),
      );
      expect(playerOf(fold(all), 'p1')).toMatchObject({ chips: 0, commissionOwed: 50 });
      const then = given(all)
        .when(cmd('CashOut', { playerId: 'p1' }))
        .thenMatch([
          { type: 'PlayerCashedOut', data: { paid: 0, commissionCollected: 0, commissionOwed: 50 } },
        ]);
      expect(playerOf(then.state, 'p1')).toEqual({
        playerId: 'p1',
        chips: 0,
        commissionOwed: 50,
        bets: { player: 2000, banker: 0, tie: 0 },
        lastBets: { player: 2000, banker: 0, tie: 0 },
      });
      // a partial collection: buy in 30, cash out: 30 collected, 20 still owed
      const rebuy = continueHistory([...all, ...then.events], buy('p1', 30));
      given(rebuy)
        .when(cmd('CashOut', { playerId: 'p1' }))
        .thenMatch([
          { type: 'PlayerCashedOut', data: { paid: 0, commissionCollected: 30, commissionOwed: 20 } },
        ]);
    });
  });
});

describe('CloseTable', () => {
  it('closes an idle table', () => {
    given(history(open()))
      .when(cmd('CloseTable', {}))
      .then([{ type: 'TableClosed', data: { tableId: 'T1', at: T0, by: 'boss', role: 'admin' } }]);
  });

  it('ends the shoe in progress first, revealing the seed', () => {
    const s = seed('close');
    given(history(open(), cmd('StartShoe', { seed: s })))
      .when(cmd('CloseTable', {}))
      .thenMatch([
        { type: 'ShoeEnded', data: { shoeNo: 1, seed: s, reason: 'table-closed', coups: 0 } },
        { type: 'TableClosed' },
      ]);
  });

  it('cancels an empty betting round', () => {
    const then = given(history(open(), cmd('StartShoe', { seed: seed(1) }), cmd('OpenBetting', {})))
      .when(cmd('CloseTable', {}))
      .thenMatch([
        { type: 'RoundVoided', data: { roundNo: 1, reason: 'Table closed', returned: [] } },
        { type: 'ShoeEnded' },
        { type: 'TableClosed' },
      ]);
    expect(then.state.phase).toBe('closed');
  });

  it('refuses during a round with bets, or while dealing: WRONG_PHASE', () => {
    const betting = history(
      open(),
      buy('p1', 1000),
      cmd('StartShoe', { seed: seed(1) }),
      cmd('OpenBetting', {}),
    );
    const withBet = continueHistory(betting, bet(1, 'p1', 'tie', 100));
    given(withBet).when(cmd('CloseTable', {})).then('WRONG_PHASE');
    const dealing = continueHistory(withBet, cmd('CloseBetting', { roundNo: 1 }));
    given(dealing).when(cmd('CloseTable', {})).then('WRONG_PHASE');
  });

  it('refuses while players hold chips: PLAYERS_SEATED, naming them', () => {
    given(history(open(), buy('p1', 500), buy('p2', 700)))
      .when(cmd('CloseTable', {}))
      .then('PLAYERS_SEATED', { players: ['p1', 'p2'] });
    given(history(open(), buy('p1', 500)))
      .when(cmd('CloseTable', { cashOutAll: false }))
      .then('PLAYERS_SEATED');
  });

  it('closes with a cash-out of every player when the pit asks (cashOutAll), recorded per player', () => {
    const s = seed('close-all');
    const then = given(history(open(), buy('p1', 500), buy('p2', 700), cmd('StartShoe', { seed: s })))
      .when(cmd('CloseTable', { cashOutAll: true }))
      .thenMatch([
        { type: 'PlayerCashedOut', data: { playerId: 'p1', paid: 500, commissionCollected: 0 } },
        { type: 'PlayerCashedOut', data: { playerId: 'p2', paid: 700, commissionCollected: 0 } },
        { type: 'ShoeEnded', data: { reason: 'table-closed' } },
        { type: 'TableClosed' },
      ]);
    expect(then.state.players).toEqual([]);
    expect(then.state.phase).toBe('closed');
  });

  it('refuses a cashOutAll that is not a boolean: INVALID_COMMAND', () => {
    given(history(open(), buy('p1', 500)))
      .when(cmd('CloseTable', { cashOutAll: 'yes' as unknown as boolean }))
      .then('INVALID_COMMAND', { field: 'cashOutAll' });
  });

  it('refuses every command on a closed table but CashOut: TABLE_CLOSED', () => {
    const closed = history(open(), buy('p1', 500), cmd('CloseTable', { cashOutAll: true }));
    for (const c of [
      cmd('CloseTable', {}),
      buy('p1', 100),
      cmd('StartShoe', { seed: seed(1) }),
      cmd('OpenBetting', {}),
      bet(1, 'p1', 'player', 100),
      cmd('EndShoe', {}),
    ]) {
      given(closed).when(c).then('TABLE_CLOSED');
    }
    // CashOut still runs on a closed table (for a player left owing commission); p1 is already paid
    given(closed)
      .when(cmd('CashOut', { playerId: 'p1' }))
      .then('UNKNOWN_PLAYER');
  });
});

describe('roles', () => {
  const roles: Role[] = ['admin', 'dealer', 'supervisor', 'player', 'compliance', 'analyst'];
  const actors: Record<Role, { id: string; role: Role }> = {
    admin,
    dealer,
    supervisor,
    player: player('p1'),
    compliance,
    analyst,
  };
  const state = continueHistory(liveReady(), cmd('OpenBetting', {}), bet(1, 'p1', 'player', 1000));
  const commands: [TableCommand['type'], Record<string, unknown>][] = [
    ['OpenTable', { tableId: 'T2' }],
    ['CloseTable', {}],
    ['BuyIn', { playerId: 'p1', amount: 100 }],
    ['CashOut', { playerId: 'p1' }],
    ['StartShoe', { firstCard: '2c' }],
    ['OpenBetting', {}],
    ['PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 100 }],
    ['ClearBets', { roundNo: 1, playerId: 'p1' }],
    ['Rebet', { roundNo: 1, playerId: 'p1' }],
    ['CloseBetting', { roundNo: 1 }],
    ['Deal', { roundNo: 1 }],
    ['DealCard', { roundNo: 1, card: '2c' }],
    ['CorrectCard', { roundNo: 1, index: 0, card: '2c' }],
    ['VoidRound', { roundNo: 1, reason: 'misdeal' }],
    ['EndShoe', {}],
  ];
  for (const [type, data] of commands) {
    for (const role of roles) {
      // players deal only on player-dealt tables (see online-single-player): this one is dealer-dealt
      const allowed = COMMAND_ROLES[type].includes(role) && !(type === 'Deal' && role === 'player');
      it(`${type} by ${role}: ${allowed ? 'not FORBIDDEN' : 'FORBIDDEN'}`, () => {
        const d = decide(cmd(type, data as never, actors[role], T0), fold(state));
        if (allowed) expect(d.ok ? 'ok' : d.error.code).not.toBe('FORBIDDEN');
        else expect(d).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      });
    }
  }

  it('compliance and analyst may do nothing', () => {
    for (const type of Object.keys(COMMAND_ROLES) as TableCommand['type'][]) {
      expect(COMMAND_ROLES[type]).not.toContain('compliance');
      expect(COMMAND_ROLES[type]).not.toContain('analyst');
    }
  });

  it('a player bets only for itself; staff may bet on its behalf', () => {
    given(state)
      .when(cmd('PlaceBet', { roundNo: 1, playerId: 'p2', spot: 'player', amount: 100 }, player('p1')))
      .then('FORBIDDEN');
    given(state)
      .when(cmd('ClearBets', { roundNo: 1, playerId: 'p2' }, player('p1')))
      .then('FORBIDDEN');
    given(state)
      .when(cmd('Rebet', { roundNo: 1, playerId: 'p2' }, player('p1')))
      .then('FORBIDDEN');
    for (const staff of [admin, dealer, supervisor]) {
      given(state)
        .when(cmd('PlaceBet', { roundNo: 1, playerId: 'p2', spot: 'banker', amount: 100 }, staff))
        .thenMatch([{ type: 'BetPlaced', data: { playerId: 'p2', by: staff.id, role: staff.role } }]);
    }
  });
});

describe('ERROR_HTTP_STATUS', () => {
  it('maps every code to 400, 403, 404 or 409', () => {
    for (const [code, status] of Object.entries(ERROR_HTTP_STATUS)) {
      expect([400, 403, 404, 409]).toContain(status);
      if (code === 'FORBIDDEN') expect(status).toBe(403);
      if (code.startsWith('UNKNOWN_')) expect(status).toBe(404);
      if (code.startsWith('INVALID_')) expect(status).toBe(400);
    }
    expect(ERROR_HTTP_STATUS.WRONG_PHASE).toBe(409);
    expect(ERROR_HTTP_STATUS.TABLE_EXISTS).toBe(409);
    expect(ERROR_HTTP_STATUS.BETTING_CLOSED).toBe(409);
  });
});
