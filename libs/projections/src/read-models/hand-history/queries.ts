/** The hand history's queries: hands (filters, cursor), one hand, the state a replay starts from, a shoe. */
import type { Card, TableState } from '@coup/table';
import {
  QueryError,
  type Raw,
  cards,
  checkInt,
  checkIso,
  decodeCursor,
  encodeCursor,
  limitOf,
  parse,
} from '../../read/query-kit';
import type { SqlParam, SqlReader } from '../../sql/reader';
import { HH_HAND_PLAYERS, HH_HAND_STATES, HH_HANDS, HH_OPEN_BETS, HH_SHOES } from './schema';
import type {
  BetEntry,
  HandFilter,
  HandPage,
  HandRecord,
  HandSummary,
  Outcome,
  Page,
  ShoeRecordView,
} from './wire';

function summaryOf(r: Raw): HandSummary {
  return {
    tableId: String(r.table_id),
    roundNo: Number(r.round_no),
    shoeNo: Number(r.shoe_no),
    status: r.status as HandSummary['status'],
    openedAt: String(r.opened_at),
    resolvedAt: (r.resolved_at as string | null) ?? null,
    outcome: (r.outcome as Outcome | null) ?? null,
    natural: r.natural === null ? null : r.natural === 1,
    playerCards: cards(r.player_cards),
    bankerCards: cards(r.banker_cards),
    playerTotal: (r.player_total as number | null) ?? null,
    bankerTotal: (r.banker_total as number | null) ?? null,
    players: typeof r.players === 'string' && r.players !== '' ? r.players.split(',') : [],
    betCount: Number(r.bet_count),
    totalStaked: Number(r.total_staked),
    totalPaid: Number(r.total_paid),
    commission: Number(r.commission),
    houseResult: Number(r.house_result),
    dealer: (r.dealer as string | null) ?? null,
    voidReason: (r.void_reason as string | null) ?? null,
    amended: Number(r.amendments ?? 0) > 0,
  };
}

function recordOf(r: Raw): HandRecord {
  return {
    ...summaryOf(r),
    openedBy: String(r.opened_by),
    deadline: (r.deadline as string | null) ?? null,
    closedAt: (r.closed_at as string | null) ?? null,
    closedHow: (r.closed_how as string | null) ?? null,
    closedBy: (r.closed_by as string | null) ?? null,
    commissionMode: (r.commission_mode as HandRecord['commissionMode']) ?? null,
    voidedBy: (r.voided_by as string | null) ?? null,
    bets: parse(r.bets_json, []),
    cards: parse(r.cards_json, []),
    corrections: parse(r.corrections_json, []),
    settlements: parse(r.settlements_json, []),
    returned: parse(r.returned_json, null),
    original: parse(r.original_json, null),
    amendments: parse(r.amendments_json, []),
    span: {
      firstPosition: Number(r.first_position),
      lastPosition: Number(r.last_position),
      firstRevision: Number(r.first_revision),
      lastRevision: Number(r.last_revision),
      eventCount: Number(r.event_count),
      firstPrevHash: String(r.first_prev_hash),
      lastHash: String(r.last_hash),
    },
    replayFrom: { roundNo: Number(r.replay_round), revision: Number(r.replay_revision) },
  };
}

function shoeOf(r: Raw): ShoeRecordView {
  return {
    tableId: String(r.table_id),
    shoeNo: Number(r.shoe_no),
    dealing: r.dealing as 'rng' | 'live',
    shuffle: r.shuffle as 'shoe' | 'every-coup',
    decks: Number(r.decks),
    length: Number(r.length),
    commitment: (r.commitment as string | null) ?? null,
    seed: (r.seed as string | null) ?? null,
    burnCard: (r.burn_card as Card | null) ?? null,
    burnCount: Number(r.burn_count),
    startedAt: String(r.started_at),
    startedRevision: Number(r.started_revision),
    startedPosition: Number(r.started_position),
    startedHash: String(r.started_hash),
    endedAt: (r.ended_at as string | null) ?? null,
    endReason: (r.end_reason as string | null) ?? null,
    endedRevision: r.ended_revision === null ? null : Number(r.ended_revision),
    endedPosition: r.ended_position === null ? null : Number(r.ended_position),
    endedHash: (r.ended_hash as string | null) ?? null,
    coups: Number(r.coups),
    voids: Number(r.voids),
  };
}

/**
 * Checks a hands query without running it (the same checks `hands` makes): throws `QueryError` naming the
 * parameter. Lets an edge answer a malformed query with 400 before it decides whether the caller may see the table.
 */
export function checkHandsQuery(filter: HandFilter = {}, page: Page = {}): void {
  handsQuery(filter, page);
}

/** The hands query's parameters, checked: the time bounds, the page size and the decoded cursor. */
function handsQuery(filter: HandFilter, page: Page) {
  checkInt('shoe', filter.shoe, 1);
  checkInt('roundFrom', filter.roundFrom, 1);
  checkInt('roundTo', filter.roundTo, 1);
  const from = checkIso('from', filter.from);
  const to = checkIso('to', filter.to);
  if (filter.outcome !== undefined && !['player', 'banker', 'tie', 'void'].includes(filter.outcome)) {
    throw new QueryError('INVALID_QUERY', 'outcome', 'outcome must be player, banker, tie or void');
  }
  if (filter.order !== undefined && filter.order !== 'asc' && filter.order !== 'desc') {
    throw new QueryError('INVALID_QUERY', 'order', 'order must be asc or desc');
  }
  if (filter.player !== undefined && (filter.player.length === 0 || filter.player.length > 64)) {
    throw new QueryError('INVALID_QUERY', 'player', 'player must be a player id');
  }
  if (filter.corrected !== undefined && typeof filter.corrected !== 'boolean') {
    throw new QueryError('INVALID_QUERY', 'corrected', 'corrected must be true or false');
  }
  const limit = limitOf(page.limit);
  const cursor = decodeCursor(page.cursor, ['r']);
  return { from, to, limit, cursor };
}

/** A card of the hand corrected: while it was dealt (corrections_json), or after it settled (an amendment). */
const CORRECTED = `(COALESCE(h."corrections_json", '[]') <> '[]' OR COALESCE(h."amendments_json", '[]') LIKE '%"kind":"correction"%')`;

/** The hands query's WHERE clause on hh_hands (alias `h`) and its parameters. */
function handsWhere(
  tableId: string,
  filter: HandFilter,
  q: ReturnType<typeof handsQuery>,
  desc: boolean,
): { where: string[]; params: SqlParam[] } {
  const where = ['h."table_id" = ?'];
  const params: SqlParam[] = [tableId];
  const add = (clause: string, value: string | number | undefined) => {
    if (value === undefined) return;
    where.push(clause);
    params.push(value);
  };
  add('h."shoe_no" = ?', filter.shoe);
  add('h."round_no" >= ?', filter.roundFrom);
  add('h."round_no" <= ?', filter.roundTo);
  add('h."opened_at" >= ?', q.from);
  add('h."opened_at" < ?', q.to);
  if (filter.outcome === 'void') where.push(`h."status" = 'voided'`);
  else add('h."outcome" = ?', filter.outcome);
  add(
    `EXISTS (SELECT 1 FROM "${HH_HAND_PLAYERS}" p WHERE p."table_id" = h."table_id" AND p."round_no" = h."round_no" AND p."player_id" = ?)`,
    filter.player,
  );
  if (filter.corrected !== undefined) where.push(filter.corrected ? CORRECTED : `NOT ${CORRECTED}`);
  if (q.cursor) add(desc ? 'h."round_no" < ?' : 'h."round_no" > ?', q.cursor.r ?? 0);
  return { where, params };
}

/** Hands of a table, filtered, newest first by default, with a cursor for the next page. */
export async function hands(
  sql: SqlReader,
  tableId: string,
  filter: HandFilter = {},
  page: Page = {},
): Promise<HandPage> {
  const q = handsQuery(filter, page);
  const desc = filter.order !== 'asc';
  const { where, params } = handsWhere(tableId, filter, q, desc);
  const rows = await sql.all<Raw>(
    `SELECT h.* FROM "${HH_HANDS}" h WHERE ${where.join(' AND ')} ORDER BY h."round_no" ${desc ? 'DESC' : 'ASC'} LIMIT ?`,
    [...params, q.limit + 1],
  );
  const more = rows.length > q.limit;
  const items = rows.slice(0, q.limit).map(summaryOf);
  const last = items[items.length - 1];
  return { items, nextCursor: more && last ? encodeCursor({ r: last.roundNo }) : null };
}

/** One hand's record (bets, cards, settlements, span), or null. */
export async function hand(sql: SqlReader, tableId: string, roundNo: number): Promise<HandRecord | null> {
  checkInt('roundNo', roundNo, 1);
  const r = await sql.get<Raw>(`SELECT * FROM "${HH_HANDS}" WHERE "table_id" = ? AND "round_no" = ?`, [
    tableId,
    roundNo,
  ]);
  if (!r) return null;
  if (r.bets_json === null && (r.status === 'betting' || r.status === 'dealing')) {
    // an open hand with many bets: they are in hh_open_bets, one row per 64 (see handHistoryStorage)
    const rows = await sql.all<{ entries_json: string }>(
      `SELECT "entries_json" FROM "${HH_OPEN_BETS}" WHERE "table_id" = ? AND "round_no" = ? ORDER BY "chunk_no"`,
      [tableId, roundNo],
    );
    const bets: BetEntry[] = [];
    for (const row of rows) for (const b of JSON.parse(row.entries_json) as BetEntry[]) bets.push(b);
    return { ...recordOf(r), bets };
  }
  return recordOf(r);
}

/** The table state stored just before this hand (every 10th hand has one; see `replayFrom`), or null. */
export async function stateBefore(
  sql: SqlReader,
  tableId: string,
  roundNo: number,
): Promise<TableState | null> {
  const r = await sql.get<{ state_json: string }>(
    `SELECT "state_json" FROM "${HH_HAND_STATES}" WHERE "table_id" = ? AND "round_no" = ?`,
    [tableId, roundNo],
  );
  return r ? (JSON.parse(r.state_json) as TableState) : null;
}

export async function shoe(sql: SqlReader, tableId: string, shoeNo: number): Promise<ShoeRecordView | null> {
  const r = await sql.get<Raw>(`SELECT * FROM "${HH_SHOES}" WHERE "table_id" = ? AND "shoe_no" = ?`, [
    tableId,
    shoeNo,
  ]);
  return r ? shoeOf(r) : null;
}
