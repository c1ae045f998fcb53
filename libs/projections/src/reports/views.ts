/**
 * The analysts' reports as SQL views over the an_ tables, the same SQL in SQLite and PostgreSQL (sql.ts). The live
 * read models have them (runner/report-views.ts: made with the analysts' tables, and by a rebuild's swap in its
 * transaction), for analysts' own SQL tools. The service's REST reports do not read them: they run the same SQL,
 * filtered, as subqueries.
 */
import { ident } from '../sql/dialect';
import { NO_FILTER, anomaliesSql, betTypeSql, holdSql, paceSql, ratingSql } from './sql';

/** The projection whose tables the views read (a swap of its tables drops and makes the views again). */
export const REPORT_VIEWS_PROJECTION = 'analyst';

export interface ReportView {
  readonly name: string;
  /** What a row is, for the documentation. */
  readonly doc: string;
  /** The view's query (no ORDER BY: order in the query that reads it). */
  readonly sql: string;
}

export const REPORT_VIEWS: readonly ReportView[] = [
  {
    name: 'an_report_hold',
    doc: 'Per table, gaming day, shift and dealer: coups, drop, cash paid out, handle, actual win, hold % (of the drop and of the handle), theoretical win and its % of the handle, commission, voids and corrections.',
    sql: holdSql(['table', 'gamingDay', 'shift', 'dealer'], NO_FILTER, null),
  },
  {
    name: 'an_report_bet_types',
    doc: 'Per table, gaming day, shift, dealer and bet type: coups and stakes, handle, paid, actual win and hold % of the handle, theoretical win and its %, commission, stakes voided and corrected.',
    sql: betTypeSql(['table', 'gamingDay', 'shift', 'dealer', 'betType'], NO_FILTER, null),
  },
  {
    name: 'an_report_dealer_pace',
    doc: 'Per table, gaming day, shift and dealer: coups dealt, the first opening and last settling, hours, coups per hour.',
    sql: paceSql(NO_FILTER, null),
  },
  {
    name: 'an_report_player_rating',
    doc: 'Per player, table and gaming day: coups, stakes, handle, average bet per coup, actual and theoretical win, minutes played.',
    sql: ratingSql(NO_FILTER, null),
  },
  {
    name: 'an_report_anomalies',
    doc: "Per table and gaming day (scope 'table') and per player and gaming day (scope 'player'): actual against theoretical win, its standard deviation and z-score.",
    sql: anomaliesSql({ table: NO_FILTER, player: NO_FILTER }, null),
  },
];

/** CREATE VIEW statements of every report (replacing any of the same name); the SQL is the same in both dialects. */
export function createViewStatements(): string[] {
  return REPORT_VIEWS.flatMap((v) => [
    `DROP VIEW IF EXISTS ${ident(v.name)}`,
    `CREATE VIEW ${ident(v.name)} AS ${v.sql}`,
  ]);
}

/** DROP VIEW statements of every report. */
export function dropViewStatements(): string[] {
  return REPORT_VIEWS.map((v) => `DROP VIEW IF EXISTS ${ident(v.name)}`);
}

/** Every report view is named so: a view of an older release (renamed or removed since) is dropped by its prefix. */
export const REPORT_VIEW_PREFIX = 'an_report_';
const PREFIX_LIKE = `'${REPORT_VIEW_PREFIX.replace(/_/g, '\\_')}%'`;

/**
 * PostgreSQL: one statement dropping every view of the current schema named with the report prefix, today's and
 * older releases' alike (an old one left would hold the tables a swap or a new version drops).
 */
export const DROP_EVERY_REPORT_VIEW_PG =
  'DO $$ DECLARE v text; BEGIN ' +
  `FOR v IN SELECT viewname FROM pg_views WHERE schemaname = current_schema() AND viewname LIKE ${PREFIX_LIKE} LOOP ` +
  "EXECUTE 'DROP VIEW IF EXISTS ' || quote_ident(v); END LOOP; END $$";

/** SQLite: the query of every view named with the report prefix (SQLite cannot loop in SQL). */
export const REPORT_VIEW_NAMES_SQLITE = `SELECT name FROM sqlite_master WHERE type = 'view' AND name LIKE ${PREFIX_LIKE} ESCAPE '\\'`;

/** Creates the views with `run` (a statement at a time: better-sqlite3's exec, pg's query). */
export async function createReportViews(run: (sql: string) => unknown): Promise<void> {
  for (const sql of createViewStatements()) await run(sql);
}

/** Drops the views (before the tables they read are dropped or swapped). */
export async function dropReportViews(run: (sql: string) => unknown): Promise<void> {
  for (const sql of dropViewStatements()) await run(sql);
}
