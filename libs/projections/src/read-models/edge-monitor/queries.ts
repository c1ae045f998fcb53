/** The edge monitor's queries: which bets favour the player now, and the analyst's report of alerts and wagers. */
import { isSpot } from '@coup/engine';
import type { Spot } from '@coup/table';
import {
  type Conditions,
  QueryError,
  type Raw,
  byteOrder,
  checkDay,
  conditions,
  decodeCursor,
  encodeCursor,
  limitOf,
  parse,
} from '../../read/query-kit';
import type { SqlReader } from '../../sql/reader';
import type { Page } from '../hand-history/wire';
import { favourable } from './composition';
import { EM_ALERTS, EM_TABLES, EM_WAGERS } from './schema';
import type {
  EdgeAlert,
  EdgeBetValue,
  EdgeNowView,
  EdgeReport,
  EdgeReportFilter,
  EdgeTableView,
  EdgeWager,
} from './wire';

function checkTableId(tableId: string | undefined): void {
  if (tableId !== undefined && (tableId.length === 0 || tableId.length > 64)) {
    throw new QueryError('INVALID_QUERY', 'tableId', 'tableId must be a table id');
  }
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function tableViewOf(r: Raw): EdgeTableView {
  const values = parse<EdgeBetValue[]>(r.values_json, []);
  return {
    tableId: String(r.table_id),
    shoeNo: num(r.shoe_no),
    roundNo: num(r.round_no),
    coupInShoe: num(r.coup_in_shoe),
    cardsSeen: num(r.cards_seen),
    cardsLeft: num(r.cards_left),
    computedAt: (r.computed_at as string | null) ?? null,
    position: num(r.position),
    favourable: values.filter(favourable),
    values,
  };
}

/**
 * The bets that favour the player now: every monitored table with one (no `tableId`), or the one table's values
 * whatever they are (an empty list if it is not monitored: not a shoe game with side bets).
 */
export async function edgeNow(sql: SqlReader, tableId?: string): Promise<EdgeNowView> {
  checkTableId(tableId);
  const rows =
    tableId === undefined
      ? await sql.all<Raw>(
          `SELECT * FROM "${EM_TABLES}" WHERE "favourable" > 0 ORDER BY ${byteOrder(sql, '"table_id"')}`,
        )
      : await sql.all<Raw>(`SELECT * FROM "${EM_TABLES}" WHERE "table_id" = ?`, [tableId]);
  return { tables: rows.map(tableViewOf) };
}

/** The report's filter, checked, as a WHERE clause on em_alerts (alias `a`) and its parameters. */
function whereOf(filter: EdgeReportFilter): Conditions {
  checkTableId(filter.tableId);
  checkDay('from', filter.from);
  checkDay('to', filter.to);
  if (filter.spot !== undefined && !isSpot(filter.spot)) {
    throw new QueryError('INVALID_QUERY', 'spot', 'spot must be a bet: player, banker, tie or a side bet');
  }
  return conditions()
    .add('a."table_id" = ?', filter.tableId)
    .among('a."table_id"', filter.tables)
    .add('a."day" >= ?', filter.from)
    .add('a."day" <= ?', filter.to)
    .add('a."spot" = ?', filter.spot);
}

const wagerOf = (r: Raw): EdgeWager => ({
  playerId: String(r.player_id),
  bets: Number(r.bets),
  staked: Number(r.staked),
  paid: Number(r.paid),
  net: Number(r.net),
});

function alertOf(r: Raw, players: EdgeWager[]): EdgeAlert {
  const sum = (k: 'bets' | 'staked' | 'paid' | 'net') => players.reduce((a, p) => a + p[k], 0);
  return {
    tableId: String(r.table_id),
    roundNo: Number(r.round_no),
    shoeNo: Number(r.shoe_no),
    coupInShoe: Number(r.coup_in_shoe),
    cardsSeen: Number(r.cards_seen),
    cardsLeft: Number(r.cards_left),
    spot: String(r.spot) as Spot,
    paytable: (r.paytable as string | null) ?? null,
    ev: Number(r.ev),
    evExact: String(r.ev_exact),
    winProbability: Number(r.win_probability),
    computedAt: String(r.computed_at),
    openedAt: String(r.opened_at),
    position: Number(r.position),
    wagered: { bets: sum('bets'), staked: sum('staked'), paid: sum('paid'), net: sum('net') },
    players,
  };
}

/** A page of the filter's alerts after the cursor, oldest first: up to `limit + 1` rows. */
function alertRows(
  sql: SqlReader,
  filter: Conditions,
  cursor: ReturnType<typeof decodeCursor>,
  limit: number,
): Promise<Raw[]> {
  const paged = conditions(filter);
  if (cursor) {
    const p = cursor.p ?? 0;
    paged.add('(a."position" > ? OR (a."position" = ? AND a."seq" > ?))', p, p, cursor.s ?? 0);
  }
  return sql.all<Raw>(
    `SELECT a.* FROM "${EM_ALERTS}" a ${paged.where()} ORDER BY a."position", a."seq" LIMIT ?`,
    [...paged.params, limit + 1],
  );
}

const alertKey = (r: Raw): string => JSON.stringify([r.table_id, Number(r.round_no), r.spot]);

/** The wagers on these alerts' bets (one query), each alert's by player id. */
async function wagersOf(sql: SqlReader, alerts: readonly Raw[]): Promise<Map<string, EdgeWager[]>> {
  const out = new Map<string, EdgeWager[]>();
  if (alerts.length === 0) return out;
  const params = alerts.flatMap((r) => [r.table_id ?? null, r.round_no ?? null, r.spot ?? null]);
  const which = alerts.map(() => '("table_id" = ? AND "round_no" = ? AND "spot" = ?)').join(' OR ');
  // a wager whose coup was voided after it settled is counted back to no bet: not listed
  const rows = await sql.all<Raw>(
    `SELECT * FROM "${EM_WAGERS}" WHERE (${which}) AND "bets" <> 0 ORDER BY ${byteOrder(sql, '"player_id"')}`,
    params,
  );
  for (const r of rows) {
    const key = alertKey(r);
    const list = out.get(key);
    if (list) list.push(wagerOf(r));
    else out.set(key, [wagerOf(r)]);
  }
  return out;
}

/** Over every alert of the filter: their count, the wagers' sums, and each player's (most staked first). */
async function reportTotals(sql: SqlReader, filter: Conditions) {
  const on = filter.where();
  const params = filter.params;
  const joined = `FROM "${EM_WAGERS}" w JOIN "${EM_ALERTS}" a ON a."table_id" = w."table_id" AND a."round_no" = w."round_no" AND a."spot" = w."spot" AND w."bets" <> 0 ${on}`;
  const count = (await sql.get<Raw>(`SELECT count(*) AS n FROM "${EM_ALERTS}" a ${on}`, params)) as Raw;
  const sums = (await sql.get<Raw>(
    `SELECT coalesce(sum(w."bets"), 0) AS bets, coalesce(sum(w."staked"), 0) AS staked, coalesce(sum(w."paid"), 0) AS paid, coalesce(sum(w."net"), 0) AS net ${joined}`,
    params,
  )) as Raw;
  const players = (
    await sql.all<Raw>(
      `SELECT w."player_id", sum(w."bets") AS bets, sum(w."staked") AS staked, sum(w."paid") AS paid, sum(w."net") AS net, count(*) AS alerts ${joined} GROUP BY w."player_id" ORDER BY staked DESC, ${byteOrder(sql, 'w."player_id"')}`,
      params,
    )
  ).map((r) => ({ ...wagerOf(r), alerts: Number(r.alerts) }));
  const totals = {
    alerts: Number(count.n),
    bets: Number(sums.bets),
    staked: Number(sums.staked),
    paid: Number(sums.paid),
    net: Number(sums.net),
  };
  return { totals, players };
}

/**
 * The alerts of the filter, oldest first (by the position of the round's opening), each with what every player
 * staked on the bet in that round and its result; and over the whole filter, the totals and each player's.
 */
export async function edgeReport(
  sql: SqlReader,
  filter: EdgeReportFilter = {},
  page: Page = {},
): Promise<EdgeReport> {
  const where = whereOf(filter);
  const limit = limitOf(page.limit);
  const cursor = decodeCursor(page.cursor, ['p', 's']);
  const rows = await alertRows(sql, where, cursor, limit);
  const shown = rows.slice(0, limit);
  const wagers = await wagersOf(sql, shown);
  const alerts = shown.map((r) => alertOf(r, wagers.get(alertKey(r)) ?? []));
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    filter,
    alerts,
    nextCursor: last ? encodeCursor({ p: Number(last.position), s: Number(last.seq) }) : null,
    ...(await reportTotals(sql, where)),
  };
}
