/**
 * The decider's golden corpus: random command sequences (fast-check, fixed seed) run through decide + evolve +
 * replyFor. Each step records what the decider answered: the events and the reply, or the refusal. A sequence's
 * record is hashed (SHA-256 of its JSON, key order included: the bytes the store would keep), so a golden file of
 * hashes detects any byte difference in any event, reply or refusal.
 *
 * The generator is deterministic: fast-check draws abstract steps (a command type and a few numbers) from a fixed
 * seed, and `concretize` turns them into commands against the state folded so far (the current round, the phase),
 * mostly sensible commands that move the table on, some with a wrong field, actor or envelope, so every command
 * type and every refusal is reached.
 */
import { ALL_SPOTS } from '@coup/engine';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  type Actor,
  type TableCommand,
  type TableCommandType,
  type TableState,
  ONLINE_CROUPIER,
  decide,
  evolve,
  initialState,
  onlineCashier,
  replyFor,
} from '../../src';

export const CORPUS_SEED = 19_019;
export const CORPUS_SIZE = 10_000;

const TYPES: readonly TableCommandType[] = [
  'OpenTable',
  'CloseTable',
  'BuyIn',
  'CashOut',
  'StartShoe',
  'OpenBetting',
  'PlaceBet',
  'ClearBets',
  'Rebet',
  'CloseBetting',
  'Deal',
  'DealCard',
  'ConfirmResult',
  'CorrectCard',
  'VoidRound',
  'EndShoe',
];

/** A table to play: its id and the rules it opens with. */
const VARIANTS: readonly { tableId: string; rules: Record<string, unknown>; personal?: string }[] = [
  { tableId: 'T1', rules: {} },
  { tableId: 'T2', rules: { decks: 1, cutCard: 12, bettingSeconds: 30, commission: 'box' } },
  { tableId: 'EC-1', rules: { shuffle: 'every-coup', tiePays: 9, bettingSeconds: 20 } },
  { tableId: 'L1', rules: { dealing: 'live', decks: 1, cutCard: 12, confirmResult: true } },
  {
    tableId: 'L2',
    rules: {
      dealing: 'live',
      allowPlayerAndBanker: true,
      commission: 'box',
      bettingSeconds: 10,
      correctionSeconds: 20,
    },
  },
  {
    tableId: 'online-p1',
    personal: 'p1',
    rules: { dealtBy: 'player', shuffle: 'every-coup', bettingSeconds: null },
  },
  { tableId: 'solo_2', rules: { dealtBy: 'player', decks: 2, cutCard: 14 } },
  {
    tableId: 'T3',
    rules: {
      decks: 6,
      maxStakes: 2,
      chips: [50, 100, 1000],
      limits: {
        player: { min: 50, max: 20_000 },
        banker: { min: 50, max: 20_000 },
        tie: { min: 50, max: 5000 },
      },
    },
  },
  {
    tableId: 'EZ-1',
    rules: {
      dealing: 'live',
      game: 'ez',
      sideBets: { dragon7: { min: 100, max: 10_000 }, panda8: {}, playerPair: {}, big: {}, small: {} },
    },
  },
  {
    tableId: 'NC-1',
    rules: {
      game: 'no-commission',
      bettingSeconds: 15,
      sideBets: {
        super6: { paytable: '15-to-1' },
        perfectPair: { paytable: '25-or-200-to-1' },
        eitherPair: {},
      },
    },
  },
  {
    tableId: 'DB-1',
    rules: { shuffle: 'every-coup', sideBets: { playerDragon: {}, bankerDragon: {}, bankerPair: {} } },
  },
];

/** A card spelled as a dealer might type it, one time in four. */
function spelled(card: string, r: number): string {
  if (r % 4 !== 0) return card;
  return card.startsWith('T') ? `10${card.slice(1)}` : card.toLowerCase();
}

/** The spots a bet picks from: the main ones, and every spot (offered or not) at side-bet tables. */
const MAIN_PICKS = ['player', 'banker', 'tie', 'banker', 'player'];
const SIDE_PICKS = [...MAIN_PICKS, ...ALL_SPOTS];

const ADMIN: Actor = { id: 'boss', role: 'admin' };
const DEALER: Actor = { id: 'dealer-1', role: 'dealer' };
const SUPERVISOR: Actor = { id: 'pit-1', role: 'supervisor' };
const CROUPIER: Actor = { id: ONLINE_CROUPIER, role: 'dealer' };
const CASHIER: Actor = { id: onlineCashier('p1'), role: 'admin' };
const ACTORS: readonly Actor[] = [
  ADMIN,
  DEALER,
  SUPERVISOR,
  { id: 'audit-1', role: 'compliance' },
  { id: 'stats-1', role: 'analyst' },
  { id: 'p1', role: 'player' },
  { id: 'p2', role: 'player' },
  { id: 'p3', role: 'player' },
  CROUPIER,
  CASHIER,
  { id: onlineCashier('p2'), role: 'admin' },
  { id: ONLINE_CROUPIER, role: 'supervisor' },
];
const PLAYERS = ['p1', 'p2', 'p3'];
const RANKS = 'A23456789TJQK';
const SUITS = 'cdhs';
const CARDS = [...RANKS].flatMap((r) => [...SUITS].map((s) => `${r}${s}`));
const REASONS = ['mis-deal', 'card exposed', 'ab', '   x  ', 'z'.repeat(501), 'shoe fault'];
const AMOUNTS = [100, 100, 500, 500, 1000, 2500, 2500, 10_000, 50, 150, 40_000, 600_000];

/** Wrong values for any field: types, ranges, patterns, sizes. */
const BAD_VALUES: readonly unknown[] = [
  undefined,
  null,
  '',
  'x',
  -1,
  0,
  1.5,
  '7',
  Number.MAX_SAFE_INTEGER,
  [],
  {},
  true,
  'a b',
  '-bad',
  'q'.repeat(70),
  'XX',
  'dragon',
  'ABCDEF'.repeat(11),
];

/** One abstract step: a command type (used when the step is not a "move on" step) and numbers in 0..999. */
export interface Step {
  readonly type: number;
  readonly r: readonly number[];
}
export interface Sequence {
  readonly variant: number;
  readonly steps: readonly Step[];
}

const stepArb = fc.record({
  type: fc.nat(TYPES.length - 1),
  r: fc.array(fc.nat(999), { minLength: 8, maxLength: 8 }),
});
const sequenceArb = fc.record({
  variant: fc.nat(VARIANTS.length - 1),
  steps: fc.array(stepArb, { minLength: 4, maxLength: 32, size: 'max' }),
});

/** The corpus's abstract sequences (the same for the same seed and fast-check version). */
export function sequences(count = CORPUS_SIZE, seed = CORPUS_SEED): Sequence[] {
  return fc.sample(sequenceArb, { seed, numRuns: count });
}

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;
const seedHex = (n: number): string => createHash('sha256').update(`golden-seed-${n}`).digest('hex');

/** The command type this step sends: mostly what moves the table on from its phase, else the drawn one. */
function typeFor(step: Step, state: TableState, variant: (typeof VARIANTS)[number]): TableCommandType {
  const [r0 = 0, r1 = 0] = step.r;
  if (r0 >= 650) return pick(TYPES, step.type);
  const live = variant.rules['dealing'] === 'live';
  const everyCoup = variant.rules['shuffle'] === 'every-coup';
  const playerDealt = variant.rules['dealtBy'] === 'player';
  switch (state.phase) {
    case 'none':
      return 'OpenTable';
    case 'idle':
      if (state.players.length < (variant.personal === undefined ? 2 : 1) || r1 < 100) return 'BuyIn';
      return everyCoup ? 'OpenBetting' : 'StartShoe';
    case 'ready':
      if (r1 < 60) return 'EndShoe';
      // the coup just settled, corrected (live) or voided before the next betting opens
      if (state.round?.status === 'resolved' && r1 < 160)
        return live && r1 < 130 ? 'CorrectCard' : 'VoidRound';
      return r1 < 200 ? 'BuyIn' : 'OpenBetting';
    case 'betting':
      if (r1 < 420) return 'PlaceBet';
      if (r1 < 500) return 'Rebet';
      if (r1 < 540) return 'ClearBets';
      if (r1 < 570) return 'VoidRound';
      return playerDealt ? 'Deal' : 'CloseBetting';
    case 'dealing':
      if (r1 < 40) return 'VoidRound';
      if (live && r1 < 110) return 'CorrectCard';
      if (live && variant.rules['confirmResult'] === true && r1 < 500) return 'ConfirmResult';
      return live ? 'DealCard' : 'Deal';
    case 'closed':
      return r1 < 800 ? 'CashOut' : 'BuyIn';
    default:
      return pick(TYPES, step.type);
  }
}

/** Who sends it: mostly one allowed to (the online game's system actors on the personal table), else anyone. */
function actorFor(
  type: TableCommandType,
  step: Step,
  variant: (typeof VARIANTS)[number],
  playerId: string,
): Actor {
  const r2 = step.r[2] ?? 0;
  if (r2 >= 900) return pick(ACTORS, step.r[3] ?? 0);
  const personal = variant.personal !== undefined;
  switch (type) {
    case 'OpenTable':
    case 'CloseTable':
      return ADMIN;
    case 'BuyIn':
    case 'CashOut':
      return personal && r2 < 700 ? CASHIER : ADMIN;
    case 'StartShoe':
    case 'OpenBetting':
    case 'CloseBetting':
      return personal ? CROUPIER : r2 < 500 ? DEALER : SUPERVISOR;
    case 'PlaceBet':
    case 'ClearBets':
    case 'Rebet':
      if (r2 < 650) return { id: playerId, role: 'player' };
      return pick([DEALER, ADMIN, SUPERVISOR], r2);
    case 'Deal':
      if (variant.rules['dealtBy'] === 'player' && r2 < 800)
        return { id: personal ? 'p1' : playerId, role: 'player' };
      return r2 < 500 ? DEALER : SUPERVISOR;
    case 'DealCard':
      return r2 < 500 ? DEALER : SUPERVISOR;
    default:
      return SUPERVISOR;
  }
}

function roundNoFor(state: TableState, n: number): number {
  if (n < 880) return Math.max(1, state.roundNo);
  if (n < 940) return state.roundNo + 1;
  return Math.max(1, state.roundNo - 1);
}

/** The command's data, sensible for the state. */
function dataFor(
  type: TableCommandType,
  step: Step,
  state: TableState,
  variant: (typeof VARIANTS)[number],
  seq: number,
) {
  const [, , , r3 = 0, r4 = 0, r5 = 0] = step.r;
  const roundNo = roundNoFor(state, r4);
  const playerId = variant.personal !== undefined && r3 < 800 ? 'p1' : pick(PLAYERS, r3);
  const seed = r5 < 40 ? seedHex(r5).toUpperCase() : seedHex(seq * 1000 + r5);
  switch (type) {
    case 'OpenTable':
      return { tableId: variant.tableId, rules: variant.rules };
    case 'CloseTable':
      return r5 % 2 === 0 ? { cashOutAll: true } : {};
    case 'EndShoe':
      return {};
    case 'BuyIn':
      return { playerId, amount: pick([100_000, 50_000, 2500, 1_000_000], r4) };
    case 'CashOut':
      return { playerId };
    case 'StartShoe':
      return variant.rules['dealing'] === 'live' ? { firstCard: pick(CARDS, r5) } : { seed };
    case 'OpenBetting':
      return variant.rules['shuffle'] === 'every-coup' && state.phase !== 'ready' ? { seed } : {};
    case 'PlaceBet':
      return {
        roundNo,
        playerId,
        spot: pick(variant.rules['sideBets'] ? SIDE_PICKS : MAIN_PICKS, r5),
        amount: pick(AMOUNTS, r3 + r5),
      };
    case 'ClearBets':
    case 'Rebet':
      return { roundNo, playerId };
    case 'CloseBetting':
      return r5 < 300 ? { roundNo, byTimer: true } : { roundNo };
    case 'Deal':
      return r5 < 500 ? { roundNo, nextSeed: seed } : { roundNo };
    case 'ConfirmResult':
      return { roundNo };
    case 'DealCard':
      // a one-deck shoe dealt from a few ranks runs out of some cards (CARD_NOT_IN_SHOE)
      return {
        roundNo,
        // now and then as a dealer types it (10h, lower case): the decider records the engine's spelling
        card: spelled(pick(variant.rules['decks'] === 1 ? CARDS.slice(0, 20) : CARDS, r5 * 7 + r3), r4),
      };
    case 'CorrectCard': {
      const cards = state.round?.cards ?? [];
      const index = r3 % (cards.length + 1);
      const card = r5 < 250 ? (cards[index]?.card ?? 'Ah') : pick(CARDS, r5);
      // a settled coup's correction needs a reason: most have one
      return r4 % 5 === 0 ? { roundNo, index, card } : { roundNo, index, card, reason: pick(REASONS, r5) };
    }
    case 'VoidRound':
      return { roundNo, reason: pick(REASONS, r5) };
  }
}

/** Breaks the command now and then: a field's value, an extra field, the actor or the whole envelope. */
function corrupt(command: Record<string, unknown>, step: Step): unknown {
  const [, , , r3 = 0, , r5 = 0, r6 = 0, r7 = 0] = step.r;
  if (r6 >= 60) return command;
  const data = { ...(command['data'] as Record<string, unknown>) };
  const meta = command['meta'] as { actor: Actor; at: string };
  const keys = Object.keys(data);
  switch (r7 % 12) {
    case 0:
    case 1:
    case 2:
    case 3:
      if (keys.length > 0) data[pick(keys, r3)] = pick(BAD_VALUES, r5);
      return { ...command, data };
    case 4:
      if (keys.length > 0) delete data[pick(keys, r3)];
      return { ...command, data };
    case 5:
      return {
        ...command,
        data: { ...data, [pick(['extra', 'toString', 'constructor', 'seed', 'playerId'], r5)]: 1 },
      };
    case 6:
      return {
        ...command,
        meta: { ...meta, at: pick(['2030-01-01', 'yesterday', 12, '2030-13-45T99:00Z'], r5) },
      };
    case 7:
      return {
        ...command,
        meta: { ...meta, actor: { id: pick(['', 'y'.repeat(129), 7], r5), role: meta.actor.role } },
      };
    case 8:
      return {
        ...command,
        meta: { ...meta, actor: { id: meta.actor.id, role: pick(['root', 'guest', 3], r5) } },
      };
    case 9:
      return pick(
        [null, 'PlaceBet', [], { type: 'Dance', data: {}, meta }, { type: command['type'], data: [], meta }],
        r5,
      );
    case 10:
      return { type: command['type'], data };
    default:
      return { ...command, data: pick([undefined, 'x', null], r5) };
  }
}

/** What one sequence records per step: the command, then its events and reply, or its refusal. */
export type StepRecord =
  | { readonly command: unknown; readonly events: readonly unknown[]; readonly reply: unknown }
  | { readonly command: unknown; readonly error: unknown };

/** Runs one sequence through the decider. `observe` sees each command and its decision (for coverage). */
export function runSequence(
  sequence: Sequence,
  index: number,
  observe?: (command: unknown, outcome: string) => void,
): StepRecord[] {
  const variant = VARIANTS[sequence.variant]!;
  let state = initialState;
  let clock = Date.parse('2030-01-01T12:00:00.000Z');
  const records: StepRecord[] = [];
  sequence.steps.forEach((step, i) => {
    const [, , , , r4 = 0, , r6 = 0] = step.r;
    clock += r6 < 900 ? 1000 + r4 * 10 : 25_000 + r4 * 50;
    const type = typeFor(step, state, variant);
    const data = dataFor(type, step, state, variant, index * 64 + i);
    const playerId = typeof data['playerId'] === 'string' ? data['playerId'] : 'p1';
    const actor = actorFor(type, step, variant, playerId);
    const command = corrupt({ type, data, meta: { actor, at: new Date(clock).toISOString() } }, step);
    const decision = decide(command as TableCommand, state);
    if (decision.ok) {
      const reply = replyFor(command as TableCommand, decision.events, state);
      for (const event of decision.events) state = evolve(state, event);
      records.push({ command, events: decision.events, reply });
      observe?.(command, 'ok');
    } else {
      records.push({ command, error: decision.error });
      observe?.(command, decision.error.code);
    }
  });
  return records;
}

/** The hash of a sequence's records: SHA-256 of their JSON (the bytes, key order included). */
export function hashOf(records: readonly StepRecord[]): string {
  return createHash('sha256').update(JSON.stringify(records)).digest('hex');
}
