/** The edge monitor's queries: which bets favour the player now, and the analyst's report of alerts and wagers. */
import { isSpot } from '@coup/engine';
import type { Spot } from '@coup/table';
import {
  QueryError,
  type Raw,
  checkDay,
  decodeCursor,
  encodeCursor,
  hasTable,
  limitOf,
  parse,
} from '../../../read/query-kit';
import type { Db } from '../../../runner/db';
import type { Page } from '../../hand-history/wire';
import { favourable } from '../composition';
import { EM_ALERTS, EM_TABLES, EM_WAGERS } from '../schema';
import type {
  EdgeAlert,
  EdgeBetValue,
  EdgeNowView,
  EdgeReport,
  EdgeReportFilter,
  EdgeTableView,
  EdgeWager,
} from '../wire';

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
export function edgeNow(db: Db, tableId?: string): EdgeNowView {
  checkTableId(tableId);
  if (!hasTable(db, EM_TABLES)) return { tables: [] };
  const rows = (
    tableId === undefined
      ? db.prepare(`SELECT * FROM ${EM_TABLES} WHERE favourable > 0 ORDER BY table_id`).all()
      : db.prepare(`SELECT * FROM ${EM_TABLES} WHERE table_id = ?`).all(tableId)
  ) as Raw[];
  return { tables: rows.map(tableViewOf) };
}

/** The report's filter, checked, as a WHERE clause on em_alerts (alias `a`) and its parameters. */
function whereOf(filter: EdgeReportFilter): { where: string[]; params: Record<string, string> } {
  checkTableId(filter.tableId);
  checkDay('from', filter.from);
  checkDay('to', filter.to);
  if (filter.spot !== undefined && !isSpot(filter.spot)) {
    throw new QueryError('INVALID_QUERY', 'spot', 'spot must be a bet: player, banker, tie or a side bet');
  }
  const where: string[] = [];
  const params: Record<string, string> = {};
  const add = (sql: string, key: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(sql);
    params[key] = value;
  };
  add('a.table_id = @tableId', 'tableId', filter.tableId);
  add('a.day >= @from', 'from', filter.from);
  add('a.day <= @to', 'to', filter.to);
  add('a.spot = @spot', 'spot', filter.spot);
  return { where, params };
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

const EMPTY: Omit<EdgeReport, 'filter'> = {
  alerts: [],
  nextCursor: null,
  totals: { alerts: 0, bets: 0, staked: 0, paid: 0, net: 0 },
  players: [],
};

/**
 * The alerts of the filter, oldest first (by the position of the round's opening), each with what every player
 * staked on the bet in that round and its result; and over the whole filter, the totals and each player's.
 */
export function edgeReport(db: Db, filter: EdgeReportFilter = {}, page: Page = {}): EdgeReport {
  const { where, params } = whereOf(filter);
  const limit = limitOf(page.limit);
  const cursor = decodeCursor(page.cursor, ['p', 's']);
  if (!hasTable(db, EM_ALERTS)) return { filter, ...EMPTY };
  const on = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const paged = [...where];
  const pageParams: Record<string, string | number> = { ...params };
  if (cursor) {
    paged.push('(a.position > @p OR (a.position = @p AND a.seq > @s))');
    pageParams.p = cursor.p ?? 0;
    pageParams.s = cursor.s ?? 0;
  }
  const rows = db
    .prepare(
      `SELECT a.* FROM ${EM_ALERTS} a ${paged.length ? `WHERE ${paged.join(' AND ')}` : ''} ORDER BY a.position, a.seq LIMIT ${limit + 1}`,
    )
    .all(pageParams) as Raw[];
  const wagers = db.prepare(
    // a wager whose coup was voided after it settled is counted back to no bet: not listed
    `SELECT * FROM ${EM_WAGERS} WHERE table_id = ? AND round_no = ? AND spot = ? AND bets <> 0 ORDER BY player_id`,
  );
  const alerts = rows
    .slice(0, limit)
    .map((r) => alertOf(r, (wagers.all(r.table_id, r.round_no, r.spot) as Raw[]).map(wagerOf)));
  const joined = `FROM ${EM_WAGERS} w JOIN ${EM_ALERTS} a ON a.table_id = w.table_id AND a.round_no = w.round_no AND a.spot = w.spot AND w.bets <> 0 ${on}`;
  const count = db.prepare(`SELECT count(*) AS n FROM ${EM_ALERTS} a ${on}`).get(params) as Raw;
  const sums = db
    .prepare(
      `SELECT coalesce(sum(w.bets), 0) AS bets, coalesce(sum(w.staked), 0) AS staked, coalesce(sum(w.paid), 0) AS paid, coalesce(sum(w.net), 0) AS net ${joined}`,
    )
    .get(params) as Raw;
  const players = (
    db
      .prepare(
        `SELECT w.player_id, sum(w.bets) AS bets, sum(w.staked) AS staked, sum(w.paid) AS paid, sum(w.net) AS net, count(*) AS alerts ${joined} GROUP BY w.player_id ORDER BY staked DESC, w.player_id`,
      )
      .all(params) as Raw[]
  ).map((r) => ({ ...wagerOf(r), alerts: Number(r.alerts) }));
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    filter,
    alerts,
    nextCursor: last ? encodeCursor({ p: Number(last.position), s: Number(last.seq) }) : null,
    totals: {
      alerts: Number(count.n),
      bets: Number(sums.bets),
      staked: Number(sums.staked),
      paid: Number(sums.paid),
      net: Number(sums.net),
    },
    players,
  };
}
