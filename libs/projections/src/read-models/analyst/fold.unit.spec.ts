import { exactBetOdds } from '@coup/engine';
import type { Actor } from '@coup/table';
import { COUPS } from '../../testing/coups';
import { Scenario, correctSettled } from '../../testing/scenario';
import { ANALYST_FOLD_VERSION, type AnalystState, analystProjection, gamingDayConfig } from './index';
import { AN_AMENDMENTS, AN_BETS, AN_CASH, AN_COUPS } from './schema-facts';
import { AN_BET_TYPES, AN_DAYS, AN_PLAYERS, AN_SHIFTS, AN_SHOES, AN_STAFF, AN_TABLES } from './schema-dims';

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const SUPER: Actor = { id: 'super-1', role: 'supervisor' };
const P1: Actor = { id: 'p1', role: 'player' };

const model = analystProjection();
const odds8 = exactBetOdds({ decks: 8, spots: ['player', 'banker', 'tie'] }).bets;
const edge = (spot: 'player' | 'banker' | 'tie') => odds8[spot]!.houseEdge;

function expectIdempotent(s: Scenario): void {
  const again = s.again();
  expect(again.writes).toEqual([]);
  expect(again.changed).toBe(false);
  expect(again.stateChanged).toBe(false);
}

/** An open live table (T1) with p1 and p2 bought in, a shoe started. */
function seated(rules: Record<string, unknown> = {}, m = model): Scenario<AnalystState> {
  const full = { dealing: 'live', ...rules };
  return new Scenario<AnalystState>(m, { players: 0, rules: full }).given((d) => [
    ...d.execute('OpenTable', { tableId: 'T1', rules: full }, ADMIN),
    ...d.execute('BuyIn', { playerId: 'p1', amount: 50_000 }, ADMIN),
    ...d.execute('BuyIn', { playerId: 'p2', amount: 50_000 }, ADMIN),
    ...d.execute('StartShoe', { firstCard: 'Qs' }),
  ]);
}

const STAKES = [
  { playerId: 'p1', spot: 'player' as const, amount: 1_000 },
  { playerId: 'p2', spot: 'banker' as const, amount: 1_000 },
];

describe('analysts: tables, shoes, rounds', () => {
  test('given nothing, when TableOpened, then the table and its rules (version 1), its bet types with exact edges, the admin', () => {
    const s = new Scenario<AnalystState>(model, { players: 0 });
    s.when((d) =>
      d.execute('OpenTable', { tableId: 'T1', rules: { sideBets: { playerPair: {} }, tiePays: 9 } }, ADMIN),
    );
    expect(s.rows(AN_TABLES)).toEqual([
      expect.objectContaining({
        table_id: 'T1',
        rules_version: 1,
        online: 0,
        game: 'commission',
        decks: 8,
        tie_pays: 9,
        side_bets: 'playerPair:11-to-1',
        opened_by: 'admin-1',
        closed_at: null,
      }),
    ]);
    const exact = exactBetOdds({
      decks: 8,
      tiePays: 9,
      spots: ['player', 'banker', 'tie', 'playerPair'],
    }).bets;
    const types = s.rows(AN_BET_TYPES);
    expect(types.map((t) => [t.bet_type, t.decks, t.edge])).toEqual([
      ['banker:commission', 8, exact.banker!.houseEdge],
      ['player', 8, exact.player!.houseEdge],
      ['playerPair:11-to-1', 8, exact.playerPair!.houseEdge],
      ['tie:9-to-1', 8, exact.tie!.houseEdge],
    ]);
    // the variance from the exact payouts: player pair wins 11 with p, loses 1 otherwise
    const pair = exact.playerPair!;
    const p = pair.probabilities.win;
    expect(types[2]!.variance).toBeCloseTo(121 * p + (1 - p) - pair.ev * pair.ev, 12);
    expect(s.row(AN_STAFF, { staff_id: 'admin-1' })).toMatchObject({ role: 'admin', tables: 1 });
    expectIdempotent(s);
  });

  test('given an open table, when TableClosed, then its rules row is closed', () => {
    const s = new Scenario<AnalystState>(model, { players: 0 }).given((d) =>
      d.execute('OpenTable', { tableId: 'T1', rules: {} }, ADMIN),
    );
    const [e] = s.when((d) => d.execute('CloseTable', {}, ADMIN));
    expect(s.row(AN_TABLES, { table_id: 'T1' })).toMatchObject({
      closed_at: (e!.event.data as { at: string }).at,
      closed_by: 'admin-1',
    });
    expect(s.row(AN_STAFF, { staff_id: 'admin-1' })).toMatchObject({ tables: 2 });
    expectIdempotent(s);
  });

  test('given an open table, when ShoeStarted and ShoeEnded, then the shoe row starts and ends', () => {
    const s = seated();
    expect(s.rows(AN_SHOES)).toEqual([
      expect.objectContaining({
        shoe_no: 1,
        dealing: 'live',
        decks: 8,
        cards: 416,
        ended_at: null,
        gaming_day: '2025-01-01',
      }),
    ]);
    expect(s.row(AN_STAFF, { staff_id: 'dealer-1' })).toMatchObject({ role: 'dealer', shoes_started: 1 });
    s.when((d) => d.execute('EndShoe', {}, SUPER));
    expect(s.rows(AN_SHOES)).toEqual([
      expect.objectContaining({ shoe_no: 1, end_reason: 'supervisor', coups: 0 }),
    ]);
    expectIdempotent(s);
  });

  test('given a shoe, when BettingOpened, then its dealer counts a round and no fact is written', () => {
    const s = seated();
    s.when((d) => d.execute('OpenBetting', {}));
    expect(s.lastWrites.map((w) => w.table)).toEqual([AN_STAFF]);
    expect(s.row(AN_STAFF, { staff_id: 'dealer-1' })).toMatchObject({ rounds_opened: 1 });
    expect(s.state().round).toMatchObject({ roundNo: 1, dealerId: 'dealer-1', dealerRole: 'dealer' });
    expectIdempotent(s);
  });

  test.each([
    [
      'BetPlaced',
      (d: Scenario['driver']) =>
        d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'tie', amount: 500 }, P1),
    ],
    ['BetsCleared', (d: Scenario['driver']) => d.execute('ClearBets', { roundNo: 1, playerId: 'p1' }, P1)],
    ['BettingClosed', (d: Scenario['driver']) => d.execute('CloseBetting', { roundNo: 1 })],
  ])('given betting, when %s, then nothing changes', (_type, f) => {
    const s = seated().given((d) => [
      ...d.execute('OpenBetting', {}),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 500 }, P1),
    ]);
    const before = s.state();
    s.when(f);
    expect(s.lastWrites).toEqual([]);
    expect(s.state()).toBe(before);
  });

  test('given betting closed, when CardDealt, then nothing changes', () => {
    const s = seated().given((d) => [
      ...d.execute('OpenBetting', {}),
      ...d.execute('CloseBetting', { roundNo: 1 }),
    ]);
    const before = s.state();
    s.when((d) => d.liveCards(1, ['5d']));
    expect(s.lastWrites).toEqual([]);
    expect(s.state()).toBe(before);
  });
});

describe('analysts: cash', () => {
  test('given an open table, when PlayerBoughtIn, then a cash fact in its gaming day, shift and hour, the player, the gaming day and shifts', () => {
    const s = new Scenario<AnalystState>(model, { players: 0 }).given((d) =>
      d.execute('OpenTable', { tableId: 'T1', rules: {} }, ADMIN),
    );
    const [e] = s.when((d) => d.execute('BuyIn', { playerId: 'p1', amount: 50_000 }, ADMIN));
    expect(s.rows(AN_CASH)).toEqual([
      {
        position: e!.position,
        table_id: 'T1',
        player_id: 'p1',
        kind: 'buy-in',
        amount: 50_000,
        chips: 50_000,
        commission_collected: null,
        commission_owed: null,
        cashier_id: 'admin-1',
        cashier_role: 'admin',
        dealer_id: null,
        at: '2025-01-01T10:00:01.000Z',
        at_ms: Date.parse('2025-01-01T10:00:01.000Z'),
        gaming_day: '2025-01-01',
        shift: 'day',
        hour: 10,
      },
    ]);
    expect(s.row(AN_PLAYERS, { player_id: 'p1' })).toMatchObject({
      first_table_id: 'T1',
      first_gaming_day: '2025-01-01',
      buy_ins: 1,
      bought_in: 50_000,
    });
    expect(s.rows(AN_DAYS)).toEqual([
      expect.objectContaining({
        gaming_day: '2025-01-01',
        starts_at: '2025-01-01T06:00:00.000Z',
        ends_at: '2025-01-02T06:00:00.000Z',
        hours: 24,
        weekday: 3,
        month: '2025-01',
        time_zone: 'UTC',
        cutover: '06:00',
      }),
    ]);
    expect(s.rows(AN_SHIFTS).map((r) => [r.shift, r.ordinal, r.starts, r.ends])).toEqual([
      ['day', 1, '06:00', '14:00'],
      ['grave', 3, '22:00', '06:00'],
      ['swing', 2, '14:00', '22:00'],
    ]);
    expect(s.row(AN_STAFF, { staff_id: 'admin-1' })).toMatchObject({ cash_movements: 1 });
    expectIdempotent(s);
  });

  test('given a box-commission win owed, when PlayerCashedOut, then the cash paid, the chips given up and the commission collected', () => {
    const s = Scenario.settledLive<AnalystState>(model, COUPS.bankerNatural, { commission: 'box' });
    s.when((d) => d.execute('CashOut', { playerId: 'p2' }, ADMIN));
    expect(s.row(AN_CASH, { kind: 'cash-out' })).toMatchObject({
      player_id: 'p2',
      amount: 50_950,
      chips: 51_000,
      commission_collected: 50,
      commission_owed: 0,
      dealer_id: 'dealer-1',
    });
    expect(s.row(AN_PLAYERS, { player_id: 'p2' })).toMatchObject({
      cash_outs: 1,
      cashed_out: 50_950,
      buy_ins: 1,
    });
    expectIdempotent(s);
  });
});

describe('analysts: coups and bets', () => {
  test('given two stakes, when CoupResolved (banker natural), then the coup and each bet, to the cent, with theoretical win', () => {
    const s = seated();
    s.when((d) => d.liveRound(COUPS.bankerNatural, STAKES));
    const theo = 1_000 * edge('player') + 1_000 * edge('banker');
    expect(s.rows(AN_COUPS)).toEqual([
      expect.objectContaining({
        table_id: 'T1',
        round_no: 1,
        shoe_no: 1,
        rules_version: 1,
        dealer_id: 'dealer-1',
        outcome: 'banker',
        player_cards: '5d 2d',
        banker_cards: '9d Kd',
        natural: 1,
        cards: 4,
        status: 'settled',
        corrections: 0,
        bets: 2,
        players: 2,
        handle: 2_000,
        paid: 1_950,
        commission: 50,
        win: 50,
        gaming_day: '2025-01-01',
        shift: 'day',
        hour: 10,
      }),
    ]);
    expect(s.row(AN_COUPS, { round_no: 1 })!['theo_win']).toBeCloseTo(theo, 9);
    expect(s.row(AN_COUPS, { round_no: 1 })!['theo_var']).toBeCloseTo(
      1e6 *
        (odds8.player!.results.reduce((v, r) => v + r.probability * r.net ** 2, 0) - odds8.player!.ev ** 2) +
        1e6 *
          (odds8.banker!.results.reduce((v, r) => v + r.probability * r.net ** 2, 0) - odds8.banker!.ev ** 2),
      6,
    );
    expect(
      s
        .rows(AN_BETS)
        .map((b) => [b.player_id, b.spot, b.bet_type, b.stake, b.result, b.paid, b.commission, b.net, b.win]),
    ).toEqual([
      ['p1', 'player', 'player', 1_000, 'lose', 0, 0, -1_000, 1_000],
      ['p2', 'banker', 'banker:commission', 1_000, 'win', 1_950, 50, 950, -950],
    ]);
    expect(s.row(AN_BETS, { player_id: 'p2' })!['theo_win']).toBe(1_000 * edge('banker'));
    expectIdempotent(s);
  });

  test('given a box-commission table, when CoupResolved, then the commission owed counts in the house win', () => {
    const s = Scenario.settledLive<AnalystState>(model, COUPS.bankerNatural, { commission: 'box' });
    expect(s.row(AN_COUPS, { round_no: 1 })).toMatchObject({
      handle: 2_000,
      paid: 2_000,
      commission: 50,
      win: 50,
    });
    expect(s.row(AN_BETS, { player_id: 'p2' })).toMatchObject({
      commission_mode: 'box',
      paid: 2_000,
      net: 950,
      win: -950,
    });
  });

  test('given side bets, when CoupResolved, then each side bet with its paytable and bet type', () => {
    const s = seated({ decks: 6, game: 'no-commission', sideBets: { super6: { paytable: '15-to-1' } } });
    s.when((d) =>
      d.liveRound(COUPS.bankerSixPair, [
        { playerId: 'p1', spot: 'banker', amount: 1_000 },
        { playerId: 'p1', spot: 'super6', amount: 200 },
      ]),
    );
    const exact = exactBetOdds({
      decks: 6,
      game: 'no-commission',
      paytables: { super6: '15-to-1' },
      spots: ['super6'],
    });
    expect(s.row(AN_BETS, { spot: 'super6' })).toMatchObject({
      bet_type: 'super6:15-to-1',
      paytable: '15-to-1',
      game: 'no-commission',
      decks: 6,
      result: 'win',
      paid: 3_200,
      win: -3_000,
      edge: exact.bets.super6!.houseEdge,
      theo_win: 200 * exact.bets.super6!.houseEdge,
    });
    // no commission: a banker 6 pays 1:2
    expect(s.row(AN_BETS, { spot: 'banker' })).toMatchObject({
      bet_type: 'banker:no-commission',
      paid: 1_500,
      win: -500,
    });
    expect(s.row(AN_COUPS, { round_no: 1 })).toMatchObject({ handle: 1_200, paid: 4_700, win: -3_500 });
  });
});

describe('analysts: corrections and voids', () => {
  test('given a card being dealt, when CardCorrected, then a card-correction fact', () => {
    const s = seated().given((d) => [
      ...d.execute('OpenBetting', {}),
      ...d.execute('CloseBetting', { roundNo: 1 }),
      ...d.liveCards(1, ['5d']),
    ]);
    const [e] = s.when((d) => d.execute('CorrectCard', { roundNo: 1, index: 0, card: '6d' }, SUPER));
    expect(s.rows(AN_AMENDMENTS)).toEqual([
      expect.objectContaining({
        position: e!.position,
        kind: 'card-correction',
        round_no: 1,
        shoe_no: 1,
        by_id: 'super-1',
        by_role: 'supervisor',
        dealer_id: 'dealer-1',
        card_index: 0,
        old_card: '5d',
        new_card: '6d',
        win_before: null,
        gaming_day: '2025-01-01',
      }),
    ]);
    expect(s.row(AN_STAFF, { staff_id: 'super-1' })).toMatchObject({ amendments: 1 });
    expectIdempotent(s);
  });

  test('given stakes, when RoundVoided, then a round-void fact with the stakes returned, and no coup', () => {
    const s = seated().given((d) => [
      ...d.execute('OpenBetting', {}),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 700 }, P1),
    ]);
    s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'misdeal' }, SUPER));
    expect(s.rows(AN_AMENDMENTS)).toEqual([
      expect.objectContaining({
        kind: 'round-void',
        reason: 'misdeal',
        returned: 700,
        dealer_id: 'dealer-1',
      }),
    ]);
    expect(s.rows(AN_COUPS)).toEqual([]);
    expectIdempotent(s);
  });

  test('given a settled coup, when SettledCoupCorrected, then its coup and bets hold the corrected result at the coup’s own time, and the amendment the win before and after', () => {
    const s = Scenario.settledLive<AnalystState>(model, COUPS.bankerNatural);
    const settledAt = s.row(AN_COUPS, { round_no: 1 })!['at'];
    s.when(correctSettled(1, '6d', 'misread'));
    expect(s.row(AN_COUPS, { round_no: 1 })).toMatchObject({
      at: settledAt,
      outcome: 'player',
      banker_cards: '6d Kd',
      status: 'corrected',
      corrections: 1,
      handle: 2_000,
      paid: 2_000,
      win: 0,
    });
    expect(s.rows(AN_BETS).map((b) => [b.player_id, b.result, b.paid, b.win, b.status, b.at])).toEqual([
      ['p1', 'win', 2_000, -1_000, 'corrected', settledAt],
      ['p2', 'lose', 0, 1_000, 'corrected', settledAt],
    ]);
    expect(s.row(AN_AMENDMENTS, { kind: 'settled-correction' })).toMatchObject({
      reason: 'misread',
      card_index: 1,
      old_card: '9d',
      new_card: '6d',
      win_before: 50,
      win_after: 0,
      coup_gaming_day: '2025-01-01',
      by_id: 'super-1',
    });
    expectIdempotent(s);
  });

  test('given a coup settled just before the cut-over, when it is corrected after it, then the coup stays in its gaming day and the correction is in the next', () => {
    const rules = { dealing: 'live' };
    const s = new Scenario<AnalystState>(model, {
      players: 0,
      rules,
      start: '2025-01-01T05:59:40.000Z',
    }).given((d) => [
      ...d.execute('OpenTable', { tableId: 'T1', rules }, ADMIN),
      ...d.execute('BuyIn', { playerId: 'p1', amount: 50_000 }, ADMIN),
      ...d.execute('BuyIn', { playerId: 'p2', amount: 50_000 }, ADMIN),
      ...d.liveRound(COUPS.bankerNatural, STAKES),
    ]);
    expect(s.row(AN_COUPS, { round_no: 1 })).toMatchObject({ gaming_day: '2024-12-31', shift: 'grave' });
    s.when((d) => {
      d.setTime('2025-01-01T06:00:10.000Z');
      return correctSettled(1, '6d', 'misread')(d);
    });
    expect(s.row(AN_COUPS, { round_no: 1 })).toMatchObject({
      gaming_day: '2024-12-31',
      shift: 'grave',
      status: 'corrected',
    });
    expect(s.rows(AN_BETS).map((b) => b.gaming_day)).toEqual(['2024-12-31', '2024-12-31']);
    expect(s.row(AN_AMENDMENTS, { kind: 'settled-correction' })).toMatchObject({
      gaming_day: '2025-01-01',
      shift: 'day',
      coup_gaming_day: '2024-12-31',
    });
    expect(s.rows(AN_DAYS).map((r) => r.gaming_day)).toEqual(['2024-12-31', '2025-01-01']);
    expect(s.state().day).toBe('2025-01-01');
    expectIdempotent(s);
  });

  test('given a settled coup, when SettledCoupVoided, then its coup and bets are voided and the amendment says what was given back', () => {
    const s = Scenario.settledLive<AnalystState>(model, COUPS.bankerNatural);
    s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'shoe found short' }, SUPER));
    expect(s.row(AN_COUPS, { round_no: 1 })).toMatchObject({ status: 'voided', win: 50 });
    expect(s.rows(AN_BETS).map((b) => b.status)).toEqual(['voided', 'voided']);
    expect(s.row(AN_AMENDMENTS, { kind: 'settled-void' })).toMatchObject({
      reason: 'shoe found short',
      returned: 2_000,
      win_before: 50,
      win_after: 0,
    });
    expectIdempotent(s);
  });
});

describe('analysts: the gaming day configuration', () => {
  const london = gamingDayConfig({ gamingDay: '06:00 Europe/London', shifts: 'early=06:00,late=18:00' });

  test('given a London table on the night the clocks go back, when coups settle either side of 06:00 GMT, then each is in its gaming day, shift and hour', () => {
    const m = analystProjection(london);
    const s = new Scenario<AnalystState>(m, {
      players: 0,
      start: '2026-10-25T05:59:50.000Z',
      rules: { dealing: 'live' },
    }).given((d) => [
      ...d.execute('OpenTable', { tableId: 'T1', rules: { dealing: 'live' } }, ADMIN),
      ...d.execute('BuyIn', { playerId: 'p1', amount: 50_000 }, ADMIN),
    ]);
    s.when((d) => d.liveRound(COUPS.playerNatural, [{ playerId: 'p1', spot: 'player', amount: 100 }]));
    s.when((d) => {
      d.setTime('2026-10-25T06:00:00.000Z');
      return d.liveRound(COUPS.playerNatural, [{ playerId: 'p1', spot: 'player', amount: 100 }]);
    });
    expect(s.rows(AN_COUPS).map((c) => [c.round_no, c.gaming_day, c.shift, c.hour])).toEqual([
      [1, '2026-10-24', 'late', 5],
      [2, '2026-10-25', 'early', 6],
    ]);
    expect(s.row(AN_DAYS, { gaming_day: '2026-10-24' })).toMatchObject({
      starts_at: '2026-10-24T05:00:00.000Z',
      ends_at: '2026-10-25T06:00:00.000Z',
      hours: 25,
      time_zone: 'Europe/London',
    });
    expectIdempotent(s);
  });

  test('the version changes with the configuration (the read model is then rebuilt), not otherwise', () => {
    expect(analystProjection(london).version).toBe(
      analystProjection(
        gamingDayConfig({ gamingDay: '06:00 europe/london', shifts: 'late=18:00,early=06:00' }),
      ).version,
    );
    expect(analystProjection(london).version).not.toBe(model.version);
    expect(analystProjection(gamingDayConfig({ gamingDay: '07:00 UTC' })).version).not.toBe(model.version);
    expect(Math.floor(model.version / 2 ** 24)).toBe(ANALYST_FOLD_VERSION);
  });
});
