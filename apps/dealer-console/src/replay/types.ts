/** The read side's answers the replay screen uses (shapes of `apps/table-service/src/queries/hands.controller.ts`). */
import type { Outcome } from '@coup/engine';
import type { TableView } from '@coup/table';

export interface HandSummary {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly status: 'betting' | 'dealing' | 'resolved' | 'voided';
  readonly openedAt: string;
  readonly resolvedAt: string | null;
  readonly outcome: Outcome | null;
  readonly natural: boolean | null;
  readonly playerCards: readonly string[];
  readonly bankerCards: readonly string[];
  readonly playerTotal: number | null;
  readonly bankerTotal: number | null;
  readonly players: readonly string[];
  readonly betCount: number;
  readonly totalStaked: number;
  readonly totalPaid: number;
  readonly commission: number;
  readonly houseResult: number;
  readonly dealer: string | null;
  readonly voidReason: string | null;
}

export interface HandPage {
  readonly items: readonly HandSummary[];
  readonly nextCursor: string | null;
}

/** The hand-history filters (all optional). */
export interface HandFilter {
  readonly shoe?: number;
  readonly roundFrom?: number;
  readonly roundTo?: number;
  readonly outcome?: Outcome | 'void';
  readonly player?: string;
}

/** An event of the hand as the service shows it (an unrevealed seed removed). */
export interface ReplayEvent {
  readonly revision: number;
  readonly position: number;
  readonly type: string;
  readonly data: unknown;
  readonly recordedAt: string;
  readonly actor: string | null;
  readonly hash: string;
  readonly prevHash: string;
}

export interface HandReplay {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly status: HandSummary['status'];
  /** The table just before the hand. */
  readonly before: TableView;
  readonly steps: readonly { readonly event: ReplayEvent; readonly view: TableView }[];
}

export type CheckStatus = 'pass' | 'fail' | 'pending' | 'skipped';

export interface Check {
  readonly name: string;
  readonly status: CheckStatus;
  readonly detail: string;
  readonly event?: { readonly revision: number; readonly position: number; readonly type: string };
}

export interface HandVerification {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly ok: boolean;
  readonly checks: readonly Check[];
}
