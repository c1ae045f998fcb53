import type { Card } from '@coup/engine';
import type { Actor, TableEvent } from '@coup/table';
import { COUPS } from '../../testing/coups';
import { Scenario, correctSettled } from '../../testing/scenario';
import { type LedgerState, PL_ACCOUNTS, PL_ENTRIES, ledgerProjection } from './fold';

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const SUPER: Actor = { id: 'super-1', role: 'supervisor' };
const P1: Actor = { id: 'p1', role: 'player' };

function expectIdempotent(s: Scenario): void {
  const again = s.again();
  expect(again.writes).toEqual([]);
  expect(again.changed).toBe(false);
}

const account = (s: Scenario, playerId = 'p1') =>
  s.row(PL_ACCOUNTS, { player_id: playerId, table_id: 'T1' })!;
const entries = (s: Scenario, playerId = 'p1') =>
  s
    .rows(PL_ENTRIES)
    .filter((r) => r.player_id === playerId)
    .sort((a, b) => Number(a.position) - Number(b.position) || Number(a.seq) - Number(b.seq));

function seated(rules: Record<string, unknown> = {}): Scenario<LedgerState> {
  return new Scenario<LedgerState>(ledgerProjection, { players: 0, rules }).given((d) => [
    ...d.execute('OpenTable', { tableId: 'T1', rules }, ADMIN),
    ...d.execute('BuyIn', { playerId: 'p1', amount: 50_000 }, ADMIN),
    ...d.execute('StartShoe', { seed: d.nextSeed() }),
    ...d.execute('OpenBetting', {}),
  ]);
}

describe('player ledger', () => {
  test('given an open table, when PlayerBoughtIn, then the account counts the buy-in and an entry is written', () => {
    const s = new Scenario<LedgerState>(ledgerProjection, { players: 0 }).given((d) =>
      d.execute('OpenTable', { tableId: 'T1', rules: {} }, ADMIN),
    );
    const [e] = s.when((d) => d.execute('BuyIn', { playerId: 'p1', amount: 50_000 }, ADMIN));
    expect(account(s)).toMatchObject({
      buy_ins: 1,
      bought_in: 50_000,
      chips: 50_000,
      first_at: '2025-01-01T10:00:01.000Z',
    });
    expect(entries(s)).toEqual([
      expect.objectContaining({
        position: e!.position,
        seq: 0,
        kind: 'buy-in',
        amount: 50_000,
        chips_delta: 50_000,
        by: 'admin-1',
        role: 'admin',
      }),
    ]);
    expectIdempotent(s);
  });

  test('given betting, when BetPlaced, then stakes and chips move', () => {
    const s = seated();
    s.when((d) => d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 2_000 }, P1));
    expect(account(s)).toMatchObject({ bets: 1, staked: 2_000, chips: 48_000 });
    expect(entries(s).at(-1)).toMatchObject({
      kind: 'bet',
      round_no: 1,
      spot: 'banker',
      amount: 2_000,
      chips_delta: -2_000,
      by: 'p1',
    });
    expectIdempotent(s);
  });

  test('given a bet, when BetsCleared, then the stake comes back', () => {
    const s = seated().given((d) =>
      d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 2_000 }, P1),
    );
    s.when((d) => d.execute('ClearBets', { roundNo: 1, playerId: 'p1' }, P1));
    // the bet counted once in bets and in staked, what came back in cleared
    expect(account(s)).toMatchObject({ bets: 1, staked: 2_000, cleared: 2_000, chips: 50_000 });
    expect(entries(s).at(-1)).toMatchObject({ kind: 'clear', amount: 2_000, chips_delta: 2_000 });
    expectIdempotent(s);
  });

  test('given a box-commission table, when the coup resolves, then results, paid and commission owed are counted', () => {
    const s = seated({ commission: 'box' }).given((d) => [
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 2_000 }, P1),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'tie', amount: 100 }, P1),
      ...d.execute('CloseBetting', { roundNo: 1 }),
    ]);
    const events = s.when((d) => d.execute('Deal', { roundNo: 1 }));
    const resolved = events
      .map((e) => e.event)
      .find((e): e is Extract<TableEvent, { type: 'CoupResolved' }> => e.type === 'CoupResolved')!;
    const st = resolved.data.settlements;
    const count = (r: string) => st.filter((x) => x.result === r).length;
    const paid = st.reduce((a, x) => a + x.paid, 0);
    expect(account(s)).toMatchObject({
      wins: count('win'),
      losses: count('lose'),
      pushes: count('push'),
      paid,
      // box commission owed counts against the result
      net_result: paid - 2_100 - st.reduce((a, x) => a + x.commission, 0),
      commission_owed: st.reduce((a, x) => a + x.commission, 0),
      commission_deducted: 0,
      chips: 50_000 - 2_100 + paid,
    });
    expect(entries(s).filter((r) => r.kind === 'settlement')).toHaveLength(2);
    expectIdempotent(s);
  });

  test('given a bet, when the round is voided, then the stake is returned', () => {
    const s = seated().given((d) => [
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 1_000 }, P1),
      ...d.execute('CloseBetting', { roundNo: 1 }),
    ]);
    s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'misdeal' }, SUPER));
    // a voided bet counts in bets and in staked like any other, its return in voided_returned
    expect(account(s)).toMatchObject({ bets: 1, staked: 1_000, voided_returned: 1_000, chips: 50_000 });
    expect(entries(s).at(-1)).toMatchObject({
      kind: 'void-return',
      amount: 1_000,
      by: 'super-1',
      reason: 'misdeal',
    });
    expectIdempotent(s);
  });

  test('given chips and box commission owed, when PlayerCashedOut, then the commission is collected and the cash paid', () => {
    // a banker win on a box table owes commission: play until the player owes some
    const s = new Scenario<LedgerState>(ledgerProjection, {
      players: 1,
      rules: { commission: 'box' },
      seed: 7,
    }).given((d) => d.open(50_000));
    for (
      let i = 0;
      i < 40 && Number(s.row(PL_ACCOUNTS, { player_id: 'p1' })?.commission_owed ?? 0) === 0;
      i++
    ) {
      s.given((d) => d.playRound());
    }
    const before = account(s);
    expect(Number(before.commission_owed)).toBeGreaterThan(0);
    const [e] = s.when((d) => d.execute('CashOut', { playerId: 'p1' }, ADMIN));
    if (e!.event.type !== 'PlayerCashedOut') throw new Error('expected PlayerCashedOut');
    const d = e!.event.data;
    expect(d.commissionCollected).toBe(before.commission_owed);
    expect(account(s)).toMatchObject({
      cash_outs: 1,
      cashed_out: d.paid,
      commission_collected: d.commissionCollected,
      commission_owed: 0,
      chips: 0,
    });
    expect(entries(s).at(-1)).toMatchObject({
      kind: 'cash-out',
      amount: d.paid,
      commission: d.commissionCollected,
    });
    expectIdempotent(s);
  });

  test.each(['__proto__', 'constructor', 'toString'])(
    'an event type named like an Object property (%s, from a newer writer) makes no entries',
    (type) => {
      const state = ledgerProjection.initial('T1');
      const e = {
        tableId: 'T1',
        event: { type, data: { at: '2026-01-01T00:00:00.000Z' } } as unknown as TableEvent,
        position: 1,
        revision: 0,
        recordedAt: '2026-01-01T00:00:00.000Z',
        prevHash: '',
        hash: '',
        actor: null,
        commandId: null,
      };
      expect(ledgerProjection.evolve(state, e)).toEqual({ state, writes: [] });
    },
  );
});

describe('player ledger: side bets and game modes', () => {
  /** p1 seated with 50,000 at a live table of `rules`, a shoe started. */
  function live(rules: Record<string, unknown>): Scenario<LedgerState> {
    const full = { dealing: 'live', ...rules };
    return new Scenario<LedgerState>(ledgerProjection, { players: 0, rules: full }).given((d) => [
      ...d.execute('OpenTable', { tableId: 'T1', rules: full }, ADMIN),
      ...d.execute('BuyIn', { playerId: 'p1', amount: 50_000 }, ADMIN),
    ]);
  }

  test('given an EZ table, when side bets are placed and settle, then staked, paid and net count them exactly, each entry naming its paytable', () => {
    const s = live({ game: 'ez', sideBets: { dragon7: {}, panda8: {}, playerPair: {} } });
    const stakes = [
      { playerId: 'p1', spot: 'banker' as const, amount: 1_000 },
      { playerId: 'p1', spot: 'dragon7' as const, amount: 500 },
      { playerId: 'p1', spot: 'panda8' as const, amount: 200 },
    ];
    s.when((d) => d.liveRound(COUPS.dragon7, stakes));
    // banker pushes on the Dragon 7 (1,000 back), Dragon 7 pays 40:1 (500 + 20,000), Panda 8 loses
    expect(account(s)).toMatchObject({
      bets: 3,
      staked: 1_700,
      wins: 1,
      pushes: 1,
      losses: 1,
      paid: 1_000 + 20_500,
      net_result: 20_000 - 200,
      commission_deducted: 0,
      chips: 50_000 - 1_700 + 21_500,
    });
    const mine = entries(s);
    expect(mine.filter((e) => e.kind === 'bet').map((e) => [e.spot, e.paytable, e.amount])).toEqual([
      ['banker', null, 1_000],
      ['dragon7', '40-to-1', 500],
      ['panda8', '25-to-1', 200],
    ]);
    expect(
      mine.filter((e) => e.kind === 'settlement').map((e) => [e.spot, e.paytable, e.result, e.amount]),
    ).toEqual([
      ['banker', null, 'push', 1_000],
      ['dragon7', '40-to-1', 'win', 20_500],
      ['panda8', '25-to-1', 'lose', 0],
    ]);
    expectIdempotent(s);
  });

  test('given a no-commission table, when a banker 6 wins, then the half-paid banker bet and Super 6 by its paytable count to the cent', () => {
    const s = live({ game: 'no-commission', sideBets: { super6: { paytable: '15-to-1' } } });
    s.when((d) =>
      d.liveRound(COUPS.bankerSixPair, [
        { playerId: 'p1', spot: 'banker', amount: 1_100 },
        { playerId: 'p1', spot: 'super6', amount: 300 },
      ]),
    );
    // banker 1:2 on 1,100: 550 won; Super 6 15:1 on 300: 4,500 won
    expect(account(s)).toMatchObject({ staked: 1_400, paid: 1_650 + 4_800, net_result: 550 + 4_500 });
    expectIdempotent(s);
  });

  test('given side bets placed, when the round is voided, then they are returned with the main bets', () => {
    const s = live({ sideBets: { playerPair: {}, bankerPair: {} } });
    s.given((d) => [
      ...d.execute('StartShoe', { firstCard: 'Qs' }),
      ...d.execute('OpenBetting', {}),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 1_000 }, P1),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'bankerPair', amount: 300 }, P1),
      ...d.execute('CloseBetting', { roundNo: 1 }),
    ]);
    s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'misdeal' }, SUPER));
    expect(account(s)).toMatchObject({ bets: 2, staked: 1_300, voided_returned: 1_300, chips: 50_000 });
    expectIdempotent(s);
  });
});

describe('player ledger: a settled coup corrected or voided (issue 16)', () => {
  const settled = (cards: readonly Card[], rules: Record<string, unknown> = {}) =>
    Scenario.settledLive<LedgerState>(ledgerProjection, cards, rules);
  const correct = correctSettled;

  test('given a settled coup, when a card is corrected, then each settlement is reversed and the new one settled as entries of their own, with who and why; earlier entries stay', () => {
    const s = settled(COUPS.playerNatural);
    const before = entries(s);
    expect(account(s)).toMatchObject({ wins: 1, paid: 2_000, net_result: 1_000, chips: 51_000 });
    // banker 5+4: a tie 9-9, player and banker push
    s.when(correct(3, '4d', 'dealer typed 2d for 4d'));
    const after = entries(s);
    expect(after.slice(0, before.length)).toEqual(before);
    const why = { by: 'super-1', role: 'supervisor', reason: 'dealer typed 2d for 4d' };
    expect(after.slice(before.length)).toEqual([
      expect.objectContaining({
        kind: 'reversal',
        result: 'win',
        amount: 2_000,
        chips_delta: -2_000,
        ...why,
      }),
      expect.objectContaining({
        kind: 'settlement',
        result: 'push',
        amount: 1_000,
        chips_delta: 1_000,
        ...why,
      }),
    ]);
    expect(account(s)).toMatchObject({
      bets: 1,
      staked: 1_000,
      wins: 0,
      pushes: 1,
      paid: 1_000,
      net_result: 0,
      chips: 50_000,
    });
    expect(account(s, 'p2')).toMatchObject({
      losses: 0,
      pushes: 1,
      paid: 1_000,
      net_result: 0,
      chips: 50_000,
    });
    expectIdempotent(s);
  });

  test('given a box-commission banker win, when the correction makes it a loss, then the commission owed and the net result are counted back', () => {
    const s = settled(COUPS.bankerNatural, { commission: 'box' });
    expect(account(s, 'p2')).toMatchObject({ wins: 1, paid: 2_000, commission_owed: 50, net_result: 950 });
    // banker 6+K=6 against the player's 7: the player wins
    s.when(correct(1, '6d', 'misread the nine'));
    expect(account(s, 'p2')).toMatchObject({
      wins: 0,
      losses: 1,
      paid: 0,
      commission_owed: 0,
      net_result: -1_000,
      chips: 49_000,
    });
    expect(entries(s, 'p2').at(-2)).toMatchObject({ kind: 'reversal', commission: 50, chips_delta: -2_000 });
    expect(account(s)).toMatchObject({ wins: 1, paid: 2_000, net_result: 1_000, chips: 51_000 });
    expectIdempotent(s);
  });

  test('given a settled coup, when it is voided, then the settlement is reversed and every stake returned, with who and why', () => {
    const s = settled(COUPS.playerNatural, { commission: 'box' });
    const before = entries(s).length;
    s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'shoe found short' }, SUPER));
    const why = { by: 'super-1', role: 'supervisor', reason: 'shoe found short' };
    expect(entries(s).slice(before)).toEqual([
      expect.objectContaining({ kind: 'reversal', amount: 2_000, chips_delta: -2_000, ...why }),
      expect.objectContaining({ kind: 'void-return', amount: 1_000, chips_delta: 1_000, ...why }),
    ]);
    const voided = { bets: 1, staked: 1_000, wins: 0, losses: 0, paid: 0, net_result: 0 };
    expect(account(s)).toMatchObject({ ...voided, voided_returned: 1_000, chips: 50_000 });
    expect(account(s, 'p2')).toMatchObject({ ...voided, voided_returned: 1_000, chips: 50_000 });
    expectIdempotent(s);
  });
});
