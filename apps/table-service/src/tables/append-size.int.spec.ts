/**
 * A single command's events are appended whole (ADR-24), so each command must fit EventStoreDB's maximum append size
 * (1 MiB by default) on its own, keyed or not, in the worst case the rules allow: a round of the most stakes a round
 * takes (2,000), of players with 64-character ids, at the largest amounts, with side bets and their paytables; actor
 * ids, the Idempotency-Key and the correlation id at their longest. Measured as the adapter measures an append
 * (EventStoreDbEventStore.appendSize: data, metadata with the chain's fields, twice the type).
 */
import { GAME_MODES, SIDE_BETS, SIDE_SPOTS, type Card } from '@coup/engine';
import { EventStoreDbEventStore } from '@coup/event-store';
import {
  ACTOR_ID_MAX_LENGTH,
  decide,
  evolve,
  initialState,
  normalizeRules,
  tableStream,
  type Actor,
  type TableCommand,
  type TableState,
} from '@coup/table';
import { decideBatch } from './batch';
import { requestHashOf } from './idempotency';

const MIB = 1024 * 1024;
/** What a command may take of the default 1 MiB: the rest is margin (a server's own bytes, rounding). */
const BUDGET = 0.8 * MIB;
const STAKES = 2000;
const AT = '2030-01-01T12:00:00.000Z';
const longId = (prefix: string) => `${prefix}-${'a'.repeat(ACTOR_ID_MAX_LENGTH - prefix.length - 1)}`;
const ADMIN: Actor = { id: longId('admin'), role: 'admin' };
const DEALER: Actor = { id: longId('dealer'), role: 'dealer' };
const SUPERVISOR: Actor = { id: longId('supervisor'), role: 'supervisor' };
const KEY = 'k'.repeat(128);
const CORRELATION = 'c'.repeat(128);
const playerId = (i: number) => `${String(i).padStart(6, '0')}${'p'.repeat(58)}`;
const BIG = 1_000_000_000_000; // MAX_LIMIT: the largest limit a table takes

/** A table building its state through the decider. */
class Table {
  state: TableState = initialState;
  constructor(readonly tableId: string) {}

  run(type: TableCommand['type'], data: object, actor: Actor = DEALER): void {
    const decision = decide(this.command(type, data, actor), this.state);
    if (!decision.ok) throw new Error(`${type}: ${decision.error.code} ${decision.error.message}`);
    for (const e of decision.events) this.state = evolve(this.state, e);
  }

  refusal(type: TableCommand['type'], data: object, actor: Actor = DEALER): string | null {
    const decision = decide(this.command(type, data, actor), this.state);
    return decision.ok ? null : decision.error.code;
  }

  command(type: TableCommand['type'], data: object, actor: Actor): TableCommand {
    return { type, data, meta: { actor, at: AT } } as TableCommand;
  }

  /** The append of `type` sent with the longest Idempotency-Key and correlation id, measured; it is then applied. */
  keyedAppendSize(type: TableCommand['type'], data: object, actor: Actor): number {
    const command = this.command(type, data, actor);
    const pending = {
      command,
      key: KEY,
      requestHash: requestHashOf(command),
      correlationId: CORRELATION,
      enqueuedAt: 0n,
      resolve: () => undefined,
      reject: () => undefined,
    };
    const batch = decideBatch(this.tableId, this.state, [pending], () => undefined);
    const outcome = batch.outcomes[0]!;
    if (!outcome.ok) throw new Error(`${type}: ${outcome.error.code} ${outcome.error.message}`);
    this.state = batch.state;
    return EventStoreDbEventStore.appendSize(tableStream(this.tableId), batch.events);
  }
}

/** The side bets a game offers, each with its longest paytable name. */
function sideBetsOf(game: string, base: Record<string, unknown>): Record<string, { paytable: string }> {
  const chosen: Record<string, { paytable: string }> = {};
  for (const spot of SIDE_SPOTS) {
    const names = Object.keys(SIDE_BETS[spot].paytables).sort((a, b) => b.length - a.length);
    const paytable = names.find(
      (name) => normalizeRules({ ...base, game, sideBets: { ...chosen, [spot]: { paytable: name } } }).ok,
    );
    if (paytable !== undefined) chosen[spot] = { paytable };
  }
  return chosen;
}

/** Rules for the worst case: the largest limits, and (with `sides`) every side bet the widest game offers. */
function worstRules(dealing: 'live' | 'rng', sides: boolean): Record<string, unknown> {
  const limit = { min: 100, max: BIG };
  const base = { dealing, chips: [100], limits: { player: limit, banker: limit, tie: limit } };
  if (!sides) return base;
  const widest = GAME_MODES.map((game) => ({ game, sideBets: sideBetsOf(game, base) })).sort(
    (a, b) => Object.keys(b.sideBets).length - Object.keys(a.sideBets).length,
  )[0]!;
  return { ...base, game: widest.game, sideBets: widest.sideBets };
}

/**
 * A round of STAKES stakes at the largest amounts, betting closed: each player stakes banker and (`sides`) every
 * side bet offered; a stake past STAKES is refused ROUND_FULL.
 */
function fullRound(tableId: string, dealing: 'live' | 'rng', sides: boolean): Table {
  const t = new Table(tableId);
  const rules = worstRules(dealing, sides);
  t.run('OpenTable', { tableId, rules }, ADMIN);
  const spots = ['banker', ...Object.keys((rules['sideBets'] as object | undefined) ?? {})];
  const players = Math.ceil(STAKES / spots.length);
  for (let i = 0; i < players + 1; i++)
    t.run('BuyIn', { playerId: playerId(i), amount: BIG * spots.length }, ADMIN);
  t.run('StartShoe', dealing === 'live' ? { firstCard: 'Qs' } : { seed: 'ab'.repeat(32) });
  t.run('OpenBetting', {});
  let stakes = 0;
  for (let i = 0; stakes < STAKES; i++)
    for (const spot of spots.slice(0, STAKES - stakes)) {
      t.run(
        'PlaceBet',
        { roundNo: 1, playerId: playerId(i), spot, amount: BIG },
        { id: playerId(i), role: 'player' },
      );
      stakes++;
    }
  const extra = { roundNo: 1, playerId: playerId(players), spot: 'banker', amount: 100 };
  expect(t.refusal('PlaceBet', extra, { id: playerId(players), role: 'player' })).toBe('ROUND_FULL');
  t.run('CloseBetting', { roundNo: 1 });
  return t;
}

/** The first correction of a card of the settled coup the decider takes (from the last card back). */
function correction(t: Table): { index: number; card: string } {
  const cards = t.state.round?.cards.map((c) => c.card) ?? [];
  for (let index = cards.length - 1; index >= 0; index--)
    for (const rank of 'A23456789TJQK') {
      const card = `${rank}${cards[index]![1]}`;
      const data = { roundNo: 1, index, card, reason: 'r'.repeat(500) };
      if (card !== cards[index] && t.refusal('CorrectCard', data, SUPERVISOR) === null)
        return { index, card };
    }
  throw new Error('no correction taken');
}

describe.each([
  ['main bets only', false],
  ['side bets', true],
] as const)('a round of 2,000 stakes (%s): each command fits one append with room to spare', (_, sides) => {
  jest.setTimeout(120_000);

  it('a keyed Deal (rng): the coup and its settlement', () => {
    const t = fullRound('SIZE-RNG', 'rng', sides);
    expect(t.keyedAppendSize('Deal', { roundNo: 1 }, DEALER)).toBeLessThan(BUDGET);
  });

  it('a keyed last card (live), then a keyed correction of the settled coup, then a keyed void of it', () => {
    const t = fullRound('SIZE-LIVE', 'live', sides);
    const cards: Card[] = ['9s', '7h', 'Kc', 'Qd']; // a natural nine: complete after four cards
    for (const card of cards.slice(0, -1)) t.run('DealCard', { roundNo: 1, card });
    expect(t.keyedAppendSize('DealCard', { roundNo: 1, card: cards.at(-1) }, DEALER)).toBeLessThan(BUDGET);
    expect(t.state.round?.status).toBe('resolved');
    const fix = correction(t);
    const corrected = t.keyedAppendSize(
      'CorrectCard',
      { roundNo: 1, ...fix, reason: 'r'.repeat(500) },
      SUPERVISOR,
    );
    expect(corrected).toBeLessThan(BUDGET);
    const voided = t.keyedAppendSize('VoidRound', { roundNo: 1, reason: 'v'.repeat(500) }, SUPERVISOR);
    expect(voided).toBeLessThan(BUDGET);
  });
});

describe('a close cashing out every player', () => {
  it('a keyed CloseTable of the most players a close cashes out (500) fits one append; one more is refused', () => {
    const t = new Table('SIZE-CLOSE');
    t.run('OpenTable', { tableId: t.tableId, rules: worstRules('rng', false) }, ADMIN);
    const richest = Math.floor(Number.MAX_SAFE_INTEGER / 100) * 100;
    for (let i = 0; i < 501; i++) t.run('BuyIn', { playerId: playerId(i), amount: richest }, ADMIN);
    t.run('StartShoe', { seed: 'ab'.repeat(32) }); // a shoe in play: the close ends it too
    expect(t.refusal('CloseTable', { cashOutAll: true }, ADMIN)).toBe('PLAYERS_SEATED');
    t.run('CashOut', { playerId: playerId(500) }, ADMIN);
    expect(t.keyedAppendSize('CloseTable', { cashOutAll: true }, ADMIN)).toBeLessThan(BUDGET); // about 0.5 MB
    expect(t.state.phase).toBe('closed');
  });
});
