/**
 * `decide(command, state) -> events | domain error`: every table rule lives here. Pure: time, seeds and ids come
 * in with the command and what they produced is recorded in the events. Never throws for bad input: a command
 * straight from the wire is checked (shape, types, role, phase, round, limits...) and refused with a typed
 * error and no events.
 *
 * Checks run in this order, so a command that breaks several rules gets the first: the envelope
 * (INVALID_COMMAND) -> the table exists (UNKNOWN_TABLE) -> the role (FORBIDDEN) -> a personal table's own
 * rule (PERSONAL_TABLE) -> the table is open
 * (TABLE_CLOSED; CashOut is still taken) -> the data's shape (400 codes) -> the dealing mode -> the phase -> the
 * round -> the rest.
 */
import {
  type Card,
  type CoupResult,
  type CoupState,
  burnCount,
  commitment,
  dealCard,
  isCard,
  removeCard,
  resolveCoup,
  seedFromHex,
  shuffleShoe,
} from '@coup/engine';
import { afterCoup, afterVoid, nextFor, returnsOf, settleRound } from './coup';
import { type DomainError, type DomainErrorCode, domainError } from './errors';
import { ONLINE_CROUPIER, personalTableOwner } from './online';
import { ownFields } from './own';
import { chipUnit, normalizeRules } from './rules';
import {
  NO_BETS,
  type PlayerState,
  type RoundState,
  type ShoeState,
  type TableState,
  betsOf,
  playerOf,
  roundOpen,
  stakesOnLayout,
  totalOf,
} from './state';
import {
  type Actor,
  type CommandMeta,
  ROLES,
  type Role,
  SPOTS,
  type ShoeEndReason,
  type Spot,
  type SpotAmounts,
  type TableCommand,
  type TableCommandType,
  type TableEvent,
  type TableRules,
} from './types';

/** What `decide` answers: the new events, or why the command is refused (and nothing is recorded). */
export type Decision =
  | { readonly ok: true; readonly events: readonly TableEvent[] }
  | { readonly ok: false; readonly error: DomainError };

/** Table ids: 1..64 characters of `[A-Za-z0-9_-]`. */
export const TABLE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Player ids: 1..64 characters of `[A-Za-z0-9_.:@+-]`, the first a letter or digit. */
export const PLAYER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:@+-]{0,63}$/;
/** ISO-8601 instants with an offset or `Z` (seconds and fractions optional). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const SEED_PATTERN = /^[0-9a-fA-F]{64}$/;

/** The data fields each command accepts (others are refused). */
const DATA_FIELDS: Readonly<Record<TableCommandType, readonly string[]>> = {
  OpenTable: ['tableId', 'rules'],
  CloseTable: [],
  BuyIn: ['playerId', 'amount'],
  CashOut: ['playerId'],
  StartShoe: ['seed', 'firstCard'],
  OpenBetting: ['seed'],
  PlaceBet: ['roundNo', 'playerId', 'spot', 'amount'],
  ClearBets: ['roundNo', 'playerId'],
  Rebet: ['roundNo', 'playerId'],
  CloseBetting: ['roundNo', 'byTimer'],
  Deal: ['roundNo', 'nextSeed'],
  DealCard: ['roundNo', 'card'],
  CorrectCard: ['roundNo', 'index', 'card'],
  VoidRound: ['roundNo', 'reason'],
  EndShoe: [],
};

const STAFF: readonly Role[] = ['dealer', 'supervisor'];
const BETTORS: readonly Role[] = ['player', 'admin', 'dealer', 'supervisor'];

/** Which roles may send each command (players are further limited to their own bets and their own DEAL). */
export const COMMAND_ROLES: Readonly<Record<TableCommandType, readonly Role[]>> = {
  OpenTable: ['admin'],
  CloseTable: ['admin'],
  BuyIn: ['admin'],
  CashOut: ['admin'],
  StartShoe: STAFF,
  OpenBetting: STAFF,
  PlaceBet: BETTORS,
  ClearBets: BETTORS,
  Rebet: BETTORS,
  CloseBetting: STAFF,
  Deal: [...STAFF, 'player'],
  DealCard: STAFF,
  CorrectCard: ['supervisor'],
  VoidRound: ['supervisor'],
  EndShoe: ['supervisor'],
};

// ---------------------------------------------------------------------------------------------------------------

type Data = Record<string, unknown>;

/** What every handler gets: the command's parts, checked. */
interface Ctx {
  readonly state: TableState;
  readonly data: Data;
  readonly actor: Actor;
  readonly at: string;
  readonly atMs: number;
}

/** An open table's context. */
interface OpenCtx extends Ctx {
  readonly rules: TableRules;
}

class Refusal {
  constructor(readonly error: DomainError) {}
}

function refuse(
  code: DomainErrorCode,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): Refusal {
  return new Refusal(domainError(code, message, details));
}

type Verdict = TableEvent[] | Refusal;

/** Objects (plain or DTO class instances), not arrays or null. */
function isPlainObject(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : String(value);
}

function by(ctx: Ctx): { at: string; by: string; role: Role } {
  return { at: ctx.at, by: ctx.actor.id, role: ctx.actor.role };
}

function isoPlus(ms: number, seconds: number): string {
  return new Date(ms + seconds * 1000).toISOString();
}

// --- field readers (shape checks, 400 codes) -------------------------------------------------------------------

function roundNoOf(ctx: Ctx): number | Refusal {
  const v = ctx.data['roundNo'];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) {
    return refuse('INVALID_COMMAND', `roundNo must be a positive integer, got ${describe(v)}`, {
      field: 'roundNo',
    });
  }
  return v;
}

function playerIdOf(ctx: Ctx): string | Refusal {
  const v = ctx.data['playerId'];
  if (typeof v !== 'string' || !PLAYER_ID_PATTERN.test(v)) {
    return refuse(
      'INVALID_PLAYER_ID',
      `playerId must be 1 to 64 characters of letters, digits and _ . : @ + - (starting with a letter or digit), got ${describe(v)}`,
      { field: 'playerId' },
    );
  }
  return v;
}

function amountOf(v: unknown, field = 'amount'): number | Refusal {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) {
    return refuse('INVALID_AMOUNT', `${field} must be a positive whole number of cents, got ${describe(v)}`, {
      field,
      amount: v,
    });
  }
  return v;
}

function seedOf(v: unknown, field: string): string | undefined | Refusal {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !SEED_PATTERN.test(v)) {
    return refuse(
      'INVALID_SEED',
      `${field} must be 64 hexadecimal characters (32 bytes), got ${describe(v)}`,
      {
        field,
      },
    );
  }
  return v.toLowerCase();
}

function cardOf(v: unknown, field = 'card'): Card | Refusal {
  if (!isCard(v)) {
    return refuse(
      'INVALID_CARD',
      `${field} must be a card: a rank (A 2 3 4 5 6 7 8 9 T J Q K) then a suit (c d h s), e.g. 'Ah', 'Td', got ${describe(v)}`,
      { field, card: v },
    );
  }
  return v;
}

// --- common state checks ---------------------------------------------------------------------------------------

/** Commands a personal table takes from its player only, and those only its system croupier sends. */
const PLAYERS_OWN: readonly TableCommandType[] = ['PlaceBet', 'ClearBets', 'Rebet', 'Deal'];
const CROUPIERS: readonly TableCommandType[] = ['StartShoe', 'OpenBetting', 'CloseBetting'];

/**
 * A player's personal online table (`online-<playerId>`, ADR-10) is that player's alone: bets, clears, rebets and
 * deals come from the player itself (no dealer acts for it there), only the player is bought in, and shoes and
 * betting are run by the online croupier. The casino's other powers stay: closing, cashing out, voiding, ending
 * a shoe.
 */
function personalTable(type: TableCommandType, ctx: Ctx): Refusal | null {
  const owner = personalTableOwner(ctx.state.tableId);
  if (owner === null) return null;
  const { actor } = ctx;
  const tableId = ctx.state.tableId;
  if (PLAYERS_OWN.includes(type) && (actor.role !== 'player' || actor.id !== owner)) {
    return refuse(
      'PERSONAL_TABLE',
      `${tableId} is ${owner}'s own table: only ${owner} bets and deals there`,
      {
        tableId,
        owner,
        actor: actor.id,
      },
    );
  }
  if (CROUPIERS.includes(type) && actor.id !== ONLINE_CROUPIER) {
    return refuse('PERSONAL_TABLE', `${tableId} is ${owner}'s own table: the online game runs its coups`, {
      tableId,
      owner,
      actor: actor.id,
    });
  }
  const playerId = ctx.data['playerId'];
  if (type === 'BuyIn' && typeof playerId === 'string' && playerId !== owner) {
    return refuse(
      'PERSONAL_TABLE',
      `${tableId} is ${owner}'s own table: ${playerId} cannot be seated there`,
      {
        tableId,
        owner,
        playerId,
      },
    );
  }
  return null;
}

/** The player may act for `playerId`: staff and admins for anyone, a player only for itself. */
function actFor(ctx: Ctx, playerId: string): Refusal | null {
  if (ctx.actor.role === 'player' && ctx.actor.id !== playerId) {
    return refuse(
      'FORBIDDEN',
      `A player may bet only for itself: ${ctx.actor.id} cannot act for ${playerId}`,
      {
        actor: ctx.actor.id,
        playerId,
      },
    );
  }
  return null;
}

/** The round `roundNo` is open for bets now (phase, round, deadline). */
function bettingRound(ctx: OpenCtx, roundNo: number): RoundState | Refusal {
  const round = ctx.state.round;
  if (ctx.state.phase !== 'betting' || round === null) {
    return refuse('BETTING_CLOSED', `Betting is closed (phase ${ctx.state.phase})`, {
      phase: ctx.state.phase,
      roundNo: ctx.state.roundNo,
    });
  }
  if (round.roundNo !== roundNo) {
    return refuse('WRONG_ROUND', `Round ${roundNo} is not the current round (${round.roundNo})`, {
      roundNo,
      currentRoundNo: round.roundNo,
    });
  }
  if (round.deadline !== null && ctx.atMs > Date.parse(round.deadline)) {
    return refuse('BETTING_CLOSED', `Betting closed at the deadline ${round.deadline}`, {
      deadline: round.deadline,
      at: ctx.at,
    });
  }
  return round;
}

/** The current round is `roundNo`, in one of `statuses` (else WRONG_PHASE or `phaseCode`). */
function currentRound(
  ctx: OpenCtx,
  roundNo: number,
  phases: readonly TableState['phase'][],
  phaseCode: DomainErrorCode = 'WRONG_PHASE',
): RoundState | Refusal {
  const round = ctx.state.round;
  if (!phases.includes(ctx.state.phase) || !roundOpen(round)) {
    return refuse(
      phaseCode,
      `Not now: the table is in phase ${ctx.state.phase} (needs ${phases.join(' or ')})`,
      {
        phase: ctx.state.phase,
        roundNo: ctx.state.roundNo,
      },
    );
  }
  if (round.roundNo !== roundNo) {
    return refuse('WRONG_ROUND', `Round ${roundNo} is not the current round (${round.roundNo})`, {
      roundNo,
      currentRoundNo: round.roundNo,
    });
  }
  return round;
}

function seated(ctx: Ctx, playerId: string): PlayerState | Refusal {
  return (
    playerOf(ctx.state, playerId) ??
    refuse('UNKNOWN_PLAYER', `Player ${playerId} is not seated at this table (buy in first)`, { playerId })
  );
}

/** The shoe in progress (phase checks come first: this only guards the type). */
function shoeIn(ctx: Ctx): ShoeState | Refusal {
  const shoe = ctx.state.shoe;
  return shoe === null || shoe.ended
    ? refuse('SHOE_NOT_STARTED', 'No shoe is in progress', { phase: ctx.state.phase })
    : shoe;
}

/**
 * Checks a player's stakes after adding `add` (per spot): chip unit, player+banker, limits (max always; min on
 * dealer-dealt tables), chips. All-or-nothing: the first failure refuses the whole.
 */
function checkStakes(ctx: OpenCtx, playerId: string, current: SpotAmounts, add: SpotAmounts): Refusal | null {
  const rules = ctx.rules;
  const unit = chipUnit(rules.chips);
  const after: SpotAmounts = {
    player: current.player + add.player,
    banker: current.banker + add.banker,
    tie: current.tie + add.tie,
  };
  for (const spot of SPOTS) {
    if (add[spot] % unit !== 0) {
      return refuse(
        'INVALID_AMOUNT',
        `${add[spot]} cents is not made of this table's chips (${rules.chips.join(', ')}): use a multiple of ${unit}`,
        { amount: add[spot], unit, chips: rules.chips },
      );
    }
  }
  if (!rules.allowPlayerAndBanker && after.player > 0 && after.banker > 0) {
    return refuse('PLAYER_AND_BANKER', 'Player and Banker may not both be bet by one player at this table', {
      playerId,
    });
  }
  for (const spot of SPOTS) {
    if (add[spot] === 0) continue;
    const { min, max } = rules.limits[spot];
    if (after[spot] > max) {
      return refuse('BET_LIMIT', `The ${spot} bet would be ${after[spot]}, above the table maximum ${max}`, {
        spot,
        min,
        max,
        spotTotal: after[spot],
      });
    }
    if (rules.dealtBy === 'dealer' && after[spot] < min) {
      return refuse('BET_LIMIT', `The ${spot} bet would be ${after[spot]}, below the table minimum ${min}`, {
        spot,
        min,
        max,
        spotTotal: after[spot],
      });
    }
  }
  const chips = playerOf(ctx.state, playerId)?.chips ?? 0;
  const needed = totalOf(add);
  if (needed > chips) {
    return refuse('INSUFFICIENT_CHIPS', `Player ${playerId} has ${chips} in chips, the bet needs ${needed}`, {
      playerId,
      chips,
      needed,
    });
  }
  return null;
}

/** Player-dealt tables: a bet on the layout, and every staked spot at least its minimum. */
function minimumMet(ctx: OpenCtx): Refusal | null {
  let any = false;
  for (const { playerId, bets } of stakesOnLayout(ctx.state)) {
    for (const spot of SPOTS) {
      if (bets[spot] === 0) continue;
      any = true;
      const { min } = ctx.rules.limits[spot];
      if (bets[spot] < min) {
        return refuse(
          'MINIMUM_BET_REQUIRED',
          `The ${spot} bet of ${playerId} is ${bets[spot]}, below the table minimum ${min}`,
          { playerId, spot, amount: bets[spot], min },
        );
      }
    }
  }
  return any
    ? null
    : refuse('MINIMUM_BET_REQUIRED', 'Place at least the table minimum before dealing', {
        min: Math.min(...SPOTS.map((s) => ctx.rules.limits[s].min)),
      });
}

// --- event builders ---------------------------------------------------------------------------------------------

function shoeStarted(ctx: OpenCtx, source: { seed: string } | { firstCard: Card }): TableEvent {
  const rules = ctx.rules;
  const length = rules.decks * 52;
  const everyCoup = rules.shuffle === 'every-coup';
  let seed: string | null = null;
  let commit: string | null = null;
  let burnCard: Card | null = null;
  if ('seed' in source) {
    seed = source.seed;
    const bytes = seedFromHex(seed);
    commit = commitment(bytes);
    if (!everyCoup) burnCard = shuffleShoe(rules.decks, bytes)[0] ?? null;
  } else {
    burnCard = source.firstCard;
  }
  const burned = burnCard === null ? 0 : burnCount(burnCard);
  return {
    type: 'ShoeStarted',
    data: {
      shoeNo: ctx.state.shoeNo + 1,
      dealing: rules.dealing,
      shuffle: rules.shuffle,
      decks: rules.decks,
      length,
      commitment: commit,
      seed,
      burnCard,
      burnCount: burned,
      firstCoupIndex: burnCard === null ? 0 : 1 + burned,
      cutCard: everyCoup ? null : rules.cutCard,
      ...by(ctx),
    },
  };
}

function bettingOpened(ctx: OpenCtx, roundNo: number, shoeNo: number): TableEvent {
  const seconds = ctx.rules.bettingSeconds;
  return {
    type: 'BettingOpened',
    data: { roundNo, shoeNo, deadline: seconds === null ? null : isoPlus(ctx.atMs, seconds), ...by(ctx) },
  };
}

function shoeEnded(ctx: Ctx, shoe: ShoeState, reason: ShoeEndReason): TableEvent {
  return {
    type: 'ShoeEnded',
    data: { shoeNo: shoe.shoeNo, seed: shoe.seed, reason, coups: shoe.coups, ...by(ctx) },
  };
}

/**
 * The events that finish a coup: CoupResolved with every bet settled, then ShoeEnded if this coup ends the shoe.
 * Returns them and whether the shoe ended.
 */
function resolution(
  ctx: OpenCtx,
  shoe: ShoeState,
  round: RoundState,
  result: CoupResult,
): { events: TableEvent[]; ended: boolean } {
  const events: TableEvent[] = [
    {
      type: 'CoupResolved',
      data: {
        roundNo: round.roundNo,
        shoeNo: shoe.shoeNo,
        playerCards: result.playerCards,
        bankerCards: result.bankerCards,
        playerTotal: result.playerTotal,
        bankerTotal: result.bankerTotal,
        outcome: result.outcome,
        natural: result.natural,
        cardsUsed: result.cardsUsed,
        commissionMode: ctx.rules.commission,
        settlements: settleRound(stakesOnLayout(ctx.state), result.outcome, ctx.rules),
        ...by(ctx),
      },
    },
  ];
  let reason: ShoeEndReason | null = null;
  if (shoe.everyCoup) reason = 'every-coup';
  else if (shoe.progress !== null && afterCoup(shoe.progress, result.cardsUsed).ended) {
    // the one more coup after the cut card, or (only after voided live coups) the shoe ran out of cards
    reason = shoe.progress.coupsLeft === 1 ? 'cut-card' : 'exhausted';
  }
  if (reason !== null) {
    events.push({
      type: 'ShoeEnded',
      data: { shoeNo: shoe.shoeNo, seed: shoe.seed, reason, coups: shoe.coups + 1, ...by(ctx) },
    });
  }
  return { events, ended: reason !== null };
}

/** How many cards a coup starting with `cards` needs (6 if they run out before it completes). */
function coupLength(cards: readonly Card[]): number {
  for (let n = 4; n <= cards.length; n++) if (nextFor(cards.slice(0, n)).to === 'complete') return n;
  return 6;
}

// --- handlers ---------------------------------------------------------------------------------------------------

function openTable(ctx: Ctx): Verdict {
  const tableId = ctx.data['tableId'];
  if (typeof tableId !== 'string' || !TABLE_ID_PATTERN.test(tableId)) {
    return refuse(
      'INVALID_TABLE_ID',
      `tableId must be 1 to 64 characters of A-Z a-z 0-9 _ -, got ${describe(tableId)}`,
      {
        field: 'tableId',
      },
    );
  }
  const rules = normalizeRules(ctx.data['rules']);
  if (!rules.ok) return new Refusal(rules.error);
  const owner = personalTableOwner(tableId);
  if (owner !== null && rules.value.dealtBy !== 'player') {
    return refuse(
      'PERSONAL_TABLE',
      `${tableId} would be ${owner}'s own online table: it must be player-dealt`,
      {
        tableId,
        owner,
      },
    );
  }
  if (ctx.state.phase !== 'none') {
    return refuse('TABLE_EXISTS', `Table ${ctx.state.tableId ?? tableId} already exists`, {
      tableId: ctx.state.tableId,
    });
  }
  return [{ type: 'TableOpened', data: { tableId, rules: rules.value, ...by(ctx) } }];
}

function closeTable(ctx: OpenCtx): Verdict {
  const { state } = ctx;
  const events: TableEvent[] = [];
  const round = state.round;
  if (
    state.phase === 'dealing' ||
    (state.phase === 'betting' && round !== null && stakesOnLayout(state).length > 0)
  ) {
    return refuse(
      'WRONG_PHASE',
      `A table closes only between rounds (phase ${state.phase}, bets on the layout)`,
      {
        phase: state.phase,
      },
    );
  }
  if (state.phase === 'betting' && round !== null) {
    events.push({
      type: 'RoundVoided',
      data: {
        roundNo: round.roundNo,
        reason: 'Table closed',
        returned: [],
        cardsDealt: 0,
        ...by(ctx),
      },
    });
  }
  if (state.shoe !== null && !state.shoe.ended) events.push(shoeEnded(ctx, state.shoe, 'table-closed'));
  events.push({ type: 'TableClosed', data: { tableId: state.tableId ?? '', ...by(ctx) } });
  return events;
}

function buyIn(ctx: OpenCtx): Verdict {
  const playerId = playerIdOf(ctx);
  if (playerId instanceof Refusal) return playerId;
  const amount = amountOf(ctx.data['amount']);
  if (amount instanceof Refusal) return amount;
  const chips = (playerOf(ctx.state, playerId)?.chips ?? 0) + amount;
  if (!Number.isSafeInteger(chips)) {
    return refuse('INVALID_AMOUNT', `A buy-in of ${amount} would make the chips too large to count exactly`, {
      amount,
    });
  }
  return [{ type: 'PlayerBoughtIn', data: { playerId, amount, chips, ...by(ctx) } }];
}

function cashOut(ctx: OpenCtx): Verdict {
  const playerId = playerIdOf(ctx);
  if (playerId instanceof Refusal) return playerId;
  const player = seated(ctx, playerId);
  if (player instanceof Refusal) return player;
  const round = ctx.state.round;
  if (roundOpen(round) && totalOf(betsOf(ctx.state, playerId)) > 0) {
    return refuse(
      'BETS_IN_PLAY',
      `Player ${playerId} has bets in round ${round.roundNo}: cash out after it`,
      {
        playerId,
        roundNo: round.roundNo,
      },
    );
  }
  const collected = Math.min(player.commissionOwed, player.chips);
  return [
    {
      type: 'PlayerCashedOut',
      data: {
        playerId,
        paid: player.chips - collected,
        commissionCollected: collected,
        commissionOwed: player.commissionOwed - collected,
        ...by(ctx),
      },
    },
  ];
}

function startShoe(ctx: OpenCtx): Verdict {
  const seed = seedOf(ctx.data['seed'], 'seed');
  if (seed instanceof Refusal) return seed;
  const rawCard = ctx.data['firstCard'];
  const firstCard = rawCard === undefined ? undefined : cardOf(rawCard, 'firstCard');
  if (firstCard instanceof Refusal) return firstCard;
  const rules = ctx.rules;
  if (rules.dealing === 'rng' && firstCard !== undefined) {
    return refuse(
      'WRONG_DEALING_MODE',
      'firstCard is for live tables: an rng shoe turns its own first card',
      {
        dealing: rules.dealing,
      },
    );
  }
  if (rules.dealing === 'live' && seed !== undefined) {
    return refuse('WRONG_DEALING_MODE', 'seed is for rng tables: a live shoe is shuffled by hand', {
      dealing: rules.dealing,
    });
  }
  if (ctx.state.phase !== 'idle') {
    return refuse('SHOE_IN_PROGRESS', `Shoe ${ctx.state.shoeNo} is in progress (phase ${ctx.state.phase})`, {
      shoeNo: ctx.state.shoeNo,
      phase: ctx.state.phase,
    });
  }
  if (rules.dealing === 'rng') {
    if (seed === undefined)
      return refuse('INVALID_SEED', 'An rng shoe needs a seed: 64 hexadecimal characters', { field: 'seed' });
    return [shoeStarted(ctx, { seed })];
  }
  if (firstCard === undefined) {
    return refuse('INVALID_CARD', 'A live shoe needs firstCard: the card turned face up to count the burn', {
      field: 'firstCard',
    });
  }
  return [shoeStarted(ctx, { firstCard })];
}

function openBetting(ctx: OpenCtx): Verdict {
  const seed = seedOf(ctx.data['seed'], 'seed');
  if (seed instanceof Refusal) return seed;
  const { state, rules } = ctx;
  const everyCoup = rules.shuffle === 'every-coup' && rules.dealing === 'rng';
  if (seed !== undefined && !everyCoup) {
    return refuse(
      'WRONG_DEALING_MODE',
      'OpenBetting takes a seed only on rng every-coup tables (StartShoe otherwise)',
      {
        shuffle: rules.shuffle,
        dealing: rules.dealing,
      },
    );
  }
  if (state.phase === 'betting' || state.phase === 'dealing') {
    return refuse('WRONG_PHASE', `Round ${state.roundNo} is still open (phase ${state.phase})`, {
      phase: state.phase,
      roundNo: state.roundNo,
    });
  }
  const roundNo = state.roundNo + 1;
  if (state.phase === 'ready') {
    if (seed !== undefined) {
      return refuse(
        'SHOE_IN_PROGRESS',
        `Shoe ${state.shoeNo} is already started for the next coup: send no seed`,
        {
          shoeNo: state.shoeNo,
        },
      );
    }
    return [bettingOpened(ctx, roundNo, state.shoeNo)];
  }
  if (seed === undefined) {
    return refuse(
      'SHOE_NOT_STARTED',
      everyCoup ? 'No shoe: send a seed to shuffle the next coup' : 'No shoe in progress: start a shoe first',
      { phase: state.phase },
    );
  }
  return [shoeStarted(ctx, { seed }), bettingOpened(ctx, roundNo, state.shoeNo + 1)];
}

function placeBet(ctx: OpenCtx): Verdict {
  const roundNo = roundNoOf(ctx);
  if (roundNo instanceof Refusal) return roundNo;
  const playerId = playerIdOf(ctx);
  if (playerId instanceof Refusal) return playerId;
  const spot = ctx.data['spot'];
  if (typeof spot !== 'string' || !(SPOTS as readonly string[]).includes(spot)) {
    return refuse('INVALID_SPOT', `spot must be player, banker or tie, got ${describe(spot)}`, {
      field: 'spot',
    });
  }
  const amount = amountOf(ctx.data['amount']);
  if (amount instanceof Refusal) return amount;
  const round = bettingRound(ctx, roundNo);
  if (round instanceof Refusal) return round;
  const player = seated(ctx, playerId);
  if (player instanceof Refusal) return player;
  const current = betsOf(ctx.state, playerId);
  const add: SpotAmounts = { ...NO_BETS, [spot]: amount };
  const refused = checkStakes(ctx, playerId, current, add);
  if (refused) return refused;
  const chips = player.chips - amount;
  return [
    {
      type: 'BetPlaced',
      data: {
        roundNo,
        playerId,
        spot: spot as Spot,
        amount,
        spotTotal: current[spot as Spot] + amount,
        chips,
        rebet: false,
        ...by(ctx),
      },
    },
  ];
}

function clearBets(ctx: OpenCtx): Verdict {
  const roundNo = roundNoOf(ctx);
  if (roundNo instanceof Refusal) return roundNo;
  const playerId = playerIdOf(ctx);
  if (playerId instanceof Refusal) return playerId;
  const round = bettingRound(ctx, roundNo);
  if (round instanceof Refusal) return round;
  const player = seated(ctx, playerId);
  if (player instanceof Refusal) return player;
  const bets = betsOf(ctx.state, playerId);
  const returned = totalOf(bets);
  if (returned === 0) {
    return refuse('NO_BETS', `Player ${playerId} has no bets in round ${roundNo}`, { playerId, roundNo });
  }
  const chips = player.chips + returned;
  return [
    {
      type: 'BetsCleared',
      data: { roundNo, playerId, bets: { ...bets }, returned, chips, ...by(ctx) },
    },
  ];
}

function rebet(ctx: OpenCtx): Verdict {
  const roundNo = roundNoOf(ctx);
  if (roundNo instanceof Refusal) return roundNo;
  const playerId = playerIdOf(ctx);
  if (playerId instanceof Refusal) return playerId;
  const round = bettingRound(ctx, roundNo);
  if (round instanceof Refusal) return round;
  const player = seated(ctx, playerId);
  if (player instanceof Refusal) return player;
  const last = player.lastBets;
  if (last === null || totalOf(last) === 0) {
    return refuse('NO_PREVIOUS_BETS', `Player ${playerId} has no previous round's bets to repeat`, {
      playerId,
    });
  }
  const current = betsOf(ctx.state, playerId);
  const refused = checkStakes(ctx, playerId, current, last);
  if (refused) return refused;
  let chips = player.chips;
  const events: TableEvent[] = [];
  for (const spot of SPOTS) {
    const amount = last[spot];
    if (amount === 0) continue;
    chips -= amount;
    events.push({
      type: 'BetPlaced',
      data: {
        roundNo,
        playerId,
        spot,
        amount,
        spotTotal: current[spot] + amount,
        chips,
        rebet: true,
        ...by(ctx),
      },
    });
  }
  return events;
}

function closeBetting(ctx: OpenCtx): Verdict {
  const roundNo = roundNoOf(ctx);
  if (roundNo instanceof Refusal) return roundNo;
  const byTimer = ctx.data['byTimer'];
  if (byTimer !== undefined && typeof byTimer !== 'boolean') {
    return refuse('INVALID_COMMAND', `byTimer must be a boolean, got ${describe(byTimer)}`, {
      field: 'byTimer',
    });
  }
  const round = currentRound(ctx, roundNo, ['betting']);
  if (round instanceof Refusal) return round;
  if (byTimer === true) {
    if (round.deadline === null) {
      return refuse('DEADLINE_NOT_REACHED', `Round ${roundNo} has no betting timer`, { deadline: null });
    }
    if (ctx.atMs < Date.parse(round.deadline)) {
      return refuse(
        'DEADLINE_NOT_REACHED',
        `Betting closes by timer at ${round.deadline}, not before (${ctx.at})`,
        {
          deadline: round.deadline,
          at: ctx.at,
        },
      );
    }
  }
  if (ctx.rules.dealtBy === 'player') {
    const refused = minimumMet(ctx);
    if (refused) return refused;
  }
  return [
    {
      type: 'BettingClosed',
      data: {
        roundNo,
        by: byTimer === true ? 'timer' : 'dealer',
        actorId: ctx.actor.id,
        role: ctx.actor.role,
        at: ctx.at,
      },
    },
  ];
}

function deal(ctx: OpenCtx): Verdict {
  const { state, rules, actor } = ctx;
  if (actor.role === 'player' && rules.dealtBy !== 'player') {
    return refuse('FORBIDDEN', 'Players deal only on player-dealt tables', { role: actor.role });
  }
  const roundNo = roundNoOf(ctx);
  if (roundNo instanceof Refusal) return roundNo;
  const nextSeed = seedOf(ctx.data['nextSeed'], 'nextSeed');
  if (nextSeed instanceof Refusal) return nextSeed;
  if (rules.dealing !== 'rng') {
    return refuse('WRONG_DEALING_MODE', 'A live table is dealt card by card (DealCard)', {
      dealing: rules.dealing,
    });
  }
  if (actor.role === 'player') {
    const dealer = seated(ctx, actor.id);
    if (dealer instanceof Refusal) return dealer;
  }
  const phases: TableState['phase'][] = rules.dealtBy === 'player' ? ['betting', 'dealing'] : ['dealing'];
  const round = currentRound(ctx, roundNo, phases);
  if (round instanceof Refusal) {
    if (round.error.code === 'WRONG_PHASE' && state.phase === 'betting') {
      return refuse('WRONG_PHASE', `Close betting before dealing round ${state.roundNo}`, {
        phase: state.phase,
      });
    }
    return round;
  }
  const events: TableEvent[] = [];
  if (state.phase === 'betting') {
    const refused = minimumMet(ctx);
    if (refused) return refused;
    events.push({
      type: 'BettingClosed',
      data: {
        roundNo,
        by: actor.role === 'player' ? 'player' : 'dealer',
        actorId: actor.id,
        role: actor.role,
        at: ctx.at,
      },
    });
  }
  const shoe = shoeIn(ctx);
  if (shoe instanceof Refusal) return shoe;
  if (shoe.seed === null)
    return refuse('WRONG_DEALING_MODE', 'This shoe has no seed to deal from', { shoeNo: shoe.shoeNo });
  const shuffled = shuffleShoe(shoe.decks, seedFromHex(shoe.seed));
  const start = shoe.position;
  const upcoming = shuffled.slice(start, start + 6);
  // unreachable with a valid cut card (rng voids use no cards), but never throw: an exhausted shoe must be ended
  if (upcoming.length < 6 && upcoming.length < coupLength(upcoming)) {
    return refuse(
      'WRONG_PHASE',
      `Shoe ${shoe.shoeNo} has run out of cards: void the round and end the shoe`,
      {
        shoeNo: shoe.shoeNo,
        cardsLeft: upcoming.length,
      },
    );
  }
  const result = resolveCoup(upcoming);
  const cards = shuffled.slice(start, start + result.cardsUsed);
  cards.forEach((card, index) => {
    const place = nextFor(cards.slice(0, index));
    if (place.to === 'complete') return;
    events.push({
      type: 'CardDealt',
      data: {
        roundNo,
        index,
        card,
        to: place.to,
        slot: place.slot,
        shoePosition: start + index,
        next: nextFor(cards.slice(0, index + 1)),
        ...by(ctx),
      },
    });
  });
  const resolved = resolution(ctx, shoe, round, result);
  events.push(...resolved.events);
  // what follows: the next shoe (nextSeed, if this one ended) and, on player-dealt tables, the next round
  let shoeNo: number | null = resolved.ended ? null : shoe.shoeNo;
  if (resolved.ended && nextSeed !== undefined) {
    events.push(shoeStarted(ctx, { seed: nextSeed }));
    shoeNo = shoe.shoeNo + 1;
  }
  if (rules.dealtBy === 'player' && shoeNo !== null) events.push(bettingOpened(ctx, roundNo + 1, shoeNo));
  return events;
}

function dealOneCard(ctx: OpenCtx): Verdict {
  const roundNo = roundNoOf(ctx);
  if (roundNo instanceof Refusal) return roundNo;
  const card = cardOf(ctx.data['card']);
  if (card instanceof Refusal) return card;
  if (ctx.rules.dealing !== 'live') {
    return refuse('WRONG_DEALING_MODE', 'An rng table deals the whole coup at once (Deal)', {
      dealing: ctx.rules.dealing,
    });
  }
  const round = currentRound(ctx, roundNo, ['dealing'], 'CARD_NOT_DUE');
  if (round instanceof Refusal) return round;
  const shoe = shoeIn(ctx);
  if (shoe instanceof Refusal) return shoe;
  if (shoe.remaining === null)
    return refuse('WRONG_DEALING_MODE', 'This shoe is not dealt by hand', { shoeNo: shoe.shoeNo });
  const cards = round.cards.map((c) => c.card);
  const coup: CoupState = { cards, remaining: shoe.remaining };
  const place = nextFor(cards);
  if (place.to === 'complete') {
    return refuse('CARD_NOT_DUE', `The coup of round ${roundNo} is complete: no card is due`, { roundNo });
  }
  const dealt = dealCard(coup, card);
  if (!dealt.ok) {
    if (dealt.error.code === 'CARD_NOT_IN_SHOE') {
      return refuse('CARD_NOT_IN_SHOE', `The shoe holds no more ${card}: check the card`, {
        card,
        decks: shoe.decks,
      });
    }
    return refuse('INVALID_CARD', dealt.error.message, { card });
  }
  const after = dealt.value.cards;
  const next = nextFor(after);
  const events: TableEvent[] = [
    {
      type: 'CardDealt',
      data: {
        roundNo,
        index: cards.length,
        card,
        to: place.to,
        slot: place.slot,
        shoePosition: shoe.position + cards.length,
        next,
        ...by(ctx),
      },
    },
  ];
  if (next.to === 'complete') events.push(...resolution(ctx, shoe, round, resolveCoup(after)).events);
  return events;
}

function correctCard(ctx: OpenCtx): Verdict {
  const roundNo = roundNoOf(ctx);
  if (roundNo instanceof Refusal) return roundNo;
  const index = ctx.data['index'];
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) {
    return refuse('INVALID_INDEX', `index must be a whole number from 0, got ${describe(index)}`, {
      field: 'index',
    });
  }
  const card = cardOf(ctx.data['card']);
  if (card instanceof Refusal) return card;
  if (ctx.rules.dealing !== 'live') {
    return refuse('WRONG_DEALING_MODE', 'Cards are corrected on live tables only', {
      dealing: ctx.rules.dealing,
    });
  }
  const round = currentRound(ctx, roundNo, ['dealing']);
  if (round instanceof Refusal) return round;
  const cards = round.cards.map((c) => c.card);
  if (index >= cards.length) {
    return refuse('INVALID_INDEX', `Card ${index} has not been dealt (${cards.length} dealt)`, {
      index,
      cardsDealt: cards.length,
    });
  }
  const oldCard = cards[index];
  if (oldCard === undefined) {
    return refuse('INVALID_INDEX', `Card ${index} has not been dealt`, { index, cardsDealt: cards.length });
  }
  if (oldCard === card) {
    return refuse('CORRECTION_CONFLICT', `Card ${index} is already ${card}`, { index, card });
  }
  const shoe = shoeIn(ctx);
  if (shoe instanceof Refusal) return shoe;
  if (shoe.remaining === null)
    return refuse('WRONG_DEALING_MODE', 'This shoe is not dealt by hand', { shoeNo: shoe.shoeNo });
  const back = { ...shoe.remaining, [oldCard]: shoe.remaining[oldCard] + 1 };
  if (!removeCard(back, card).ok) {
    return refuse('CARD_NOT_IN_SHOE', `The shoe holds no more ${card}: check the card`, {
      card,
      decks: shoe.decks,
    });
  }
  const corrected = cards.map((c, i) => (i === index ? card : c));
  for (let i = 1; i < corrected.length; i++) {
    if (nextFor(corrected.slice(0, i)).to === 'complete') {
      return refuse(
        'CORRECTION_CONFLICT',
        `With ${card} as card ${index} the coup is complete after ${i} cards, but ${corrected.length} were dealt: void the round instead`,
        { index, card, cardsNeeded: i, cardsDealt: corrected.length },
      );
    }
  }
  const next = nextFor(corrected);
  const events: TableEvent[] = [
    { type: 'CardCorrected', data: { roundNo, index, oldCard, newCard: card, next, ...by(ctx) } },
  ];
  if (next.to === 'complete') events.push(...resolution(ctx, shoe, round, resolveCoup(corrected)).events);
  return events;
}

function voidRound(ctx: OpenCtx): Verdict {
  const roundNo = roundNoOf(ctx);
  if (roundNo instanceof Refusal) return roundNo;
  const raw = ctx.data['reason'];
  const reason = typeof raw === 'string' ? raw.trim() : '';
  if (reason.length < 3 || reason.length > 500) {
    return refuse('INVALID_REASON', 'A void needs a reason of 3 to 500 characters', { field: 'reason' });
  }
  const round = currentRound(ctx, roundNo, ['betting', 'dealing']);
  if (round instanceof Refusal) return round;
  const cardsDealt = round.cards.length;
  const events: TableEvent[] = [
    {
      type: 'RoundVoided',
      data: { roundNo, reason, returned: returnsOf(stakesOnLayout(ctx.state)), cardsDealt, ...by(ctx) },
    },
  ];
  const shoe = ctx.state.shoe;
  const progress = shoe?.progress;
  if (shoe && progress && !progress.ended && afterVoid(progress, cardsDealt).ended) {
    events.push(shoeEnded(ctx, shoe, 'exhausted'));
  }
  return events;
}

function endShoe(ctx: OpenCtx): Verdict {
  const { state } = ctx;
  const shoe = shoeIn(ctx);
  if (shoe instanceof Refusal) return shoe;
  if (state.phase !== 'ready') {
    return refuse('WRONG_PHASE', `A shoe ends between rounds (phase ${state.phase})`, { phase: state.phase });
  }
  return [shoeEnded(ctx, shoe, 'supervisor')];
}

// ---------------------------------------------------------------------------------------------------------------

/** Reads the command by its own fields only (see ownFields): `data` is handed on as such a copy. */
function envelope(
  raw: unknown,
): { type: TableCommandType; data: Data; meta: CommandMeta; atMs: number } | Refusal {
  if (!isPlainObject(raw)) return refuse('INVALID_COMMAND', 'A command is an object { type, data, meta }');
  const command = ownFields(raw);
  const type = command['type'];
  if (typeof type !== 'string' || !Object.hasOwn(DATA_FIELDS, type)) {
    return refuse('INVALID_COMMAND', `Unknown command type ${describe(type)}`, { field: 'type' });
  }
  const rawData = command['data'] === undefined ? {} : command['data'];
  if (!isPlainObject(rawData)) return refuse('INVALID_COMMAND', 'data must be an object', { field: 'data' });
  const data = ownFields(rawData);
  const allowed = DATA_FIELDS[type as TableCommandType];
  for (const key of Object.keys(data)) {
    if (!allowed.includes(key) && data[key] !== undefined) {
      return refuse(
        'INVALID_COMMAND',
        `${type} takes no field ${describe(key)} (fields: ${allowed.join(', ') || 'none'})`,
        {
          field: key,
        },
      );
    }
  }
  const rawMeta = command['meta'];
  const meta = isPlainObject(rawMeta) ? ownFields(rawMeta) : null;
  if (meta === null || !isPlainObject(meta['actor'])) {
    return refuse('INVALID_COMMAND', 'meta must be { actor: { id, role }, at }', { field: 'meta' });
  }
  const actor = ownFields(meta['actor']);
  const id = actor['id'];
  const role = actor['role'];
  if (typeof id !== 'string' || id.length < 1 || id.length > 128) {
    return refuse('INVALID_COMMAND', 'meta.actor.id must be 1 to 128 characters', { field: 'meta.actor.id' });
  }
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
    return refuse('INVALID_COMMAND', `meta.actor.role must be one of ${ROLES.join(', ')}`, {
      field: 'meta.actor.role',
    });
  }
  const at = meta['at'];
  const atMs = typeof at === 'string' && ISO_INSTANT.test(at) ? Date.parse(at) : NaN;
  if (!Number.isFinite(atMs)) {
    return refuse('INVALID_COMMAND', `meta.at must be an ISO-8601 instant, got ${describe(at)}`, {
      field: 'meta.at',
    });
  }
  return {
    type: type as TableCommandType,
    data,
    meta: { actor: { id, role: role as Role }, at: at as string },
    atMs,
  };
}

/**
 * Decides a command against the state: the events to record, or a typed error (and nothing recorded).
 * Pure; never throws for bad input (the command may come straight from the wire).
 */
export function decide(command: TableCommand, state: TableState): Decision {
  const env = envelope(command);
  if (env instanceof Refusal) return { ok: false, error: env.error };
  const { type, data, meta, atMs } = env;
  const ctx: Ctx = { state, data, actor: meta.actor, at: meta.at, atMs };

  if (state.phase === 'none' && type !== 'OpenTable') {
    return { ok: false, error: domainError('UNKNOWN_TABLE', 'No such table: open it first') };
  }
  if (!COMMAND_ROLES[type].includes(meta.actor.role)) {
    return {
      ok: false,
      error: domainError('FORBIDDEN', `The ${meta.actor.role} role may not ${type}`, {
        role: meta.actor.role,
        command: type,
      }),
    };
  }
  const personal = personalTable(type, ctx);
  if (personal) return { ok: false, error: personal.error };
  if (type === 'PlaceBet' || type === 'ClearBets' || type === 'Rebet') {
    const playerId = data['playerId'];
    if (typeof playerId === 'string') {
      const refused = actFor(ctx, playerId);
      if (refused) return { ok: false, error: refused.error };
    } else if (meta.actor.role === 'player') {
      return {
        ok: false,
        error: domainError('FORBIDDEN', 'A player may bet only for itself', { field: 'playerId' }),
      };
    }
  }

  const outcome = type === 'OpenTable' ? openTable(ctx) : onOpenTable(type, ctx);
  if (outcome instanceof Refusal) return { ok: false, error: outcome.error };
  return { ok: true, events: outcome };
}

function onOpenTable(type: Exclude<TableCommandType, 'OpenTable'>, base: Ctx): Verdict {
  const rules = base.state.rules;
  if (rules === null) return refuse('UNKNOWN_TABLE', 'No such table: open it first');
  const ctx: OpenCtx = { ...base, rules };
  if (base.state.phase === 'closed' && type !== 'CashOut') {
    return refuse('TABLE_CLOSED', `Table ${base.state.tableId} is closed`, { tableId: base.state.tableId });
  }
  switch (type) {
    case 'CloseTable':
      return closeTable(ctx);
    case 'BuyIn':
      return buyIn(ctx);
    case 'CashOut':
      return cashOut(ctx);
    case 'StartShoe':
      return startShoe(ctx);
    case 'OpenBetting':
      return openBetting(ctx);
    case 'PlaceBet':
      return placeBet(ctx);
    case 'ClearBets':
      return clearBets(ctx);
    case 'Rebet':
      return rebet(ctx);
    case 'CloseBetting':
      return closeBetting(ctx);
    case 'Deal':
      return deal(ctx);
    case 'DealCard':
      return dealOneCard(ctx);
    case 'CorrectCard':
      return correctCard(ctx);
    case 'VoidRound':
      return voidRound(ctx);
    case 'EndShoe':
      return endShoe(ctx);
    default: {
      const unknown: never = type;
      return refuse('INVALID_COMMAND', `Unknown command type ${describe(unknown)}`);
    }
  }
}
