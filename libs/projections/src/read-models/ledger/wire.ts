/** What the ledger query answers. */
import type { ACCOUNT_COUNTERS } from './fold';

export type LedgerAccount = { readonly tableId: string; readonly firstAt: string } & Readonly<
  Record<(typeof ACCOUNT_COUNTERS)[number], number>
>;

export interface LedgerEntry {
  readonly position: number;
  readonly seq: number;
  readonly tableId: string;
  readonly at: string;
  readonly kind: string;
  readonly roundNo: number | null;
  readonly spot: string | null;
  /** Bets and settlements on a side bet: its paytable; else null. */
  readonly paytable: string | null;
  readonly amount: number;
  readonly chipsDelta: number;
  readonly result: string | null;
  readonly commission: number;
  readonly by: string | null;
  readonly role: string | null;
}

export interface LedgerView {
  readonly playerId: string;
  readonly accounts: LedgerAccount[];
  readonly totals: Readonly<Record<(typeof ACCOUNT_COUNTERS)[number], number>>;
  readonly entries: LedgerEntry[];
  readonly nextCursor: string | null;
}
