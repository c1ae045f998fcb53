/**
 * What people see: `tableView` (the JSON view of a table for the API and consoles) and `redactEvent` (an event as
 * a given viewer may receive it). Neither ever exposes a seed before the shoe ends; a `player` viewer sees only
 * its own chips, bets and settlements (the per-spot totals of everyone are fine).
 */
import type { NextPosition } from '@coup/engine';
import { nextFor } from './coup';
import {
  type CoupSummary,
  type Phase,
  type PlayerState,
  type RoundState,
  type ShoeState,
  type TableState,
  NO_BETS,
  roundOpen,
} from './state';
import {
  type Actor,
  type Card,
  type Returned,
  type Settlement,
  type ShoeEndReason,
  type Slot,
  type SpotAmounts,
  type TableEvent,
  type TableRules,
  addStake,
  amountOn,
  stakedSpots,
  totalOf,
} from './vocabulary';

/** The shoe as shown. `seed` is null until revealed. */
export interface ShoeView {
  readonly shoeNo: number;
  readonly dealing: 'rng' | 'live';
  readonly everyCoup: boolean;
  readonly decks: number;
  readonly length: number;
  /** Index of the next card in the shoe (turned, burned and dealt cards before it). */
  readonly position: number;
  readonly cardsLeft: number;
  /** Index of the cut card, or null (every-coup tables). */
  readonly cutIndex: number | null;
  readonly cutCardOut: boolean;
  /** null until the cut card is out, then coups left (1, then 0). */
  readonly coupsLeft: number | null;
  readonly coups: number;
  readonly commitment: string | null;
  readonly seed: string | null;
  readonly burn: { readonly card: Card | null; readonly count: number };
  readonly ended: boolean;
  readonly endReason: ShoeEndReason | null;
}

/** One player's stakes in the round. */
export type PlayerBetsView = SpotAmounts & { readonly playerId: string };

/** The current (or last) round as shown. */
export interface RoundView {
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly status: 'betting' | 'dealing' | 'resolved' | 'voided';
  readonly openedAt: string;
  readonly deadline: string | null;
  readonly bets: {
    /** Everyone's stakes per spot. */
    readonly totals: SpotAmounts;
    /** How many players have stakes. */
    readonly bettors: number;
    /** Per player (a player viewer: its own only). */
    readonly players: readonly PlayerBetsView[];
  };
  readonly cards: readonly {
    readonly index: number;
    readonly card: Card;
    readonly to: 'player' | 'banker';
    readonly slot: Slot;
  }[];
  /** Where the next card goes while dealing, else null. */
  readonly next: NextPosition | null;
  readonly result: CoupSummary | null;
  readonly voided: { readonly reason: string; readonly by: string } | null;
}

/** A seated player's balance. */
export interface PlayerView {
  readonly playerId: string;
  readonly chips: number;
  readonly commissionOwed: number;
}

/** The table as the API and consoles show it. JSON-safe. */
export interface TableView {
  readonly tableId: string | null;
  readonly status: 'none' | 'open' | 'closed';
  readonly phase: Phase;
  readonly rules: TableRules | null;
  readonly roundNo: number;
  readonly shoe: ShoeView | null;
  readonly round: RoundView | null;
  readonly players: readonly PlayerView[];
  readonly lastResult: CoupSummary | null;
}

/** The player id a viewer is limited to, or null if it sees everyone (staff, compliance, analysts, no viewer). */
function onlyPlayer(viewer?: Actor): string | null {
  return viewer !== undefined && viewer.role === 'player' ? viewer.id : null;
}

function filterResult(result: CoupSummary | null, me: string | null): CoupSummary | null {
  if (result === null || me === null) return result;
  return { ...result, settlements: result.settlements.filter((s) => s.playerId === me) };
}

/** The shoe as shown, with `inCoup` cards of the open round already out of it. */
function shoeViewOf(shoe: ShoeState, inCoup: number): ShoeView {
  const progress = shoe.progress;
  return {
    shoeNo: shoe.shoeNo,
    dealing: shoe.dealing,
    everyCoup: shoe.everyCoup,
    decks: shoe.decks,
    length: shoe.length,
    position: shoe.position + inCoup,
    cardsLeft: Math.max(0, shoe.length - shoe.position - inCoup),
    cutIndex: progress?.cutIndex ?? null,
    cutCardOut: progress === null ? false : progress.cutCardOut || shoe.position + inCoup > progress.cutIndex,
    coupsLeft: progress === null ? null : progress.coupsLeft,
    coups: shoe.coups,
    commitment: shoe.commitment,
    seed: shoe.revealed ? shoe.seed : null,
    burn: { card: shoe.burnCard, count: shoe.burnCount },
    ended: shoe.ended,
    endReason: shoe.endReason,
  };
}

/** The round as shown: the layout's totals and bettors, each bettor's stakes (only `me`'s for a player). */
function roundViewOf(round: RoundState, statePlayers: readonly PlayerState[], me: string | null): RoundView {
  let totals: SpotAmounts = NO_BETS;
  const players: PlayerBetsView[] = [];
  let bettors = 0;
  for (const { playerId, bets: b } of statePlayers) {
    if (b === null) continue;
    if (totalOf(b) === 0) continue;
    bettors += 1;
    for (const spot of stakedSpots(b)) totals = addStake(totals, spot, amountOn(b, spot));
    if (me === null || playerId === me) players.push({ playerId, ...b });
  }
  return {
    roundNo: round.roundNo,
    shoeNo: round.shoeNo,
    status: round.status,
    openedAt: round.openedAt,
    deadline: round.deadline,
    bets: { totals, bettors, players },
    cards: round.cards.map((c, index) => ({ index, card: c.card, to: c.to, slot: c.slot })),
    next: round.status === 'dealing' ? nextFor(round.cards.map((c) => c.card)) : null,
    result: filterResult(round.result, me),
    voided: round.voided === null ? null : { reason: round.voided.reason, by: round.voided.by },
  };
}

/**
 * The table as `viewer` may see it (no viewer: everything but unrevealed seeds, as staff see it). A `player`
 * viewer sees only its own entry in `players`, `round.bets.players` and settlements.
 */
export function tableView(state: TableState, viewer?: Actor): TableView {
  const me = onlyPlayer(viewer);
  const round = state.round;
  const inCoup = roundOpen(round) ? round.cards.length : 0;
  const players: PlayerView[] = state.players
    .filter((p) => me === null || p.playerId === me)
    .map((p) => ({ playerId: p.playerId, chips: p.chips, commissionOwed: p.commissionOwed }));
  return {
    tableId: state.tableId,
    status: state.phase === 'none' ? 'none' : state.phase === 'closed' ? 'closed' : 'open',
    phase: state.phase,
    rules: state.rules,
    roundNo: state.roundNo,
    shoe: state.shoe === null ? null : shoeViewOf(state.shoe, inCoup),
    round: round === null ? null : roundViewOf(round, state.players, me),
    players,
    lastResult: filterResult(state.lastResult, me),
  };
}

/**
 * An event as `viewer` may receive it (for live push), or null if it must not see it at all:
 * - `ShoeStarted.seed` is always removed (null): the seed is public only in `ShoeEnded`;
 * - a `player` viewer gets no other player's PlayerBoughtIn, PlayerCashedOut, BetPlaced or BetsCleared, and only
 *   its own entries in CoupResolved.settlements, RoundVoided.returned and a settled coup's correction or void.
 */
export function redactEvent(event: TableEvent, viewer?: Actor): TableEvent | null {
  if (event.type === 'ShoeStarted') {
    return event.data.seed === null ? event : { ...event, data: { ...event.data, seed: null } };
  }
  const me = onlyPlayer(viewer);
  if (me === null) return event;
  switch (event.type) {
    case 'PlayerBoughtIn':
    case 'PlayerCashedOut':
    case 'BetPlaced':
    case 'BetsCleared':
      return event.data.playerId === me ? event : null;
    case 'CoupResolved':
      return {
        ...event,
        data: {
          ...event.data,
          settlements: event.data.settlements.filter((s: Settlement) => s.playerId === me),
        },
      };
    case 'RoundVoided':
      return {
        ...event,
        data: { ...event.data, returned: event.data.returned.filter((r: Returned) => r.playerId === me) },
      };
    case 'SettledCoupCorrected':
      return {
        ...event,
        data: {
          ...event.data,
          reversed: event.data.reversed.filter((s: Settlement) => s.playerId === me),
          settlements: event.data.settlements.filter((s: Settlement) => s.playerId === me),
        },
      };
    case 'SettledCoupVoided':
      return {
        ...event,
        data: {
          ...event.data,
          reversed: event.data.reversed.filter((s: Settlement) => s.playerId === me),
          returned: event.data.returned.filter((r: Returned) => r.playerId === me),
        },
      };
    default:
      return event;
  }
}
