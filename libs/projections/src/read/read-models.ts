/**
 * Queries over the read models: what the analyst/compliance endpoints and the CLI answer with. Every answer
 * comes from the read models (indexed lookups), never from scanning events. Each read model's queries live in its
 * folder (`read-models/<name>/queries.ts`, answer types in its `wire.ts`), written once for SQLite and
 * PostgreSQL; this class serves them all over one `SqlReader`. Bad parameters throw a QueryError with a stable
 * code and the field.
 */
import type { TableState } from '@coup/table';
import { Pool } from 'pg';
import * as handHistory from '../read-models/hand-history/queries';
import type {
  HandFilter,
  HandPage,
  HandRecord,
  Page,
  ShoeRecordView,
} from '../read-models/hand-history/wire';
import { edgeNow, edgeReport } from '../read-models/edge-monitor/queries';
import type { EdgeNowView, EdgeReport, EdgeReportFilter } from '../read-models/edge-monitor/wire';
import { ledgerOf } from '../read-models/ledger/queries';
import type { LedgerView } from '../read-models/ledger/wire';
import { roadsOf } from '../read-models/roads/queries';
import type { RoadsView } from '../read-models/roads/wire';
import type { StatsOptions } from '../read-models/stats/filter';
import { betStatsOf, statsOf } from '../read-models/stats/queries';
import type { BetStatsView, StatsFilter, StatsView } from '../read-models/stats/wire';
import { tableRow } from '../read-models/table-view/queries';
import type { TableRow } from '../read-models/table-view/wire';
import { type Db, openReadModelDb } from '../runner/db';
import { pgTypes, postgresReader, type SqlReader, sqliteReader } from '../sql/reader';

export { QueryError, type QueryErrorCode } from './query-kit';

/** Whether a read-model target names a PostgreSQL database (`postgres://` or `postgresql://`), not a file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

export interface OpenReadModelsOptions {
  /**
   * PostgreSQL: called when an idle pooled connection fails (the server restarted, the network dropped). The
   * pool replaces it; the next query connects again. Default: ignored.
   */
  readonly onPoolError?: (error: Error) => void;
  /** PostgreSQL: most connections the pool holds (default 10). */
  readonly maxConnections?: number;
}

export class ReadModels {
  /** Create with a reader over the read models; `onClose` is what `close()` releases (nothing by default). */
  constructor(
    readonly sql: SqlReader,
    private readonly onClose: () => void | Promise<void> = () => undefined,
  ) {}

  /**
   * Over the SQLite read models: an open connection (the runner's: left open by `close()`), or a file, opened
   * (and created, as the runner does) here and closed by `close()`.
   */
  static sqlite(db: Db | string): ReadModels {
    if (typeof db !== 'string') return new ReadModels(sqliteReader(db));
    const opened = openReadModelDb(db);
    return new ReadModels(sqliteReader(opened), () => {
      opened.close();
    });
  }

  /**
   * Opens the read models at `target`: a `postgres://` or `postgresql://` URL (a pool, integers and sums read as
   * numbers as SQLite gives them; it connects on the first query), or else the path of a SQLite file. `close()`
   * ends the pool or closes the file.
   */
  static async open(target: string, options: OpenReadModelsOptions = {}): Promise<ReadModels> {
    if (!isPostgresUrl(target)) return ReadModels.sqlite(target);
    const pool = new Pool({
      connectionString: target,
      types: pgTypes,
      ...(options.maxConnections !== undefined ? { max: options.maxConnections } : {}),
    });
    // An idle client's error is emitted on the pool: unhandled, it would end the process.
    pool.on('error', (error) => options.onPoolError?.(error));
    return new ReadModels(postgresReader(pool), () => pool.end());
  }

  async close(): Promise<void> {
    await this.onClose();
  }

  /** The table's current view (from the table-view projection), or null. */
  table(tableId: string): Promise<TableRow | null> {
    return tableRow(this.sql, tableId);
  }

  /** Checks a hands query without running it (see `checkHandsQuery`): throws `QueryError` naming the parameter. */
  checkHandsQuery(filter: HandFilter = {}, page: Page = {}): void {
    handHistory.checkHandsQuery(filter, page);
  }

  /** Hands of a table, filtered, newest first by default, with a cursor for the next page. */
  hands(tableId: string, filter: HandFilter = {}, page: Page = {}): Promise<HandPage> {
    return handHistory.hands(this.sql, tableId, filter, page);
  }

  /** One hand's record (bets, cards, settlements, span), or null. */
  hand(tableId: string, roundNo: number): Promise<HandRecord | null> {
    return handHistory.hand(this.sql, tableId, roundNo);
  }

  /** The table state stored just before this hand (every 10th hand has one; see `replayFrom`), or null. */
  stateBefore(tableId: string, roundNo: number): Promise<TableState | null> {
    return handHistory.stateBefore(this.sql, tableId, roundNo);
  }

  shoe(tableId: string, shoeNo: number): Promise<ShoeRecordView | null> {
    return handHistory.shoe(this.sql, tableId, shoeNo);
  }

  /** The roads of a shoe (every-coup tables: the road holding that shoe); the latest road without `shoe`. */
  roads(tableId: string, shoe?: number): Promise<RoadsView | null> {
    return roadsOf(this.sql, tableId, shoe);
  }

  /**
   * Statistics for a table (or all): overall, per table, per day, per shoe; over UTC days (the per-day counters),
   * or by gaming day from the analysts' facts with a gaming-day filter (`options.shifts`: the configured shifts).
   */
  stats(filter: StatsFilter = {}, options: StatsOptions = {}): Promise<StatsView> {
    return statsOf(this.sql, filter, options);
  }

  /**
   * Statistics per bet type (every spot offered, side bets included), filtered as `stats`: overall, per table,
   * per day; each result's frequency beside its exact probability with a Wilson 95% interval, the hold beside
   * the theoretical edge.
   */
  betStats(filter: StatsFilter = {}, options: StatsOptions = {}): Promise<BetStatsView> {
    return betStatsOf(this.sql, filter, options);
  }

  /**
   * The bets that favour the player now (the edge monitor): every monitored table with one, or the one table's
   * values.
   */
  edgeNow(tableId?: string): Promise<EdgeNowView> {
    return edgeNow(this.sql, tableId);
  }

  /** The edge monitor's alerts (oldest first, paged), what each player wagered on them, and the totals. */
  edgeReport(filter: EdgeReportFilter = {}, page: Page = {}): Promise<EdgeReport> {
    return edgeReport(this.sql, filter, page);
  }

  /**
   * A player's accounts at every table (or one, or only those of `tables`: a token's), their totals, and a page
   * of ledger entries (oldest first).
   */
  ledger(
    playerId: string,
    options: { tableId?: string; tables?: readonly string[] } & Page = {},
  ): Promise<LedgerView> {
    return ledgerOf(this.sql, playerId, options);
  }
}
