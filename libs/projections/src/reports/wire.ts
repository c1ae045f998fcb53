/** What the analysts' reports answer (money in cents; percentages as 1.06 for 1.06%). Types only. */

/** Filters every report takes (all optional, ANDed). */
export interface ReportFilter {
  /** One gaming day, YYYY-MM-DD (not with from/to). */
  readonly gamingDay?: string;
  /** The first and last gaming day, inclusive. */
  readonly from?: string;
  readonly to?: string;
  /** UTC instants: facts at or after `since`, before `until`. */
  readonly since?: string;
  readonly until?: string;
  readonly shift?: string;
  /** The local hour, 0 to 23. */
  readonly hour?: number;
  readonly tableId?: string;
  /** Only these tables (a token limited to some tables: its own); an empty list, none. */
  readonly tables?: readonly string[];
  /** A dealer's actor id. */
  readonly dealer?: string;
  /** Player reports (rating, anomalies): one player. */
  readonly playerId?: string;
}

/** The dimensions a hold report may be grouped by. */
export type ReportDimension = 'table' | 'gamingDay' | 'shift' | 'hour' | 'dealer' | 'betType';

/** The grouping columns of a row: present when grouped by them. */
export interface ReportKeys {
  readonly tableId?: string;
  readonly gamingDay?: string;
  readonly shift?: string;
  readonly hour?: number;
  readonly dealerId?: string | null;
  readonly betType?: string;
}

export interface HoldRow extends ReportKeys {
  readonly coups: number;
  /** Cash bought in for chips. */
  readonly dropAmount: number;
  readonly cashedOut: number;
  readonly handle: number;
  /** The house's actual win: stakes - paid + box commission. */
  readonly win: number;
  /** win / drop x 100. */
  readonly holdPct: number | null;
  readonly winPctOfHandle: number | null;
  readonly theoWin: number;
  readonly theoPctOfHandle: number | null;
  readonly commission: number;
  readonly voids: number;
  readonly corrections: number;
}

export interface BetTypeRow extends ReportKeys {
  readonly coups: number;
  readonly bets: number;
  readonly handle: number;
  readonly paid: number;
  readonly win: number;
  /** win / handle x 100. */
  readonly holdPct: number | null;
  readonly theoWin: number;
  /** theoWin / handle x 100: the exact edge, weighted by handle. */
  readonly theoPct: number | null;
  readonly commission: number;
  readonly voidedBets: number;
  readonly correctedBets: number;
}

export interface PaceRow {
  readonly tableId: string;
  readonly gamingDay: string;
  readonly shift: string;
  readonly dealerId: string | null;
  readonly coups: number;
  readonly firstAt: string;
  readonly lastAt: string;
  readonly hours: number;
  readonly coupsPerHour: number | null;
}

export interface RatingRow {
  readonly playerId: string;
  readonly tableId: string;
  readonly gamingDay: string;
  readonly coups: number;
  readonly bets: number;
  readonly handle: number;
  /** Handle per coup played. */
  readonly averageBet: number;
  readonly win: number;
  readonly theoWin: number;
  readonly firstAt: string;
  readonly lastAt: string;
  readonly minutesPlayed: number;
}

export interface AnomalyRow {
  readonly scope: 'table' | 'player';
  readonly tableId: string | null;
  readonly playerId: string | null;
  readonly gamingDay: string;
  readonly coups: number;
  readonly handle: number;
  readonly win: number;
  readonly theoWin: number;
  /** Variance of the win (cents squared) and its square root. */
  readonly theoVar: number;
  readonly sd: number | null;
  /** (win - theoWin) / sd. */
  readonly z: number | null;
  /** |z| past the threshold. */
  readonly flagged: boolean;
}

/** A report's answer: its rows (at most `limit`; `truncated` when there were more). */
export interface Report<R> {
  readonly filter: ReportFilter;
  readonly rows: readonly R[];
  readonly truncated: boolean;
}

/** A report grouped by dimensions: the ones it was grouped by, in their order. */
export interface GroupedReport<R> extends Report<R> {
  readonly groupBy: readonly ReportDimension[];
}

export interface AnomalyReport extends Report<AnomalyRow> {
  /** The |z| past which a row is flagged. */
  readonly threshold: number;
}
