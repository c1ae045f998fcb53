/**
 * Queries over the read-model file: what the analyst/compliance endpoints and the CLI answer with. Every answer
 * comes from the read models (indexed lookups), never from scanning events. Each read model's queries live in its
 * folder (`read-models/<name>/sqlite/queries.ts`, answer types in its `wire.ts`); this class opens the file and
 * serves them all. Bad parameters throw a QueryError with a stable code and the field.
 */
import type { TableState } from '@coup/table';
import * as handHistory from '../read-models/hand-history/sqlite/queries';
import type {
  HandFilter,
  HandPage,
  HandRecord,
  Page,
  ShoeRecordView,
} from '../read-models/hand-history/wire';
import { edgeNow, edgeReport } from '../read-models/edge-monitor/sqlite/queries';
import type { EdgeNowView, EdgeReport, EdgeReportFilter } from '../read-models/edge-monitor/wire';
import { ledgerOf } from '../read-models/ledger/sqlite/queries';
import type { LedgerView } from '../read-models/ledger/wire';
import { roadsOf } from '../read-models/roads/sqlite/queries';
import type { RoadsView } from '../read-models/roads/wire';
import { betStatsOf, statsOf } from '../read-models/stats/sqlite/queries';
import type { BetStatsView, StatsFilter, StatsView } from '../read-models/stats/wire';
import { tableRow } from '../read-models/table-view/sqlite/queries';
import type { TableRow } from '../read-models/table-view/wire';
import { type Db, openReadModelDb } from '../runner/db';

export { QueryError, type QueryErrorCode } from './query-kit';

export class ReadModels {
  readonly db: Db;
  private readonly owns: boolean;

  constructor(db: Db | string) {
    this.owns = typeof db === 'string';
    this.db = typeof db === 'string' ? openReadModelDb(db) : db;
  }

  close(): void {
    if (this.owns) this.db.close();
  }

  /** The table's current view (from the table-view projection), or null. */
  table(tableId: string): TableRow | null {
    return tableRow(this.db, tableId);
  }

  /** Checks a hands query without running it (see `checkHandsQuery`): throws `QueryError` naming the parameter. */
  checkHandsQuery(filter: HandFilter = {}, page: Page = {}): void {
    handHistory.checkHandsQuery(filter, page);
  }

  /** Hands of a table, filtered, newest first by default, with a cursor for the next page. */
  hands(tableId: string, filter: HandFilter = {}, page: Page = {}): HandPage {
    return handHistory.hands(this.db, tableId, filter, page);
  }

  /** One hand's record (bets, cards, settlements, span), or null. */
  hand(tableId: string, roundNo: number): HandRecord | null {
    return handHistory.hand(this.db, tableId, roundNo);
  }

  /** The table state stored just before this hand (every 10th hand has one; see `replayFrom`), or null. */
  stateBefore(tableId: string, roundNo: number): TableState | null {
    return handHistory.stateBefore(this.db, tableId, roundNo);
  }

  shoe(tableId: string, shoeNo: number): ShoeRecordView | null {
    return handHistory.shoe(this.db, tableId, shoeNo);
  }

  /** The roads of a shoe (every-coup tables: the road holding that shoe); the latest road without `shoe`. */
  roads(tableId: string, shoe?: number): RoadsView | null {
    return roadsOf(this.db, tableId, shoe);
  }

  /** Statistics for a table (or all) over a range of UTC days: overall, per table, per day, per shoe. */
  stats(filter: StatsFilter = {}): StatsView {
    return statsOf(this.db, filter);
  }

  /**
   * Statistics per bet type (every spot offered, side bets included) over a range of UTC days: overall, per
   * table, per day; each result's frequency beside its exact probability with a Wilson 95% interval, the hold
   * beside the theoretical edge.
   */
  betStats(filter: StatsFilter = {}): BetStatsView {
    return betStatsOf(this.db, filter);
  }

  /**
   * The bets that favour the player now (the edge monitor): every monitored table with one, or the one table's
   * values.
   */
  edgeNow(tableId?: string): EdgeNowView {
    return edgeNow(this.db, tableId);
  }

  /** The edge monitor's alerts (oldest first, paged), what each player wagered on them, and the totals. */
  edgeReport(filter: EdgeReportFilter = {}, page: Page = {}): EdgeReport {
    return edgeReport(this.db, filter, page);
  }

  /** A player's accounts at every table, their totals, and a page of ledger entries (oldest first). */
  ledger(playerId: string, options: { tableId?: string } & Page = {}): LedgerView {
    return ledgerOf(this.db, playerId, options);
  }
}
