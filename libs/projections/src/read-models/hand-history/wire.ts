/** What the hand history's queries answer (JSON over the API): browser-safe types, no code. */
import type { Card, Returned, Role, Settlement, ShoeStartedData, Slot, Spot, SpotAmounts } from '@coup/table';

/** A bet placed (or cleared) in a hand, with who and when. */
export interface BetEntry {
  readonly kind: 'bet' | 'clear';
  readonly playerId: string;
  /** bet: the spot; clear: null (all the player's stakes). */
  readonly spot: Spot | null;
  /** bet: the amount; clear: the total returned. */
  readonly amount: number;
  /** clear: the stakes taken back per spot. */
  readonly cleared: SpotAmounts | null;
  readonly rebet: boolean;
  /** bet on a side bet: the paytable it is settled by (the table's); absent on the main spots and clears. */
  readonly paytable?: string;
  readonly at: string;
  readonly by: string;
  readonly role: Role;
  readonly position: number;
}

/** A card of the hand in dealing order, with who entered it. */
export interface CardEntry {
  readonly index: number;
  readonly card: Card;
  readonly to: 'player' | 'banker';
  readonly slot: Slot;
  /** 0-based position of the card in the shoe. */
  readonly shoePosition: number;
  readonly at: string;
  readonly by: string;
  readonly role: Role;
  readonly position: number;
  /** When corrected: the card first entered. */
  readonly correctedFrom: Card | null;
}

export interface CorrectionEntry {
  readonly index: number;
  readonly oldCard: Card;
  readonly newCard: Card;
  readonly at: string;
  readonly by: string;
  readonly role: Role;
  readonly position: number;
}

export type Outcome = 'player' | 'banker' | 'tie';

/** A coup's result: its outcome, cards and totals. */
export interface CoupOutcome {
  readonly outcome: Outcome;
  readonly natural: boolean;
  readonly playerCards: Card[];
  readonly bankerCards: Card[];
  readonly playerTotal: number;
  readonly bankerTotal: number;
}

/** A coup's result and settlement as the dealer's cards settled it (before any correction of the settled coup). */
export interface SettledResult extends CoupOutcome {
  readonly settlements: Settlement[];
  readonly at: string;
  /** Who dealt (or corrected) the card that completed the coup. */
  readonly by: string;
  readonly position: number;
}

/**
 * The settled coup put right by a supervisor before the next round's betting opened (recorded as compensating
 * events, `SettledCoupCorrected` or `SettledCoupVoided`): who, when, why, and the settlement it reversed.
 */
interface AmendmentBase {
  readonly reason: string;
  readonly at: string;
  readonly by: string;
  readonly role: Role;
  readonly position: number;
  /** The settlement in force that it reversed (the coup's, or the last correction's). */
  readonly reversed: Settlement[];
}

/** A card of the settled coup corrected: the coup resolved again from the corrected cards and settled anew. */
export interface CorrectionAmendment extends AmendmentBase, CoupOutcome {
  readonly kind: 'correction';
  readonly index: number;
  readonly oldCard: Card;
  readonly newCard: Card;
  readonly settlements: Settlement[];
}

/** The settled coup voided: every stake returned. */
export interface VoidAmendment extends AmendmentBase {
  readonly kind: 'void';
  readonly returned: Returned[];
}

export type Amendment = CorrectionAmendment | VoidAmendment;

export interface HandFilter {
  readonly shoe?: number;
  readonly roundFrom?: number;
  readonly roundTo?: number;
  /** ISO instants on the time betting opened: from inclusive, to exclusive. */
  readonly from?: string;
  readonly to?: string;
  /** An outcome, or 'void' for voided rounds. */
  readonly outcome?: Outcome | 'void';
  /** Hands where this player had stakes. */
  readonly player?: string;
  /** true: hands with a card corrected, while it was dealt or after the coup settled; false: hands with none. */
  readonly corrected?: boolean;
  /** Default 'desc' (newest first). */
  readonly order?: 'asc' | 'desc';
}

export interface Page {
  readonly cursor?: string;
  /** 1..500, default 50. */
  readonly limit?: number;
}

export interface HandSummary {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly status: 'betting' | 'dealing' | 'resolved' | 'voided';
  readonly openedAt: string;
  readonly resolvedAt: string | null;
  readonly outcome: Outcome | null;
  readonly natural: boolean | null;
  readonly playerCards: string[];
  readonly bankerCards: string[];
  readonly playerTotal: number | null;
  readonly bankerTotal: number | null;
  readonly players: string[];
  readonly betCount: number;
  readonly totalStaked: number;
  readonly totalPaid: number;
  readonly commission: number;
  readonly houseResult: number;
  readonly dealer: string | null;
  readonly voidReason: string | null;
  /** Whether the coup was corrected or voided after it settled (see `HandRecord.amendments`). */
  readonly amended: boolean;
}

/** A page of hands and the cursor of the next one. */
export interface HandPage {
  readonly items: HandSummary[];
  readonly nextCursor: string | null;
}

export interface HandRecord extends HandSummary {
  readonly openedBy: string;
  readonly deadline: string | null;
  readonly closedAt: string | null;
  readonly closedHow: string | null;
  readonly closedBy: string | null;
  readonly commissionMode: 'deducted' | 'box' | null;
  readonly voidedBy: string | null;
  readonly bets: BetEntry[];
  readonly cards: CardEntry[];
  readonly corrections: CorrectionEntry[];
  /** The settlement in force (the last correction's; a voided coup: none). */
  readonly settlements: Settlement[];
  readonly returned: { playerId: string; amount: number }[] | null;
  /** The coup as it first settled, when it was corrected or voided since (else null: the fields above). */
  readonly original: SettledResult | null;
  /** Each correction or void of the settled coup, in order: the audit trail after it settled. */
  readonly amendments: Amendment[];
  /** The span of events the hand covers in the table stream and its chain link in and head. */
  readonly span: {
    readonly firstPosition: number;
    readonly lastPosition: number;
    readonly firstRevision: number;
    readonly lastRevision: number;
    readonly eventCount: number;
    readonly firstPrevHash: string;
    readonly lastHash: string;
  };
  /** Where a replay starts: the hand whose stored state it folds from (this one or one up to 9 before), and its first revision. */
  readonly replayFrom: { readonly roundNo: number; readonly revision: number };
}

/** A shoe as the hand history answers it: the fields of its ShoeStarted event, and where it starts and ends. */
export interface ShoeRecordView extends Pick<
  ShoeStartedData,
  'shoeNo' | 'dealing' | 'shuffle' | 'decks' | 'length' | 'commitment' | 'burnCard' | 'burnCount'
> {
  readonly tableId: string;
  /** Only once revealed (ShoeEnded). */
  readonly seed: string | null;
  readonly startedAt: string;
  readonly startedRevision: number;
  readonly startedPosition: number;
  readonly startedHash: string;
  readonly endedAt: string | null;
  readonly endReason: string | null;
  readonly endedRevision: number | null;
  readonly endedPosition: number | null;
  readonly endedHash: string | null;
  readonly coups: number;
  readonly voids: number;
}
