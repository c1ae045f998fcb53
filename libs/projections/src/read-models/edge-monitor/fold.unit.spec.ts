import { type Card, DECK, type Spot, exactBetOddsForShoe } from '@coup/engine';
import type { Actor, TableEvent } from '@coup/table';
import type { ProjectionEvent } from '../kernel/types';
import { Scenario } from '../../testing/scenario';
import { EM_ALERTS, EM_TABLES, EM_WAGERS, type EdgeState, edgeMonitorProjection } from '.';
import { COUPS, EZ_ONE_DECK } from '../../testing/coups';

const SUPER: Actor = { id: 'super-1', role: 'supervisor' };

const SPOTS: Spot[] = ['player', 'banker', 'tie', 'playerPair', 'dragon7', 'panda8'];

function expectIdempotent(s: Scenario): void {
  const again = s.again();
  expect(again.writes).toEqual([]);
  expect(again.changed).toBe(false);
  expect(again.stateChanged).toBe(false);
}

const tableRow = (s: Scenario) => s.row(EM_TABLES, { table_id: 'T1' })!;
const values = (s: Scenario) =>
  JSON.parse(tableRow(s).values_json as string) as { spot: Spot; ev: number; evExact: string }[];

/**
 * The cards not seen in the current shoe, counted independently of the fold: a full shoe less the turned card
 * and the last card recorded at each index of each round (a correction replaces it), voided rounds included.
 */
function unseen(events: readonly ProjectionEvent[], decks: number): number[] {
  let counts: number[] = [];
  let dealt = new Map<string, Card>();
  const take = (card: Card) => {
    const i = DECK.indexOf(card);
    counts[i] = counts[i]! - 1;
  };
  for (const { event: e } of events) {
    if (e.type === 'ShoeStarted') {
      counts = DECK.map(() => decks);
      dealt = new Map();
      if (e.data.burnCard) take(e.data.burnCard);
    }
    if (e.type === 'CardDealt') dealt.set(`${e.data.roundNo}/${e.data.index}`, e.data.card);
    if (e.type === 'CardCorrected' || e.type === 'SettledCoupCorrected')
      dealt.set(`${e.data.roundNo}/${e.data.index}`, e.data.newCard);
  }
  for (const card of dealt.values()) take(card);
  return counts;
}

/** Every offered bet's exact value on the cards not seen, straight from the engine. */
function expectedValues(events: readonly ProjectionEvent[]) {
  const odds = exactBetOddsForShoe(unseen(events, 1), { game: 'ez', spots: SPOTS });
  return SPOTS.map((spot) => ({ spot, ev: odds.bets[spot]!.ev }));
}

describe('the remaining-shoe edge monitor', () => {
  test('given a monitored table, when its shoe starts, then every offered bet is valued on the deck less the turned card', () => {
    const s = new Scenario<EdgeState>(edgeMonitorProjection, { rules: EZ_ONE_DECK, seed: 4 }).given((d) =>
      d.open(),
    );
    expect(s.rows(EM_TABLES)).toEqual([expect.objectContaining({ shoe_no: null, favourable: 0 })]);
    s.when((d) => d.execute('StartShoe', { firstCard: '7d' }));
    expect(tableRow(s)).toMatchObject({
      shoe_no: 1,
      round_no: 1,
      coup_in_shoe: 0,
      cards_seen: 1,
      cards_left: 51,
    });
    const deck = DECK.map((c) => (c === '7d' ? 0 : 1));
    const odds = exactBetOddsForShoe(deck, { game: 'ez', spots: SPOTS });
    expect(values(s).map((v) => [v.spot, v.ev])).toEqual(SPOTS.map((spot) => [spot, odds.bets[spot]!.ev]));
    expect(values(s).find((v) => v.spot === 'dragon7')!.evExact).toBe(
      `${odds.bets.dragon7!.evExact.numerator}/${odds.bets.dragon7!.evExact.denominator}`,
    );
    expectIdempotent(s);
  });

  test('given coups dealt, a card corrected and a round voided, when each round ends, then the values are those of the cards not seen', () => {
    const s = new Scenario<EdgeState>(edgeMonitorProjection, {
      rules: EZ_ONE_DECK,
      seed: 4,
      correctionRate: 0.5,
    }).given((d) => d.open());
    const all: ProjectionEvent[] = [...s.last];
    let coups = 0;
    for (let i = 0; i < 5; i++) {
      const events = s.when((d) => d.playRound({ void: i === 2 }));
      all.push(...events);
      coups += events.some((e) => e.event.type === 'CoupResolved') ? 1 : 0;
      const shown = values(s).map((v) => ({ spot: v.spot, ev: v.ev }));
      expect(shown).toEqual(expectedValues(all));
      expect(tableRow(s)).toMatchObject({ round_no: i + 2, coup_in_shoe: coups });
      expectIdempotent(s);
    }
    expect(all.some((e) => e.event.type === 'CardCorrected')).toBe(true);
    expect(all.some((e) => e.event.type === 'RoundVoided')).toBe(true);
    expect(coups).toBe(4);
    expect(tableRow(s).cards_left).toBe(unseen(all, 1).reduce((a, n) => a + n, 0));
  });

  test('given a bet favourable for the next round, when betting opens, then an alert names the table, round, shoe, coup and bet with its exact value', () => {
    // one deck, seed 4: after the first coup Dragon 7 favours the player
    const s = new Scenario<EdgeState>(edgeMonitorProjection, { rules: EZ_ONE_DECK, seed: 4 }).given((d) => [
      ...d.open(),
      ...d.playRound(),
    ]);
    const favoured = values(s).filter((v) => v.ev > 0);
    expect(favoured.map((v) => v.spot)).toEqual(['dragon7']);
    expect(tableRow(s)).toMatchObject({ round_no: 2, favourable: 1 });
    expect(s.rows(EM_ALERTS)).toEqual([]);
    const [opened] = s.when((d) => d.execute('OpenBetting', {}));
    expect(s.rows(EM_ALERTS)).toEqual([
      expect.objectContaining({
        table_id: 'T1',
        round_no: 2,
        spot: 'dragon7',
        shoe_no: 1,
        coup_in_shoe: 1,
        paytable: '40-to-1',
        ev: favoured[0]!.ev,
        ev_exact: favoured[0]!.evExact,
        opened_at: (opened!.event.data as { at: string }).at,
        day: '2025-01-01',
        position: opened!.position,
      }),
    ]);
    expectIdempotent(s);
  });

  test('given an alert, when the coup resolves, then the stakes on that bet are counted per player with their results, other bets not', () => {
    const s = new Scenario<EdgeState>(edgeMonitorProjection, { rules: EZ_ONE_DECK, seed: 4 }).given((d) => [
      ...d.open(),
      ...d.playRound(),
      ...d.execute('OpenBetting', {}),
    ]);
    const bet = (playerId: string, spot: Spot, amount: number) =>
      s.driver.execute('PlaceBet', { roundNo: 2, playerId, spot, amount }, { id: playerId, role: 'player' });
    s.given(() => [
      ...bet('p1', 'banker', 1_000),
      ...bet('p1', 'dragon7', 500),
      ...bet('p2', 'player', 100),
      ...bet('p2', 'dragon7', 100),
    ]);
    const events = s.when((d) => [...d.execute('CloseBetting', { roundNo: 2 }), ...d.dealLiveShoe(2)]);
    const resolved = events
      .map((e) => e.event)
      .find((e): e is Extract<TableEvent, { type: 'CoupResolved' }> => e.type === 'CoupResolved')!;
    const paid = (playerId: string) =>
      resolved.data.settlements.find((x) => x.playerId === playerId && x.spot === 'dragon7')!.paid;
    expect(s.rows(EM_WAGERS)).toEqual([
      {
        table_id: 'T1',
        round_no: 2,
        spot: 'dragon7',
        player_id: 'p1',
        bets: 1,
        staked: 500,
        paid: paid('p1'),
        net: paid('p1') - 500,
      },
      {
        table_id: 'T1',
        round_no: 2,
        spot: 'dragon7',
        player_id: 'p2',
        bets: 1,
        staked: 100,
        paid: paid('p2'),
        net: paid('p2') - 100,
      },
    ]);
    expectIdempotent(s);
  });

  test('given a shoe dealt to its cut card, when it ends, then no value stands and every alert is of a round that opened in it', () => {
    const s = new Scenario<EdgeState>(edgeMonitorProjection, { rules: EZ_ONE_DECK, seed: 4 }).given((d) =>
      d.open(),
    );
    const opened = new Set<number>();
    do {
      for (const e of s.when((d) => d.playRound()))
        if (e.event.type === 'BettingOpened') opened.add(e.event.data.roundNo);
    } while (s.driver.state.phase !== 'idle');
    expect(s.last.some((e) => e.event.type === 'ShoeEnded')).toBe(true);
    expect(tableRow(s)).toMatchObject({ shoe_no: null, round_no: null, favourable: 0, values_json: null });
    const alerts = s.rows(EM_ALERTS);
    expect(alerts.length).toBeGreaterThan(0);
    for (const a of alerts) expect(opened.has(a.round_no as number)).toBe(true);
    expectIdempotent(s);
  });

  test.each([
    ['every-coup', { shuffle: 'every-coup', sideBets: { playerPair: {} } }],
    ['without side bets', { dealing: 'live', decks: 1, cutCard: 12 }],
  ])('a table that is not monitored (%s) gets no row, and its state never changes', (_name, rules) => {
    const s = new Scenario<EdgeState>(edgeMonitorProjection, { rules, seed: 4 });
    const initial = edgeMonitorProjection.initial('T1');
    s.given((d) => d.open());
    for (let i = 0; i < 3; i++) s.when((d) => d.playRound());
    expect(s.rows(EM_TABLES)).toEqual([]);
    expect(s.rows(EM_ALERTS)).toEqual([]);
    expect(s.projection.state('T1') ?? initial).toEqual(initial);
  });

  test('given a monitored table, when a supervisor ends the shoe between rounds, then the values are gone', () => {
    const s = new Scenario<EdgeState>(edgeMonitorProjection, { rules: EZ_ONE_DECK, seed: 4 }).given((d) => [
      ...d.open(),
      ...d.playRound(),
    ]);
    s.when((d) => d.execute('EndShoe', {}, SUPER));
    expect(tableRow(s)).toMatchObject({ shoe_no: null, favourable: 0 });
    expectIdempotent(s);
  });

  test('given a settled coup, when a card is corrected after it settled, then the corrected card counts as seen instead of the one first entered', () => {
    const s = new Scenario<EdgeState>(edgeMonitorProjection, { rules: EZ_ONE_DECK, seed: 4 }).given((d) => [
      ...d.open(),
      ...d.liveRound(COUPS.playerNatural, [{ playerId: 'p1', spot: 'player', amount: 1_000 }]),
    ]);
    const all: ProjectionEvent[] = [...s.last];
    const before = tableRow(s);
    all.push(
      ...s.when((d) =>
        d.execute('CorrectCard', { roundNo: 1, index: 3, card: '4d', reason: 'misread' }, SUPER),
      ),
    );
    expect(values(s).map((v) => ({ spot: v.spot, ev: v.ev }))).toEqual(expectedValues(all));
    expect(values(s)).not.toEqual(JSON.parse(before.values_json as string));
    expect(tableRow(s)).toMatchObject({
      round_no: 2,
      coup_in_shoe: 1,
      cards_seen: before.cards_seen,
      cards_left: before.cards_left,
    });
    expectIdempotent(s);
  });

  test('given wagers on a favoured bet, when the coup is voided after it settled, then they are counted back; the coup leaves the count, its cards stay seen', () => {
    const s = new Scenario<EdgeState>(edgeMonitorProjection, { rules: EZ_ONE_DECK, seed: 4 }).given((d) => [
      ...d.open(),
      ...d.playRound(),
      ...d.execute('OpenBetting', {}),
    ]);
    s.given((d) => [
      ...d.execute(
        'PlaceBet',
        { roundNo: 2, playerId: 'p1', spot: 'banker', amount: 1_000 },
        { id: 'p1', role: 'player' },
      ),
      ...d.execute(
        'PlaceBet',
        { roundNo: 2, playerId: 'p1', spot: 'dragon7', amount: 500 },
        { id: 'p1', role: 'player' },
      ),
      ...d.execute('CloseBetting', { roundNo: 2 }),
      ...d.dealLiveShoe(2),
    ]);
    const dealt = tableRow(s);
    expect(s.rows(EM_WAGERS)).toEqual([expect.objectContaining({ spot: 'dragon7', bets: 1, staked: 500 })]);
    s.when((d) => d.execute('VoidRound', { roundNo: 2, reason: 'shoe found short' }, SUPER));
    expect(s.rows(EM_WAGERS)).toEqual([
      expect.objectContaining({ spot: 'dragon7', player_id: 'p1', bets: 0, staked: 0, paid: 0, net: 0 }),
    ]);
    expect(tableRow(s)).toMatchObject({
      round_no: 3,
      coup_in_shoe: Number(dealt.coup_in_shoe) - 1,
      cards_seen: dealt.cards_seen,
      cards_left: dealt.cards_left,
    });
    expectIdempotent(s);
  });
});
