/** What the ledger query answers (camelCase, like the rest of the API; money in cents). */

/**
 * A player's counters at a table (or summed over tables). Chips now = boughtIn - staked + cleared +
 * voidedReturned + paid - commissionCollected - cashedOut.
 */
export interface LedgerCounters {
  /** Number of buy-ins. */
  readonly buyIns: number;
  /** Cash turned into chips. */
  readonly boughtIn: number;
  /** Bets placed (rebets included), each counted once whatever became of it: settled, cleared or voided. */
  readonly bets: number;
  /** Their stakes; what came back by clears and voids is in `cleared` and `voidedReturned`. */
  readonly staked: number;
  /** Stakes taken back by clearing bets. */
  readonly cleared: number;
  /** Settlements in force that won (one per player, spot and coup; a corrected coup counts as corrected). */
  readonly wins: number;
  /** Settlements in force that lost. */
  readonly losses: number;
  /** Settlements in force that pushed (player and banker on a tie). */
  readonly pushes: number;
  /** Paid back by the settlements in force, stakes included (commission deducted, not box commission). */
  readonly paid: number;
  /** What the player won (negative: lost): paid - stakes - box commission owed, over the settlements in force. */
  readonly netResult: number;
  /** Commission deducted from banker wins (tables that deduct it). */
  readonly commissionDeducted: number;
  /** Box commission owed now (owed less collected). */
  readonly commissionOwed: number;
  /** Box commission collected at cash-out. */
  readonly commissionCollected: number;
  /** Stakes returned by voided rounds and voided settled coups. */
  readonly voidedReturned: number;
  /** Number of cash-outs. */
  readonly cashOuts: number;
  /** Cash paid at cash-out. */
  readonly cashedOut: number;
  /** Chips at the table now (stakes on the layout excluded). */
  readonly chips: number;
}

export interface LedgerAccount extends LedgerCounters {
  readonly tableId: string;
  /** Time of the player's first entry at the table. */
  readonly firstAt: string;
}

export interface LedgerEntry {
  readonly position: number;
  /** Entry number within the event (a coup settles several bets). */
  readonly seq: number;
  readonly tableId: string;
  readonly at: string;
  /**
   * 'buy-in' | 'bet' | 'clear' | 'settlement' | 'reversal' (a settlement taken back by a correction or void of the
   * settled coup) | 'void-return' | 'cash-out'.
   */
  readonly kind: string;
  readonly roundNo: number | null;
  readonly spot: string | null;
  /** Bets and settlements on a side bet: its paytable; else null. */
  readonly paytable: string | null;
  /** Bought in, staked, returned, paid, or (a reversal) the paid it takes back. */
  readonly amount: number;
  /** Change to the player's chips at the table. */
  readonly chipsDelta: number;
  /** Settlements and reversals: 'win' | 'lose' | 'push' (a reversal: the result it reverses). */
  readonly result: string | null;
  /** Commission deducted or owed (a settlement), taken back (a reversal), or collected (a cash-out). */
  readonly commission: number;
  /** Who did it (null on the settlements of a coup as dealt). */
  readonly by: string | null;
  readonly role: string | null;
  /** Why, as the supervisor gave it: a void's returns, a settled coup's reversals and new settlements. */
  readonly reason: string | null;
}

export interface LedgerView {
  readonly playerId: string;
  readonly accounts: LedgerAccount[];
  /** The counters summed over `accounts`. */
  readonly totals: LedgerCounters;
  readonly entries: LedgerEntry[];
  readonly nextCursor: string | null;
}
