import type { Actor, TableEvent, TableState } from '@coup/table';
import { COUPS } from '../../testing/coups';
import { Scenario, correctSettled } from '../../testing/scenario';
import {
  HH_HANDS,
  HH_HAND_PLAYERS,
  HH_HAND_STATES,
  HH_SHOES,
  type HandHistoryState,
  handHistoryProjection,
} from '.';

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const SUPER: Actor = { id: 'super-1', role: 'supervisor' };
const P1: Actor = { id: 'p1', role: 'player' };
const P2: Actor = { id: 'p2', role: 'player' };

function expectIdempotent(s: Scenario): void {
  const again = s.again();
  expect(again.writes).toEqual([]);
  expect(again.changed).toBe(false);
  expect(again.stateChanged).toBe(false);
}

const hand = (s: Scenario, roundNo = 1) => s.row(HH_HANDS, { table_id: 'T1', round_no: roundNo })!;
const json = (v: unknown) => JSON.parse(v as string);

function rngShoe(options = {}): Scenario<HandHistoryState> {
  return new Scenario<HandHistoryState>(handHistoryProjection, { players: 2, ...options }).given((d) => [
    ...d.open(100_000),
    ...d.execute('StartShoe', { seed: d.nextSeed() }),
  ]);
}

describe('hand history', () => {
  test('given a shoe, when ShoeStarted, then the shoe row has the commitment, burn and its event, but no seed', () => {
    const s = new Scenario<HandHistoryState>(handHistoryProjection).given((d) => d.open());
    const [e] = s.when((d) => d.execute('StartShoe', { seed: d.nextSeed() }));
    const started = e!.event;
    if (started.type !== 'ShoeStarted') throw new Error('expected ShoeStarted');
    expect(s.row(HH_SHOES, { table_id: 'T1', shoe_no: 1 })).toMatchObject({
      dealing: 'rng',
      decks: 8,
      commitment: started.data.commitment,
      seed: null,
      burn_card: started.data.burnCard,
      burn_count: started.data.burnCount,
      started_position: e!.position,
      started_revision: e!.revision,
      started_hash: e!.hash,
      started_prev_hash: e!.prevHash,
      ended_position: null,
    });
    expect(JSON.stringify(s.state())).not.toContain(started.data.seed!);
    expectIdempotent(s);
  });

  test('given a shoe, when BettingOpened, then a hand starts with its span and the table state before it (no seed)', () => {
    const s = rngShoe();
    const [e] = s.when((d) => d.execute('OpenBetting', {}));
    expect(hand(s)).toMatchObject({
      status: 'betting',
      shoe_no: 1,
      opened_by: 'dealer-1',
      first_position: e!.position,
      last_position: e!.position,
      first_revision: e!.revision,
      last_revision: e!.revision,
      first_prev_hash: e!.prevHash,
      last_hash: e!.hash,
      event_count: 1,
    });
    const before = json(s.row(HH_HAND_STATES, { table_id: 'T1', round_no: 1 })!.state_json) as TableState;
    expect(before).toMatchObject({ phase: 'ready', roundNo: 0, shoeNo: 1 });
    expect(before.shoe!.seed).toBeNull();
    expect(before.shoe!.commitment).toMatch(/^[0-9a-f]{64}$/);
    expectIdempotent(s);
  });

  describe('given betting is open', () => {
    const betting = () => rngShoe().given((d) => d.execute('OpenBetting', {}));

    test('when BetPlaced, then the bet is listed with who and when, and the span grows', () => {
      const s = betting();
      const [e] = s.when((d) =>
        d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 2_500 }, P1),
      );
      expect(json(hand(s).bets_json)).toEqual([
        {
          kind: 'bet',
          playerId: 'p1',
          spot: 'banker',
          amount: 2_500,
          cleared: null,
          rebet: false,
          at: (e!.event.data as { at: string }).at,
          by: 'p1',
          role: 'player',
          position: e!.position,
        },
      ]);
      expect(hand(s)).toMatchObject({
        bet_count: 1,
        players: 'p1',
        last_position: e!.position,
        last_hash: e!.hash,
        event_count: 2,
      });
      expectIdempotent(s);
    });

    test('when BetsCleared, then the clear is listed and the player has no stake', () => {
      const s = betting().given((d) =>
        d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 500 }, P1),
      );
      s.when((d) => d.execute('ClearBets', { roundNo: 1, playerId: 'p1' }, P1));
      const bets = json(hand(s).bets_json);
      expect(bets[1]).toMatchObject({
        kind: 'clear',
        playerId: 'p1',
        amount: 500,
        cleared: { player: 500, banker: 0, tie: 0 },
      });
      expect(hand(s)).toMatchObject({ players: '', total_staked: 0 });
      expectIdempotent(s);
    });

    test('when BettingClosed, then the hand is dealing and records how and by whom', () => {
      const s = betting().given((d) =>
        d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 500 }, P1),
      );
      s.when((d) => d.execute('CloseBetting', { roundNo: 1 }));
      expect(hand(s)).toMatchObject({ status: 'dealing', closed_how: 'dealer', closed_by: 'dealer-1' });
      expectIdempotent(s);
    });

    test('when the coup resolves, then cards, totals, outcome, settlements, totals and per-player rows are recorded', () => {
      const s = betting().given((d) => [
        ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 1_000 }, P1),
        ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p2', spot: 'banker', amount: 2_000 }, P2),
        ...d.execute('CloseBetting', { roundNo: 1 }),
      ]);
      const events = s.when((d) => d.execute('Deal', { roundNo: 1 }));
      const resolved = events.find((e) => e.event.type === 'CoupResolved')!;
      if (resolved.event.type !== 'CoupResolved') throw new Error('expected CoupResolved');
      const d = resolved.event.data;
      const paid = d.settlements.reduce((a, x) => a + x.paid, 0);
      const commission = d.settlements.reduce((a, x) => a + x.commission, 0);
      expect(hand(s)).toMatchObject({
        status: 'resolved',
        outcome: d.outcome,
        natural: d.natural ? 1 : 0,
        player_cards: d.playerCards.join(' '),
        banker_cards: d.bankerCards.join(' '),
        player_total: d.playerTotal,
        banker_total: d.bankerTotal,
        dealer: 'dealer-1',
        total_staked: 3_000,
        total_paid: paid,
        commission,
        commission_mode: 'deducted',
        house_result: 3_000 - paid,
        last_position: resolved.position,
        last_hash: resolved.hash,
        players: 'p1,p2',
      });
      const cards = json(hand(s).cards_json);
      expect(cards.map((c: { card: string }) => c.card)).toEqual(
        events
          .filter((e) => e.event.type === 'CardDealt')
          .map((e) => (e.event.data as { card: string }).card),
      );
      expect(cards[0]).toMatchObject({
        index: 0,
        to: 'player',
        slot: 'player1',
        by: 'dealer-1',
        role: 'dealer',
      });
      expect(json(hand(s).settlements_json)).toEqual(d.settlements);
      const p1 = d.settlements.find((x) => x.playerId === 'p1')!;
      expect(s.row(HH_HAND_PLAYERS, { round_no: 1, player_id: 'p1' })).toMatchObject({
        staked: 1_000,
        paid: p1.paid,
        net: p1.paid - 1_000,
      });
      expect(s.row(HH_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 1, first_round: 1, last_round: 1 });
      expectIdempotent(s);
    });

    test('when RoundVoided, then the hand is voided with the reason, who, and the stakes returned', () => {
      const s = betting().given((d) => [
        ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'tie', amount: 1_000 }, P1),
        ...d.execute('CloseBetting', { roundNo: 1 }),
      ]);
      s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'equipment fault' }, SUPER));
      expect(hand(s)).toMatchObject({
        status: 'voided',
        void_reason: 'equipment fault',
        voided_by: 'super-1',
        outcome: null,
        total_staked: 1_000,
        total_paid: 1_000,
        house_result: 0,
      });
      expect(json(hand(s).returned_json)).toEqual([{ playerId: 'p1', amount: 1_000 }]);
      expect(s.row(HH_HAND_PLAYERS, { round_no: 1, player_id: 'p1' })).toMatchObject({
        staked: 1_000,
        paid: 1_000,
        net: 0,
      });
      expect(s.row(HH_SHOES, { shoe_no: 1 })).toMatchObject({ voids: 1, coups: 0 });
      expectIdempotent(s);
    });

    test('a buy-in during betting is inside the hand span', () => {
      const s = betting();
      const [e] = s.when((d) => d.execute('BuyIn', { playerId: 'p3', amount: 10_000 }, ADMIN));
      expect(hand(s)).toMatchObject({ last_position: e!.position, event_count: 2 });
      expectIdempotent(s);
    });
  });

  test('given a live coup, when a card is corrected, then the card shows corrected and the correction is listed', () => {
    const s = new Scenario<HandHistoryState>(handHistoryProjection, { rules: { dealing: 'live' } }).given(
      (d) => [
        ...d.open(),
        ...d.execute('StartShoe', { firstCard: '2c' }),
        ...d.execute('OpenBetting', {}),
        ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 500 }, P1),
        ...d.execute('CloseBetting', { roundNo: 1 }),
        ...d.execute('DealCard', { roundNo: 1, card: '9h' }),
      ],
    );
    const [e] = s.when((d) => d.execute('CorrectCard', { roundNo: 1, index: 0, card: '3d' }, SUPER));
    expect(json(hand(s).cards_json)[0]).toMatchObject({ card: '3d', correctedFrom: '9h', shoePosition: 3 });
    expect(json(hand(s).corrections_json)).toEqual([
      {
        index: 0,
        oldCard: '9h',
        newCard: '3d',
        at: (e!.event.data as { at: string }).at,
        by: 'super-1',
        role: 'supervisor',
        position: e!.position,
      },
    ]);
    expectIdempotent(s);
  });

  test('given the last coup of a shoe, when ShoeEnded, then the shoe row reveals the seed and records its event', () => {
    const s = rngShoe();
    const seed = s.driver.state.shoe!.seed!;
    const [e] = s.when((d) => d.execute('EndShoe', {}, SUPER));
    expect(s.row(HH_SHOES, { shoe_no: 1 })).toMatchObject({
      seed,
      end_reason: 'supervisor',
      ended_position: e!.position,
      ended_revision: e!.revision,
      ended_hash: e!.hash,
    });
    expectIdempotent(s);
  });

  test('hands of a whole shoe: one row each, contiguous spans, ordered positions', () => {
    const s = rngShoe({ voidRate: 0.1 });
    for (let i = 0; i < 30; i++) s.given((d) => d.playRound());
    const hands = s.rows(HH_HANDS).sort((a, b) => Number(a.round_no) - Number(b.round_no));
    expect(hands).toHaveLength(30);
    for (const h of hands) {
      expect(['resolved', 'voided']).toContain(h.status);
      expect(Number(h.last_revision) - Number(h.first_revision) + 1).toBe(h.event_count);
    }
    for (let i = 1; i < hands.length; i++)
      expect(Number(hands[i]!.first_position)).toBeGreaterThan(Number(hands[i - 1]!.last_position));
  });

  test.each(['__proto__', 'constructor', 'toString'])(
    'an event type named like an Object property (%s, from a newer writer) is skipped, not run as a handler',
    (type) => {
      const s = rngShoe();
      const before = s.state();
      s.feed([{ type, data: {} } as unknown as TableEvent]);
      expect(s.state()).toEqual({ ...before, position: s.state().position });
      expect(s.row(HH_SHOES, { table_id: 'T1', shoe_no: 1 })).toBeDefined();
    },
  );
});

describe('hand history: side bets and game modes', () => {
  /** A live table of these rules, two players seated with 100,000. */
  function live(rules: Record<string, unknown>): Scenario<HandHistoryState> {
    return new Scenario<HandHistoryState>(handHistoryProjection, {
      players: 2,
      rules: { dealing: 'live', ...rules },
    }).given((d) => d.open(100_000));
  }

  test('given an EZ table, when a Dragon 7 resolves, then each bet shows its spot and paytable, each settlement its result and payout, and the money counts the side bets', () => {
    const s = live({ game: 'ez', sideBets: { dragon7: {}, panda8: {}, playerPair: {} } });
    s.when((d) =>
      d.liveRound(COUPS.dragon7, [
        { playerId: 'p1', spot: 'banker', amount: 1_000 },
        { playerId: 'p1', spot: 'dragon7', amount: 500 },
        { playerId: 'p2', spot: 'tie', amount: 100 },
        { playerId: 'p2', spot: 'panda8', amount: 200 },
        { playerId: 'p2', spot: 'playerPair', amount: 100 },
      ]),
    );
    const h = hand(s);
    expect(
      (json(h.bets_json) as { spot: string; paytable?: string; amount: number }[]).map((b) => [
        b.spot,
        b.paytable,
        b.amount,
      ]),
    ).toEqual([
      ['banker', undefined, 1_000],
      ['dragon7', '40-to-1', 500],
      ['tie', undefined, 100],
      ['panda8', '25-to-1', 200],
      ['playerPair', '11-to-1', 100],
    ]);
    expect(json(h.settlements_json)).toEqual([
      { playerId: 'p1', spot: 'banker', amount: 1_000, result: 'push', paid: 1_000, commission: 0 },
      {
        playerId: 'p1',
        spot: 'dragon7',
        amount: 500,
        result: 'win',
        paid: 20_500,
        commission: 0,
        paytable: '40-to-1',
      },
      { playerId: 'p2', spot: 'tie', amount: 100, result: 'lose', paid: 0, commission: 0 },
      {
        playerId: 'p2',
        spot: 'playerPair',
        amount: 100,
        result: 'lose',
        paid: 0,
        commission: 0,
        paytable: '11-to-1',
      },
      {
        playerId: 'p2',
        spot: 'panda8',
        amount: 200,
        result: 'lose',
        paid: 0,
        commission: 0,
        paytable: '25-to-1',
      },
    ]);
    expect(h).toMatchObject({
      status: 'resolved',
      outcome: 'banker',
      total_staked: 1_900,
      total_paid: 21_500,
      house_result: 1_900 - 21_500,
      players: 'p1,p2',
      bet_count: 5,
    });
    expect(s.row(HH_HAND_PLAYERS, { round_no: 1, player_id: 'p1' })).toMatchObject({
      staked: 1_500,
      paid: 21_500,
      net: 20_000,
    });
    expect(s.row(HH_HAND_PLAYERS, { round_no: 1, player_id: 'p2' })).toMatchObject({
      staked: 400,
      paid: 0,
      net: -400,
    });
    expectIdempotent(s);
  });

  test('given side bets on a no-commission table, when the round is voided, then every stake (side bets too) is returned and shown', () => {
    const s = live({ game: 'no-commission', sideBets: { super6: {}, big: {} } });
    s.given((d) => [
      ...d.execute('StartShoe', { firstCard: 'Qs' }),
      ...d.execute('OpenBetting', {}),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 1_000 }, P1),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'super6', amount: 200 }, P1),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p2', spot: 'player', amount: 100 }, P2),
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p2', spot: 'big', amount: 500 }, P2),
      ...d.execute('CloseBetting', { roundNo: 1 }),
    ]);
    s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'misdeal' }, SUPER));
    expect(hand(s)).toMatchObject({
      status: 'voided',
      total_staked: 1_800,
      total_paid: 1_800,
      house_result: 0,
    });
    expect(json(hand(s).returned_json)).toEqual([
      { playerId: 'p1', amount: 1_200 },
      { playerId: 'p2', amount: 600 },
    ]);
    expect((json(hand(s).bets_json) as { paytable?: string }[]).map((b) => b.paytable)).toEqual([
      undefined,
      '12-to-1',
      undefined,
      '0.54-to-1',
    ]);
    expectIdempotent(s);
  });
});

describe('hand history: the settled coup corrected or voided (issue 16)', () => {
  const WHY = { by: 'super-1', role: 'supervisor' } as const;

  const settled = () => Scenario.settledLive<HandHistoryState>(handHistoryProjection, COUPS.playerNatural);
  const correct = correctSettled;

  test('given a settled coup, when a card is corrected, then the hand shows the corrected result, the original, and the correction with who and why; its span ends at the correction', () => {
    const s = settled();
    const before = hand(s);
    // a buy-in after the coup: inside the span once the correction extends it
    s.given((d) => d.execute('BuyIn', { playerId: 'p3', amount: 5_000 }, ADMIN));
    const [e] = s.when(correct(3, '4d', 'dealer typed 2d for 4d'));
    const row = hand(s);
    expect(row).toMatchObject({
      status: 'resolved',
      outcome: 'tie',
      natural: 1,
      player_cards: '9d Kd',
      banker_cards: '5d 4d',
      player_total: 9,
      banker_total: 9,
      total_staked: 2_000,
      total_paid: 2_000,
      house_result: 0,
      amendments: 1,
      resolved_at: before.resolved_at,
      bets_json: before.bets_json,
      first_position: before.first_position,
      last_position: e!.position,
      last_revision: e!.revision,
      last_hash: e!.hash,
      event_count: Number(before.event_count) + 2,
    });
    expect(json(row.cards_json)[3]).toMatchObject({ card: '4d', correctedFrom: '2d', to: 'banker' });
    const pushes = [
      { playerId: 'p1', spot: 'player', amount: 1_000, result: 'push', paid: 1_000, commission: 0 },
      { playerId: 'p2', spot: 'banker', amount: 1_000, result: 'push', paid: 1_000, commission: 0 },
    ];
    expect(json(row.settlements_json)).toEqual(pushes);
    const original = json(row.original_json);
    expect(original).toMatchObject({
      outcome: 'player',
      playerTotal: 9,
      bankerTotal: 7,
      bankerCards: ['5d', '2d'],
      settlements: json(before.settlements_json),
      by: 'dealer-1',
      at: before.resolved_at,
    });
    expect(json(row.amendments_json)).toEqual([
      {
        kind: 'correction',
        index: 3,
        oldCard: '2d',
        newCard: '4d',
        outcome: 'tie',
        natural: true,
        playerCards: ['9d', 'Kd'],
        bankerCards: ['5d', '4d'],
        playerTotal: 9,
        bankerTotal: 9,
        settlements: pushes,
        reversed: original.settlements,
        reason: 'dealer typed 2d for 4d',
        at: (e!.event.data as { at: string }).at,
        ...WHY,
        position: e!.position,
      },
    ]);
    expect(s.row(HH_HAND_PLAYERS, { round_no: 1, player_id: 'p1' })).toMatchObject({ paid: 1_000, net: 0 });
    expect(s.row(HH_HAND_PLAYERS, { round_no: 1, player_id: 'p2' })).toMatchObject({ paid: 1_000, net: 0 });
    expect(s.row(HH_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 1, voids: 0 });
    expectIdempotent(s);
  });

  test('given a corrected settled coup, when it is corrected again, then both corrections are listed and the original stays', () => {
    const s = settled().given(correct(3, '4d', 'dealer typed 2d for 4d'));
    const first = hand(s);
    s.when(correct(3, '3d', 'it was the three'));
    const row = hand(s);
    expect(row).toMatchObject({ outcome: 'player', banker_total: 8, amendments: 2 });
    expect(row.original_json).toBe(first.original_json);
    const [one, two] = json(row.amendments_json);
    expect(two).toMatchObject({
      kind: 'correction',
      oldCard: '4d',
      newCard: '3d',
      reversed: one.settlements,
    });
    expect(json(row.cards_json)[3]).toMatchObject({ card: '3d', correctedFrom: '2d' });
    expectIdempotent(s);
  });

  test('given a settled coup, when it is voided, then the hand is voided with who and why, every stake returned, the original kept; the shoe counts a void instead of the coup', () => {
    const s = settled();
    const before = hand(s);
    const [e] = s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'shoe found short' }, SUPER));
    const row = hand(s);
    expect(row).toMatchObject({
      status: 'voided',
      outcome: null,
      player_cards: null,
      void_reason: 'shoe found short',
      voided_by: 'super-1',
      total_staked: 2_000,
      total_paid: 2_000,
      house_result: 0,
      amendments: 1,
      cards_json: before.cards_json,
      last_position: e!.position,
    });
    expect(json(row.settlements_json)).toEqual([]);
    const returned = [
      { playerId: 'p1', amount: 1_000 },
      { playerId: 'p2', amount: 1_000 },
    ];
    expect(json(row.returned_json)).toEqual(returned);
    expect(json(row.original_json)).toMatchObject({
      outcome: 'player',
      settlements: json(before.settlements_json),
    });
    expect(json(row.amendments_json)).toEqual([
      {
        kind: 'void',
        returned,
        reversed: json(before.settlements_json),
        reason: 'shoe found short',
        at: (e!.event.data as { at: string }).at,
        ...WHY,
        position: e!.position,
      },
    ]);
    expect(s.row(HH_HAND_PLAYERS, { round_no: 1, player_id: 'p1' })).toMatchObject({ paid: 1_000, net: 0 });
    expect(s.row(HH_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 0, voids: 1 });
    expectIdempotent(s);
  });

  test('given a settled coup whose shoe ended and another started, when it is voided, then its own shoe counts the void', () => {
    const s = settled().given((d) => [
      ...d.execute('EndShoe', {}, SUPER),
      ...d.execute('StartShoe', { firstCard: '7c' }),
    ]);
    s.when((d) => d.execute('VoidRound', { roundNo: 1, reason: 'shoe found short' }, SUPER));
    expect(hand(s)).toMatchObject({ status: 'voided', shoe_no: 1 });
    expect(s.row(HH_SHOES, { shoe_no: 1 })).toMatchObject({ coups: 0, voids: 1 });
    expect(s.row(HH_SHOES, { shoe_no: 2 })).toMatchObject({ coups: 0, voids: 0 });
    expectIdempotent(s);
  });

  test('given a settled coup, when the next betting opens, then the coup is no longer kept for corrections', () => {
    const s = settled();
    expect(s.state().settled).toMatchObject({ roundNo: 1 });
    s.when((d) => d.execute('OpenBetting', {}));
    expect(s.state().settled).toBeNull();
    expectIdempotent(s);
  });
});
