/**
 * The table's events (past tense), shared by the commands that produce them and by evolve, the views, the
 * projections and the service. Every `data` has `at` (the command's instant) and, when a person did it, `by`
 * (the actor id) and `role`.
 */
import type { CoupResult } from '@coup/engine';
import type { Role } from './actors';
import type { Card, NextPosition, Slot, Spot, SpotAmounts, TableRules } from './table';

type Evt<T extends string, D> = { readonly type: T; readonly data: D };

/** Why a shoe ended: the cut card's last coup, every-coup tables after each coup, EndShoe, CloseTable, or the cards ran out (live shoes after voided coups). */
export type ShoeEndReason = 'cut-card' | 'every-coup' | 'supervisor' | 'table-closed' | 'exhausted';

/**
 * One bet's settlement: `paid` goes back to the player's chips (stake included); `commission` deducted or owed;
 * `paytable` names the side bet's paytable (absent on the main spots).
 */
export interface Settlement {
  readonly playerId: string;
  readonly spot: Spot;
  readonly amount: number;
  readonly result: 'win' | 'lose' | 'push';
  readonly paid: number;
  readonly commission: number;
  readonly paytable?: string;
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
      /** The engine's resolution of the coup (cards, totals, outcome), where and how it settled. */
      CoupResult & {
        readonly roundNo: number;
        readonly shoeNo: number;
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
    >
  | Evt<
      'SettledCoupCorrected',
      /**
       * A supervisor's correction of a card of the coup just settled: the settlement `reversed` (as recorded in its
       * CoupResolved, or its last correction), the coup resolved again from the corrected cards, and settled anew.
       * Each player's chips move by the new `paid` less the reversed `paid`.
       */
      CoupResult & {
        readonly roundNo: number;
        readonly shoeNo: number;
        readonly index: number;
        readonly oldCard: Card;
        readonly newCard: Card;
        readonly reason: string;
        readonly reversed: readonly Settlement[];
        readonly commissionMode: 'deducted' | 'box';
        readonly settlements: readonly Settlement[];
        readonly at: string;
        readonly by: string;
        readonly role: Role;
      }
    >
  | Evt<
      'SettledCoupVoided',
      /**
       * A supervisor's void of the coup just settled: the settlement `reversed`, every stake `returned` (one entry
       * per player). The coup no longer counts; its cards stay on record and the shoe stays past them.
       */
      {
        readonly roundNo: number;
        readonly shoeNo: number;
        readonly reason: string;
        readonly reversed: readonly Settlement[];
        readonly returned: readonly Returned[];
        readonly at: string;
        readonly by: string;
        readonly role: Role;
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
  SettledCoupCorrected: 1,
  SettledCoupVoided: 1,
});

/** The data of the event of type `T`. */
export type EventData<T extends TableEventType> = Extract<TableEvent, { type: T }>['data'];

/** A shoe's start as recorded (one shape for the decider, its replies and the read side). */
export type ShoeStartedData = EventData<'ShoeStarted'>;
/** A resolved coup as recorded (one shape for the decider, its replies and the read side). */
export type CoupResolvedData = EventData<'CoupResolved'>;
