import type { Actor, TableEvent } from '@coup/table';
import { COUPS } from '../../testing/coups';
import { Scenario } from '../../testing/scenario';
import { TV_PLAYERS, TV_TABLES, type TableViewState, tableViewProjection } from './fold';

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const SUPER: Actor = { id: 'super-1', role: 'supervisor' };
const P1: Actor = { id: 'p1', role: 'player' };
const P2: Actor = { id: 'p2', role: 'player' };

function opened(options = {}): Scenario<TableViewState> {
  return new Scenario<TableViewState>(tableViewProjection, { players: 1, ...options }).given((d) =>
    d.open(100_000),
  );
}

const table = (s: Scenario) => s.row(TV_TABLES, { table_id: 'T1' })!;
const player = (s: Scenario, id = 'p1') => s.row(TV_PLAYERS, { table_id: 'T1', player_id: id });
const seedOf = (events: readonly { event: TableEvent }[]) =>
  events.map((e) => e.event).find((e) => e.type === 'ShoeStarted')?.data.seed as string;

/** Every `when` is fed a second time: an event already applied changes nothing. */
function expectIdempotent(s: Scenario): void {
  const again = s.again();
  expect(again.writes).toEqual([]);
  expect(again.changed).toBe(false);
  expect(again.stateChanged).toBe(false);
}

describe('table view', () => {
  test('given nothing, when TableOpened, then the table is open and idle with its rules', () => {
    const s = new Scenario<TableViewState>(tableViewProjection, { players: 0 });
    s.when((d) => d.execute('OpenTable', { tableId: 'T1', rules: { decks: 6, tiePays: 9 } }, ADMIN));
    expect(table(s)).toMatchObject({ status: 'open', phase: 'idle', round_no: 0, shoe_no: null });
    expect(JSON.parse(table(s).rules_json as string)).toMatchObject({ decks: 6, tiePays: 9 });
    expectIdempotent(s);
  });

  test('given an open table, when PlayerBoughtIn, then the player has the chips', () => {
    const s = new Scenario<TableViewState>(tableViewProjection, { players: 0 }).given((d) =>
      d.execute('OpenTable', { tableId: 'T1', rules: {} }, ADMIN),
    );
    s.when((d) => d.execute('BuyIn', { playerId: 'p9', amount: 25_000 }, ADMIN));
    expect(player(s, 'p9')).toMatchObject({ chips: 25_000, commission_owed: 0 });
    expectIdempotent(s);
  });

  test('given an rng table, when ShoeStarted, then the commitment and cards left show and the seed is nowhere', () => {
    const s = opened();
    const events = s.when((d) => d.execute('StartShoe', { seed: d.nextSeed() }));
    const seed = seedOf(events);
    const started = events[0]!.event;
    if (started.type !== 'ShoeStarted') throw new Error('expected ShoeStarted');
    expect(table(s)).toMatchObject({
      phase: 'ready',
      shoe_no: 1,
      shoe_commitment: started.data.commitment,
      shoe_seed: null,
      shoe_cards_left: 416 - started.data.firstCoupIndex,
      shoe_cut_card_out: 0,
    });
    expect(JSON.stringify(s.rows(TV_TABLES))).not.toContain(seed);
    expect(JSON.stringify(s.state())).not.toContain(seed);
    expectIdempotent(s);
  });

  test('given a shoe, when BettingOpened with a timer, then the round and its deadline show', () => {
    const s = opened({ rules: { bettingSeconds: 15 } }).given((d) =>
      d.execute('StartShoe', { seed: d.nextSeed() }),
    );
    const [e] = s.when((d) => d.execute('OpenBetting', {}));
    expect(table(s)).toMatchObject({ phase: 'betting', round_no: 1, round_status: 'betting' });
    expect(table(s).deadline).toBe(
      new Date(Date.parse((e!.event.data as { at: string }).at) + 15_000).toISOString(),
    );
    expectIdempotent(s);
  });

  describe('given betting is open', () => {
    const betting = () =>
      opened().given((d) => [
        ...d.execute('StartShoe', { seed: d.nextSeed() }),
        ...d.execute('OpenBetting', {}),
      ]);

    test('when BetPlaced, then the spot total and the player chips change', () => {
      const s = betting();
      s.when((d) => d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 2_500 }, P1));
      expect(table(s)).toMatchObject({ bets_banker: 2_500, bets_player: 0, bets_tie: 0 });
      expect(JSON.parse(table(s).bets_json as string)).toEqual([
        { playerId: 'p1', player: 0, banker: 2_500, tie: 0 },
      ]);
      expect(player(s)).toMatchObject({ chips: 97_500 });
      expectIdempotent(s);
    });

    test('when BetsCleared, then the stakes go back to the chips', () => {
      const s = betting().given((d) =>
        d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 500 }, P1),
      );
      s.when((d) => d.execute('ClearBets', { roundNo: 1, playerId: 'p1' }, P1));
      expect(table(s)).toMatchObject({ bets_player: 0 });
      expect(player(s)).toMatchObject({ chips: 100_000 });
      expectIdempotent(s);
    });

    test('when BettingClosed, then the phase is dealing', () => {
      const s = betting().given((d) =>
        d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 500 }, P1),
      );
      s.when((d) => d.execute('CloseBetting', { roundNo: 1 }));
      expect(table(s)).toMatchObject({ phase: 'dealing', round_status: 'dealing' });
      expectIdempotent(s);
    });

    test('when the coup is dealt (CardDealt..., CoupResolved), then cards, result and chips show', () => {
      const s = betting().given((d) => [
        ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 500 }, P1),
        ...d.execute('CloseBetting', { roundNo: 1 }),
      ]);
      const events = s.when((d) => d.execute('Deal', { roundNo: 1 }));
      const resolved = events.map((e) => e.event).find((e) => e.type === 'CoupResolved');
      if (resolved?.type !== 'CoupResolved') throw new Error('expected CoupResolved');
      const t = table(s);
      expect(t).toMatchObject({ phase: 'ready', round_status: 'resolved', bets_player: 0 });
      expect(JSON.parse(t.cards_json as string)).toHaveLength(resolved.data.cardsUsed);
      expect(JSON.parse(t.result_json as string)).toMatchObject({
        outcome: resolved.data.outcome,
        roundNo: 1,
      });
      expect(JSON.parse(t.last_result_json as string)).toMatchObject({ roundNo: 1 });
      expect(player(s)).toMatchObject({ chips: 99_500 + resolved.data.settlements[0]!.paid });
      expectIdempotent(s);
    });

    test('when RoundVoided, then the round shows voided and the stakes are back', () => {
      const s = betting().given((d) => [
        ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'tie', amount: 1_000 }, P1),
        ...d.execute('CloseBetting', { roundNo: 1 }),
      ]);
      s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'equipment fault' }, SUPER));
      expect(table(s)).toMatchObject({ round_status: 'voided', phase: 'ready' });
      expect(JSON.parse(table(s).view_json as string).round.voided).toEqual({
        reason: 'equipment fault',
        by: 'super-1',
      });
      expect(player(s)).toMatchObject({ chips: 100_000 });
      expectIdempotent(s);
    });
  });

  test('given a shoe in progress, when ShoeEnded, then the seed is revealed', () => {
    const s = opened();
    const started = s.when((d) => d.execute('StartShoe', { seed: d.nextSeed() }));
    const seed = seedOf(started);
    expect(table(s).shoe_seed).toBeNull();
    s.when((d) => d.execute('EndShoe', {}, SUPER));
    expect(table(s)).toMatchObject({ shoe_seed: seed, phase: 'idle' });
    expectIdempotent(s);
  });

  test('given a live round being dealt, when CardDealt and CardCorrected, then the cards and cards left follow', () => {
    const s = opened({ rules: { dealing: 'live', decks: 6 } }).given((d) => [
      ...d.execute('StartShoe', { firstCard: '5h' }),
      ...d.execute('OpenBetting', {}),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 500 }, P1),
      ...d.execute('CloseBetting', { roundNo: 1 }),
    ]);
    const left = table(s).shoe_cards_left as number;
    expect(left).toBe(312 - 6);
    s.when((d) => d.execute('DealCard', { roundNo: 1, card: 'Kc' }));
    expect(JSON.parse(table(s).cards_json as string)).toEqual([
      { index: 0, card: 'Kc', to: 'player', slot: 'player1' },
    ]);
    expect(table(s).shoe_cards_left).toBe(left - 1);
    expectIdempotent(s);
    s.when((d) => d.execute('CorrectCard', { roundNo: 1, index: 0, card: 'Qd' }, SUPER));
    expect(JSON.parse(table(s).cards_json as string)).toEqual([
      { index: 0, card: 'Qd', to: 'player', slot: 'player1' },
    ]);
    expectIdempotent(s);
  });

  test('given a seated player owing nothing, when PlayerCashedOut, then the player row is gone', () => {
    const s = opened();
    s.when((d) => d.execute('CashOut', { playerId: 'p1' }, ADMIN));
    expect(player(s)).toBeUndefined();
    expectIdempotent(s);
  });

  test('given an open table whose players cashed out, when TableClosed, then it shows closed', () => {
    const s = opened().given((d) =>
      d.players.flatMap((playerId) => d.execute('CashOut', { playerId }, ADMIN)),
    );
    s.when((d) => d.execute('CloseTable', { cashOutAll: true }, ADMIN));
    expect(table(s)).toMatchObject({ status: 'closed', phase: 'closed' });
    expectIdempotent(s);
  });

  test("given an EZ table offering side bets, when players stake on them, then the totals per spot and each player's stakes include them", () => {
    const s = opened({
      players: 2,
      rules: { dealing: 'live', game: 'ez', sideBets: { dragon7: {}, panda8: {} } },
    });
    s.given((d) => [...d.execute('StartShoe', { firstCard: 'Qs' }), ...d.execute('OpenBetting', {})]);
    s.when((d) => [
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 1_000 }, P1),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'dragon7', amount: 500 }, P1),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p2', spot: 'tie', amount: 100 }, P2),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p2', spot: 'panda8', amount: 200 }, P2),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p2', spot: 'dragon7', amount: 100 }, P2),
    ]);
    expect(table(s)).toMatchObject({ bets_player: 0, bets_banker: 1_000, bets_tie: 100 });
    expect(JSON.parse(table(s).bets_totals_json as string)).toEqual({
      player: 0,
      banker: 1_000,
      tie: 100,
      dragon7: 600,
      panda8: 200,
    });
    expect(JSON.parse(table(s).bets_json as string)).toEqual([
      { playerId: 'p1', player: 0, banker: 1_000, tie: 0, dragon7: 500 },
      { playerId: 'p2', player: 0, banker: 0, tie: 100, panda8: 200, dragon7: 100 },
    ]);
    expectIdempotent(s);
    s.when((d) => [...d.execute('CloseBetting', { roundNo: 1 }), ...d.liveCards(1, COUPS.dragon7)]);
    expect(JSON.parse(table(s).bets_totals_json as string)).toEqual({ player: 0, banker: 0, tie: 0 });
    expectIdempotent(s);
  });

  test('the row records the last position and revision applied', () => {
    const s = opened();
    const [e] = s.when((d) => d.execute('StartShoe', { seed: d.nextSeed() }));
    expect(table(s)).toMatchObject({
      position: e!.position,
      revision: e!.revision,
      updated_at: (e!.event.data as { at: string }).at,
    });
  });
});

describe('table view: the settled coup corrected or voided (issue 16)', () => {
  /** A live box-commission table: p1 on banker, p2 on player, 1,000 each; the banker natural settled. */
  function settled(): Scenario<TableViewState> {
    const rules = { dealing: 'live', commission: 'box' };
    return new Scenario<TableViewState>(tableViewProjection, { players: 2, rules }).given((d) => [
      ...d.open(10_000),
      ...d.liveRound(COUPS.bankerNatural, [
        { playerId: 'p1', spot: 'banker', amount: 1_000 },
        { playerId: 'p2', spot: 'player', amount: 1_000 },
      ]),
    ]);
  }

  test('given a settled coup, when a card is corrected, then the cards, the result and the chips and commission owed show the correction', () => {
    const s = settled();
    expect(player(s, 'p1')).toMatchObject({ chips: 11_000, commission_owed: 50 });
    // banker 6+K=6 against the player's 7: the player wins
    s.when((d) => d.execute('CorrectCard', { roundNo: 1, index: 1, card: '6d', reason: 'misread' }, SUPER));
    expect(JSON.parse(table(s).cards_json as string).map((c: { card: string }) => c.card)).toEqual([
      '5d',
      '6d',
      '2d',
      'Kd',
    ]);
    expect(JSON.parse(table(s).result_json as string)).toMatchObject({ outcome: 'player', bankerTotal: 6 });
    expect(JSON.parse(table(s).last_result_json as string)).toMatchObject({ outcome: 'player' });
    expect(player(s, 'p1')).toMatchObject({ chips: 9_000, commission_owed: 0 });
    expect(player(s, 'p2')).toMatchObject({ chips: 11_000 });
    expectIdempotent(s);
  });

  test('given a settled coup, when it is voided, then the round shows voided, no result, every stake back', () => {
    const s = settled();
    s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'shoe found short' }, SUPER));
    expect(table(s)).toMatchObject({ round_status: 'voided', result_json: null, last_result_json: null });
    expect(player(s, 'p1')).toMatchObject({ chips: 10_000, commission_owed: 0 });
    expect(player(s, 'p2')).toMatchObject({ chips: 10_000 });
    expectIdempotent(s);
  });
});
