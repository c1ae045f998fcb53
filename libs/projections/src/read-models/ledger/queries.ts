/** The ledger query: a player's accounts, totals and a page of entries. */
import {
  QueryError,
  type Raw,
  byteOrder,
  conditions,
  decodeCursor,
  encodeCursor,
  limitOf,
} from '../../read/query-kit';
import type { SqlReader } from '../../sql/reader';
import type { Page } from '../hand-history/wire';
import { ACCOUNT_COUNTERS, type AccountCounter, PL_ACCOUNTS, PL_ENTRIES } from './fold';
import type { LedgerAccount, LedgerCounters, LedgerEntry, LedgerView } from './wire';

/** Each counter column's name in the API. */
const API_NAMES: Readonly<Record<AccountCounter, keyof LedgerCounters>> = {
  buy_ins: 'buyIns',
  bought_in: 'boughtIn',
  bets: 'bets',
  staked: 'staked',
  cleared: 'cleared',
  wins: 'wins',
  losses: 'losses',
  pushes: 'pushes',
  paid: 'paid',
  net_result: 'netResult',
  commission_deducted: 'commissionDeducted',
  commission_owed: 'commissionOwed',
  commission_collected: 'commissionCollected',
  voided_returned: 'voidedReturned',
  cash_outs: 'cashOuts',
  cashed_out: 'cashedOut',
  chips: 'chips',
};

/** Which tables of a player's ledger: one (`tableId`), these (a token limited to some tables), or every table. */
interface LedgerTables {
  readonly tableId?: string;
  readonly tables?: readonly string[];
}

/** The player's rows at the tables asked for. */
const playerWhere = (playerId: string, at: LedgerTables) =>
  conditions()
    .add('"player_id" = ?', playerId)
    .add('"table_id" = ?', at.tableId)
    .among('"table_id"', at.tables);

/** A player's accounts at the tables asked for, in table order. */
async function accountsOf(sql: SqlReader, playerId: string, at: LedgerTables): Promise<LedgerAccount[]> {
  const where = playerWhere(playerId, at);
  const accountsRaw = await sql.all<Raw>(
    `SELECT * FROM "${PL_ACCOUNTS}" ${where.where()} ORDER BY ${byteOrder(sql, '"table_id"')}`,
    where.params,
  );
  return accountsRaw.map(
    (r) =>
      ({
        tableId: String(r.table_id),
        firstAt: String(r.first_at),
        ...Object.fromEntries(ACCOUNT_COUNTERS.map((k) => [API_NAMES[k], Number(r[k] ?? 0)])),
      }) as LedgerAccount,
  );
}

const entryOf = (r: Raw): LedgerEntry => ({
  position: Number(r.position),
  seq: Number(r.seq),
  tableId: String(r.table_id),
  at: String(r.at),
  kind: String(r.kind),
  roundNo: r.round_no === null ? null : Number(r.round_no),
  spot: (r.spot as string | null) ?? null,
  paytable: (r.paytable as string | null) ?? null,
  amount: Number(r.amount),
  chipsDelta: Number(r.chips_delta),
  result: (r.result as string | null) ?? null,
  commission: Number(r.commission),
  by: (r.by as string | null) ?? null,
  role: (r.role as string | null) ?? null,
  reason: (r.reason as string | null) ?? null,
});

/** Up to `limit + 1` entries of the player (at the tables asked for) after the cursor, oldest first. */
function entryRows(
  sql: SqlReader,
  playerId: string,
  at: LedgerTables,
  cursor: ReturnType<typeof decodeCursor>,
  limit: number,
): Promise<Raw[]> {
  const where = playerWhere(playerId, at);
  if (cursor) {
    const p = cursor.p ?? 0;
    where.add('("position" > ? OR ("position" = ? AND "seq" > ?))', p, p, cursor.s ?? 0);
  }
  return sql.all<Raw>(`SELECT * FROM "${PL_ENTRIES}" ${where.where()} ORDER BY "position", "seq" LIMIT ?`, [
    ...where.params,
    limit + 1,
  ]);
}

/**
 * A player's accounts at every table (or one, or those of `tables`), their totals, and a page of ledger entries
 * (oldest first).
 */
export async function ledgerOf(
  sql: SqlReader,
  playerId: string,
  options: LedgerTables & Page = {},
): Promise<LedgerView> {
  if (playerId.length === 0 || playerId.length > 64)
    throw new QueryError('INVALID_QUERY', 'playerId', 'playerId must be a player id');
  const limit = limitOf(options.limit);
  const cursor = decodeCursor(options.cursor, ['p', 's']);
  const accounts = await accountsOf(sql, playerId, options);
  const totals = Object.fromEntries(
    ACCOUNT_COUNTERS.map((k) => API_NAMES[k]).map((n) => [n, accounts.reduce((a, x) => a + x[n], 0)]),
  ) as unknown as LedgerCounters;
  const rows = await entryRows(sql, playerId, options, cursor, limit);
  const entries = rows.slice(0, limit).map(entryOf);
  const last = entries[entries.length - 1];
  return {
    playerId,
    accounts,
    totals,
    entries,
    nextCursor: rows.length > limit && last ? encodeCursor({ p: last.position, s: last.seq }) : null,
  };
}
