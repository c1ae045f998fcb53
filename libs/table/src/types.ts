/**
 * The table's vocabulary: who acts (roles), the rules fixed when a table opens, the commands (imperative) and the
 * events (past tense). Commands and events are readonly `{ type, data }` unions; commands also carry `meta`
 * (who sends them and when, from the edge). Money is integer cents, cards are the engine's two-character strings.
 */
import type { Card, NextPosition, Outcome, ShoeCounts, ShoeProgress, Slot, Spot } from '@coup/engine';

export type { Card, NextPosition, Outcome, ShoeCounts, ShoeProgress, Slot, Spot };

/**
 * Who may do what (checked in `decide` as domain rules):
 * - `admin`: OpenTable, CloseTable, BuyIn, CashOut, and bets on behalf of a player;
 * - `dealer`: StartShoe, OpenBetting, CloseBetting, Deal, DealCard, and bets on behalf of a player;
 * - `supervisor`: what a dealer may, plus VoidRound, CorrectCard, EndShoe;
 * - `player`: PlaceBet, ClearBets, Rebet for itself only (actor.id === playerId), and Deal on its own
 *   player-dealt table (seated players only);
 * - `compliance`, `analyst`: read-only (every command is FORBIDDEN).
 */
export type Role = 'admin' | 'dealer' | 'supervisor' | 'player' | 'compliance' | 'analyst';

/** Every role, for validation. */
export const ROLES: readonly Role[] = ['admin', 'dealer', 'supervisor', 'player', 'compliance', 'analyst'];

/** Who sends a command. For a `player`, `id` is the player id it bets as. */
export interface Actor {
  readonly id: string;
  readonly role: Role;
}

/** Every command's envelope: who sent it, and when (an ISO-8601 instant stamped at the edge; events record it). */
export interface CommandMeta {
  readonly actor: Actor;
  readonly at: string;
}

/** A spot's table limits, in cents. `min` applies to the spot total of one player, `max` likewise. */
export interface Limit {
  readonly min: number;
  readonly max: number;
}

/** The table rules, fixed when the table opens. See `normalizeRules` for validation and defaults. */
export interface TableRules {
  /** `rng`: the shoe is shuffled from a seed and dealt by the decider; `live`: cards are entered as dealt. */
  readonly dealing: 'rng' | 'live';
  /** Decks in the shoe, 1..8 (casinos use 6 or 8). Default 8. */
  readonly decks: number;
  /** `shoe`: one shuffle per shoe with burn and cut card; `every-coup`: a fresh shuffle (and seed) per coup. */
  readonly shuffle: 'shoe' | 'every-coup';
  /** `dealer`: staff open/close/deal; `player`: a single-player online table where the player presses DEAL. */
  readonly dealtBy: 'dealer' | 'player';
  /** Tie pays 8:1 or 9:1. */
  readonly tiePays: 8 | 9;
  /** Banker commission (5%): deducted from the win, or owed to the commission box and collected at cash-out. */
  readonly commission: 'deducted' | 'box';
  /** Per-spot limits in cents. */
  readonly limits: { readonly player: Limit; readonly banker: Limit; readonly tie: Limit };
  /** Chip denominations in cents, ascending. Bet amounts must be multiples of their gcd. */
  readonly chips: readonly number[];
  /** Whether one player may bet Player and Banker in the same round. Default false (as at a live table). */
  readonly allowPlayerAndBanker: boolean;
  /** Betting timer in seconds (1..600), or null for none. */
  readonly bettingSeconds: number | null;
  /** Cards between the cut card and the end of the shoe. Default 16. */
  readonly cutCard: number;
}

/** A player's stakes on each spot, in cents (0 when none). */
export interface SpotAmounts {
  readonly player: number;
  readonly banker: number;
  readonly tie: number;
}

/** The three spots, in display order. */
export const SPOTS: readonly Spot[] = ['player', 'banker', 'tie'];

// ---------------------------------------------------------------------------------------------------------------
// Commands

/** Builds a command type: `{ type, data, meta }`. */
type Cmd<T extends string, D> = { readonly type: T; readonly data: D; readonly meta: CommandMeta };

/**
 * Every command the table takes. `data` is validated by `decide` (it may come from the wire): bad input is
 * refused with a typed error, never thrown.
 */
export type TableCommand =
  /** Opens a table. `rules` is the raw rules input: any subset of {@link TableRules}, defaults for the rest. */
  | Cmd<'OpenTable', { readonly tableId: string; readonly rules?: unknown }>
  /** Closes the table between rounds (an empty betting round is cancelled). CashOut stays possible. */
  | Cmd<'CloseTable', Readonly<Record<string, never>>>
  /** Cash to chips: seats the player if needed. */
  | Cmd<'BuyIn', { readonly playerId: string; readonly amount: number }>
  /** Chips to cash, box commission collected first; the player leaves the table (unless it still owes). */
  | Cmd<'CashOut', { readonly playerId: string }>
  /** Starts a shoe: rng tables need `seed` (64 hex), live tables `firstCard` (the turned card). */
  | Cmd<'StartShoe', { readonly seed?: string; readonly firstCard?: string }>
  /** Opens the next round. On every-coup tables with no shoe, `seed` starts the coup's shoe first. */
  | Cmd<'OpenBetting', { readonly seed?: string }>
  | Cmd<
      'PlaceBet',
      { readonly roundNo: number; readonly playerId: string; readonly spot: Spot; readonly amount: number }
    >
  | Cmd<'ClearBets', { readonly roundNo: number; readonly playerId: string }>
  | Cmd<'Rebet', { readonly roundNo: number; readonly playerId: string }>
  /** No more bets. `byTimer`: sent by the scheduler, refused before the deadline. */
  | Cmd<'CloseBetting', { readonly roundNo: number; readonly byTimer?: boolean }>
  /** rng tables: deals the whole coup. `nextSeed` starts the next shoe if this coup ends the shoe. */
  | Cmd<'Deal', { readonly roundNo: number; readonly nextSeed?: string }>
  /** live tables: one dealt card. */
  | Cmd<'DealCard', { readonly roundNo: number; readonly card: string }>
  /** live tables, supervisor: replaces a mis-entered card (0-based index in dealing order) before the coup resolves. */
  | Cmd<'CorrectCard', { readonly roundNo: number; readonly index: number; readonly card: string }>
  /** supervisor: voids the round (betting or dealing), every bet returned, cards stay on record. */
  | Cmd<'VoidRound', { readonly roundNo: number; readonly reason: string }>
  /** supervisor, between rounds: ends the current shoe early (the seed is revealed). Added to the contract. */
  | Cmd<'EndShoe', Readonly<Record<string, never>>>;

/** The command type names. */
export type TableCommandType = TableCommand['type'];

// ---------------------------------------------------------------------------------------------------------------
// Events

/** Builds an event type: `{ type, data }`. */
type Evt<T extends string, D> = { readonly type: T; readonly data: D };

/** Why a shoe ended: the cut card's last coup, every-coup tables after each coup, EndShoe, CloseTable, or the cards ran out (live shoes after voided coups). */
export type ShoeEndReason = 'cut-card' | 'every-coup' | 'supervisor' | 'table-closed' | 'exhausted';

/** One bet's settlement: `paid` goes back to the player's chips (stake included); `commission` deducted or owed. */
export interface Settlement {
  readonly playerId: string;
  readonly spot: Spot;
  readonly amount: number;
  readonly result: 'win' | 'lose' | 'push';
  readonly paid: number;
  readonly commission: number;
}

/** A player's stake returned (void, clear). */
export interface Returned {
  readonly playerId: string;
  readonly amount: number;
}

/**
 * Every event. Each `data` has `at` (the command's instant) and, when a person did it, `by` (the actor id) and
 * `role`. Events hold everything `evolve` needs: folding the same events always gives the same state.
 */
export type TableEvent =
  | Evt<
      'TableOpened',
      {
        readonly tableId: string;
        readonly rules: TableRules;
        readonly at: string;
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'TableClosed',
      { readonly tableId: string; readonly at: string; readonly by: string; readonly role: Role }
    >
  | Evt<
      'PlayerBoughtIn',
      {
        readonly playerId: string;
        readonly amount: number;
        readonly chips: number;
        readonly at: string;
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'PlayerCashedOut',
      {
        readonly playerId: string;
        /** Cash paid to the player: chips less the commission collected. */
        readonly paid: number;
        /** Box commission collected from the chips. */
        readonly commissionCollected: number;
        /** Box commission still owed after the cash-out (chips did not cover it). */
        readonly commissionOwed: number;
        readonly at: string;
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'ShoeStarted',
      {
        readonly shoeNo: number;
        readonly dealing: 'rng' | 'live';
        readonly shuffle: 'shoe' | 'every-coup';
        readonly decks: number;
        /** Cards in the shoe (decks x 52). */
        readonly length: number;
        /** rng: lowercase hex sha256 of the seed bytes, published before any bet; live: null. */
        readonly commitment: string | null;
        /** rng: the seed (64 lowercase hex). PRIVATE until ShoeEnded reveals it: see `redactEvent`. live: null. */
        readonly seed: string | null;
        /** The turned card (rng: the shoe's first card; live: as entered), or null on every-coup tables (no burn). */
        readonly burnCard: Card | null;
        /** Cards burned face down after the turned card. */
        readonly burnCount: number;
        /** Index of the first card of the first coup (1 + burnCount, or 0 without burn). */
        readonly firstCoupIndex: number;
        /** Cut card distance from the end, or null (every-coup tables have none). */
        readonly cutCard: number | null;
        readonly at: string;
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'ShoeEnded',
      {
        readonly shoeNo: number;
        /** rng: the seed, revealed (check it against the commitment); live: null. */
        readonly seed: string | null;
        readonly reason: ShoeEndReason;
        /** Coups resolved from this shoe. */
        readonly coups: number;
        readonly at: string;
        /** Who sent the command that ended it (the last deal, EndShoe, CloseTable, VoidRound). */
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'BettingOpened',
      {
        readonly roundNo: number;
        readonly shoeNo: number;
        /** ISO instant when betting closes by timer (at + bettingSeconds), or null. */
        readonly deadline: string | null;
        readonly at: string;
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'BetPlaced',
      {
        readonly roundNo: number;
        readonly playerId: string;
        readonly spot: Spot;
        readonly amount: number;
        /** The player's total on this spot after the bet. */
        readonly spotTotal: number;
        /** The player's chips after the bet. */
        readonly chips: number;
        /** True when placed by Rebet. */
        readonly rebet: boolean;
        readonly at: string;
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'BetsCleared',
      {
        readonly roundNo: number;
        readonly playerId: string;
        /** The stakes taken back, per spot. */
        readonly bets: SpotAmounts;
        /** Their total, back to the player's chips. */
        readonly returned: number;
        /** The player's chips after. */
        readonly chips: number;
        readonly at: string;
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'BettingClosed',
      {
        readonly roundNo: number;
        /** How betting closed: by staff, by the timer, or by the player's DEAL. */
        readonly by: 'dealer' | 'timer' | 'player';
        /** The actor id who sent the command. */
        readonly actorId: string;
        readonly role: Role;
        readonly at: string;
      }
    >
  | Evt<
      'CardDealt',
      {
        readonly roundNo: number;
        /** 0-based index in the coup's dealing order. */
        readonly index: number;
        readonly card: Card;
        readonly to: 'player' | 'banker';
        readonly slot: Slot;
        /** 0-based position of the card in the shoe. */
        readonly shoePosition: number;
        /** Where the next card goes (`{ to: 'complete' }` when the coup is complete). */
        readonly next: NextPosition;
        readonly at: string;
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'CardCorrected',
      {
        readonly roundNo: number;
        readonly index: number;
        readonly oldCard: Card;
        readonly newCard: Card;
        /** Where the next card goes after the correction. */
        readonly next: NextPosition;
        readonly at: string;
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'CoupResolved',
      {
        readonly roundNo: number;
        readonly shoeNo: number;
        readonly playerCards: readonly Card[];
        readonly bankerCards: readonly Card[];
        readonly playerTotal: number;
        readonly bankerTotal: number;
        readonly outcome: Outcome;
        readonly natural: boolean;
        readonly cardsUsed: number;
        /** The table's commission mode: whether `commission` below was deducted from `paid` or is owed. */
        readonly commissionMode: 'deducted' | 'box';
        readonly settlements: readonly Settlement[];
        readonly at: string;
        /** Who dealt (or corrected) the card that completed the coup. */
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'RoundVoided',
      {
        readonly roundNo: number;
        readonly reason: string;
        readonly by: string;
        readonly role: Role;
        /** Every stake of the round, back to the players' chips (one entry per player). */
        readonly returned: readonly Returned[];
        /** Cards dealt in the voided coup (they stay on record; the shoe moves past them). */
        readonly cardsDealt: number;
        readonly at: string;
      }
    >;

/** The event type names. */
export type TableEventType = TableEvent['type'];

/** The schema version of each event type (bump when an event's data changes shape). */
export const EVENT_SCHEMA_VERSION: Readonly<Record<TableEventType, number>> = Object.freeze({
  TableOpened: 1,
  TableClosed: 1,
  PlayerBoughtIn: 1,
  PlayerCashedOut: 1,
  ShoeStarted: 1,
  ShoeEnded: 1,
  BettingOpened: 1,
  BetPlaced: 1,
  BetsCleared: 1,
  BettingClosed: 1,
  CardDealt: 1,
  CardCorrected: 1,
  CoupResolved: 1,
  RoundVoided: 1,
});

/** The data of the event of type `T`. */
export type EventData<T extends TableEventType> = Extract<TableEvent, { type: T }>['data'];
/** The data of the command of type `T`. */
export type CommandData<T extends TableCommandType> = Extract<TableCommand, { type: T }>['data'];
