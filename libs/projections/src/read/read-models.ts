/**
 * Queries over the read-model file: what the analyst/compliance endpoints and the CLI answer with. Every answer
 * comes from the read models (indexed lookups), never from scanning events. Bad parameters throw a QueryError
 * with a stable code and the field.
 */
import type { TableState, TableView } from '@coup/table';
import {
  ACCOUNT_COUNTERS,
  type BetEntry,
  type CardEntry,
  type CorrectionEntry,
  type DerivedCell,
  type BeadCell,
  type BigRoadCell,
  HH_OPEN_BETS,
  STATS_COUNTERS,
  type StatsCounters,
  type StatsSummary,
  summarize,
} from '../read-models';
import type { Settlement } from '@coup/table';
import { type Db, openReadModelDb } from '../runner/db';

export type QueryErrorCode = 'INVALID_QUERY' | 'INVALID_CURSOR';

export class QueryError extends Error {
  constructor(
    readonly code: QueryErrorCode,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

export type Outcome = 'player' | 'banker' | 'tie';

export interface HandFilter {
  readonly shoe?: number;
  readonly roundFrom?: number;
  readonly roundTo?: number;
  /** ISO instants on the time betting opened: from inclusive, to exclusive. */
  readonly from?: string;
  readonly to?: string;
  /** An outcome, or 'void' for voided rounds. */
  readonly outcome?: Outcome | 'void';
  /** Hands where this player had stakes. */
  readonly player?: string;
  /** Default 'desc' (newest first). */
  readonly order?: 'asc' | 'desc';
}

export interface Page {
  readonly cursor?: string;
  /** 1..500, default 50. */
  readonly limit?: number;
}

export interface HandSummary {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly status: 'betting' | 'dealing' | 'resolved' | 'voided';
  readonly openedAt: string;
  readonly resolvedAt: string | null;
  readonly outcome: Outcome | null;
  readonly natural: boolean | null;
  readonly playerCards: string[];
  readonly bankerCards: string[];
  readonly playerTotal: number | null;
  readonly bankerTotal: number | null;
  readonly players: string[];
  readonly betCount: number;
  readonly totalStaked: number;
  readonly totalPaid: number;
  readonly commission: number;
  readonly houseResult: number;
  readonly dealer: string | null;
  readonly voidReason: string | null;
}

export interface HandRecord extends HandSummary {
  readonly openedBy: string;
  readonly deadline: string | null;
  readonly closedAt: string | null;
  readonly closedHow: string | null;
  readonly closedBy: string | null;
  readonly commissionMode: 'deducted' | 'box' | null;
  readonly voidedBy: string | null;
  readonly bets: BetEntry[];
  readonly cards: CardEntry[];
  readonly corrections: CorrectionEntry[];
  readonly settlements: Settlement[];
  readonly returned: { playerId: string; amount: number }[] | null;
  /** The span of events the hand covers in the table stream and its chain link in and head. */
  readonly span: {
    readonly firstPosition: number;
    readonly lastPosition: number;
    readonly firstRevision: number;
    readonly lastRevision: number;
    readonly eventCount: number;
    readonly firstPrevHash: string;
    readonly lastHash: string;
  };
  /** Where a replay starts: the hand whose stored state it folds from (this one or one up to 9 before), and its first revision. */
  readonly replayFrom: { readonly roundNo: number; readonly revision: number };
}

export interface ShoeRecordView {
  readonly tableId: string;
  readonly shoeNo: number;
  readonly dealing: 'rng' | 'live';
  readonly shuffle: 'shoe' | 'every-coup';
  readonly decks: number;
  readonly length: number;
  readonly commitment: string | null;
  readonly seed: string | null;
  readonly burnCard: string | null;
  readonly burnCount: number;
  readonly startedAt: string;
  readonly startedRevision: number;
  readonly startedPosition: number;
  readonly startedHash: string;
  readonly endedAt: string | null;
  readonly endReason: string | null;
  readonly endedRevision: number | null;
  readonly endedPosition: number | null;
  readonly endedHash: string | null;
  readonly coups: number;
  readonly voids: number;
}

export interface RoadsView {
  readonly tableId: string;
  readonly shoeNo: number;
  readonly lastShoeNo: number;
  readonly day: string | null;
  readonly coups: number;
  readonly outcomes: string;
  readonly startedAt: string;
  readonly updatedAt: string;
  readonly beadPlate: BeadCell[];
  readonly bigRoad: BigRoadCell[];
  readonly leadingTies: number;
  readonly bigEyeBoy: DerivedCell[];
  readonly smallRoad: DerivedCell[];
  readonly cockroachPig: DerivedCell[];
  /** Every road of the table (shoe numbers), newest first. */
  readonly shoes: number[];
}

export interface StatsFilter {
  readonly tableId?: string;
  /** UTC days YYYY-MM-DD, inclusive. */
  readonly from?: string;
  readonly to?: string;
}

export interface StatsView {
  readonly filter: StatsFilter;
  readonly overall: StatsSummary;
  readonly tables: (StatsSummary & {
    readonly tableId: string;
    readonly decks: number;
    readonly tiePays: number;
  })[];
  readonly days: (StatsSummary & { readonly day: string })[];
  /** Per shoe (only with a tableId). */
  readonly shoes: (StatsSummary & { readonly shoeNo: number; readonly firstDay: string })[];
}

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

export interface TableRow {
  readonly tableId: string;
  readonly view: TableView;
  readonly position: number;
  readonly revision: number;
  readonly updatedAt: string | null;
}

type Raw = Record<string, string | number | null>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function checkInt(field: string, v: number | undefined, min = 0): void {
  if (v !== undefined && (!Number.isSafeInteger(v) || v < min)) {
    throw new QueryError('INVALID_QUERY', field, `${field} must be a whole number >= ${min}`);
  }
}

function checkIso(field: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (!ISO.test(v) || Number.isNaN(Date.parse(v))) {
    throw new QueryError(
      'INVALID_QUERY',
      field,
      `${field} must be an ISO-8601 date or instant, e.g. 2025-01-31 or 2025-01-31T12:00:00Z`,
    );
  }
  return new Date(Date.parse(v)).toISOString();
}

function checkDay(field: string, v: string | undefined): void {
  if (v !== undefined && (!DAY.test(v) || Number.isNaN(Date.parse(v)))) {
    throw new QueryError('INVALID_QUERY', field, `${field} must be a UTC day, YYYY-MM-DD`);
  }
}

function limitOf(limit: number | undefined): number {
  if (limit === undefined) return 50;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 500) {
    throw new QueryError('INVALID_QUERY', 'limit', 'limit must be a whole number from 1 to 500');
  }
  return limit;
}

function encodeCursor(value: Record<string, number>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodeCursor(cursor: string | undefined, keys: readonly string[]): Record<string, number> | null {
  if (cursor === undefined) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (keys.every((k) => Number.isSafeInteger(v[k]))) return v as Record<string, number>;
  } catch {
    // fall through
  }
  throw new QueryError('INVALID_CURSOR', 'cursor', 'cursor is not one this endpoint returned');
}

const cards = (v: unknown): string[] => (typeof v === 'string' && v.length > 0 ? v.split(' ') : []);
const parse = <T>(v: unknown, fallback: T): T => (typeof v === 'string' ? (JSON.parse(v) as T) : fallback);

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
    burnCard: (r.burn_card as string | null) ?? null,
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

const statsRow = (r: Raw): StatsCounters =>
  ({
    ...Object.fromEntries(STATS_COUNTERS.map((k) => [k, Number(r[k] ?? 0)])),
    decks: Number(r.decks),
    tie_pays: Number(r.tie_pays),
  }) as StatsCounters;

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

  private hasTable(name: string): boolean {
    return (
      this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined
    );
  }

  /** The table's current view (from the table-view projection), or null. */
  table(tableId: string): TableRow | null {
    if (!this.hasTable('tv_tables')) return null;
    const r = this.db.prepare('SELECT * FROM tv_tables WHERE table_id = ?').get(tableId) as Raw | undefined;
    if (!r) return null;
    return {
      tableId,
      view: JSON.parse(String(r.view_json)) as TableView,
      position: Number(r.position),
      revision: Number(r.revision),
      updatedAt: (r.updated_at as string | null) ?? null,
    };
  }

  /**
   * Checks a hands query without running it (the same checks `hands` makes): throws `QueryError` naming the
   * parameter. Lets an edge answer a malformed query with 400 before it decides whether the caller may see the table.
   */
  checkHandsQuery(filter: HandFilter = {}, page: Page = {}): void {
    this.handsQuery(filter, page);
  }

  /** The hands query's parameters, checked: the time bounds, the page size and the decoded cursor. */
  private handsQuery(filter: HandFilter, page: Page) {
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
    const limit = limitOf(page.limit);
    const cursor = decodeCursor(page.cursor, ['r']);
    return { from, to, limit, cursor };
  }

  /** Hands of a table, filtered, newest first by default, with a cursor for the next page. */
  hands(
    tableId: string,
    filter: HandFilter = {},
    page: Page = {},
  ): { items: HandSummary[]; nextCursor: string | null } {
    const { from, to, limit, cursor } = this.handsQuery(filter, page);
    const desc = filter.order !== 'asc';
    const where = ['h.table_id = @tableId'];
    const params: Record<string, string | number> = { tableId };
    if (filter.shoe !== undefined) {
      where.push('h.shoe_no = @shoe');
      params.shoe = filter.shoe;
    }
    if (filter.roundFrom !== undefined) {
      where.push('h.round_no >= @roundFrom');
      params.roundFrom = filter.roundFrom;
    }
    if (filter.roundTo !== undefined) {
      where.push('h.round_no <= @roundTo');
      params.roundTo = filter.roundTo;
    }
    if (from !== undefined) {
      where.push('h.opened_at >= @from');
      params.from = from;
    }
    if (to !== undefined) {
      where.push('h.opened_at < @to');
      params.to = to;
    }
    if (filter.outcome === 'void') where.push("h.status = 'voided'");
    else if (filter.outcome !== undefined) {
      where.push('h.outcome = @outcome');
      params.outcome = filter.outcome;
    }
    if (filter.player !== undefined) {
      where.push(
        'EXISTS (SELECT 1 FROM hh_hand_players p WHERE p.table_id = h.table_id AND p.round_no = h.round_no AND p.player_id = @player)',
      );
      params.player = filter.player;
    }
    if (cursor) {
      where.push(desc ? 'h.round_no < @after' : 'h.round_no > @after');
      params.after = cursor.r ?? 0;
    }
    const rows = this.db
      .prepare(
        `SELECT h.* FROM hh_hands h WHERE ${where.join(' AND ')} ORDER BY h.round_no ${desc ? 'DESC' : 'ASC'} LIMIT ${limit + 1}`,
      )
      .all(params) as Raw[];
    const more = rows.length > limit;
    const items = rows.slice(0, limit).map(summaryOf);
    const last = items[items.length - 1];
    return { items, nextCursor: more && last ? encodeCursor({ r: last.roundNo }) : null };
  }

  /** One hand's record (bets, cards, settlements, span), or null. */
  hand(tableId: string, roundNo: number): HandRecord | null {
    checkInt('roundNo', roundNo, 1);
    const r = this.db
      .prepare('SELECT * FROM hh_hands WHERE table_id = ? AND round_no = ?')
      .get(tableId, roundNo) as Raw | undefined;
    if (!r) return null;
    if (r.bets_json === null && (r.status === 'betting' || r.status === 'dealing')) {
      // an open hand with many bets: they are in hh_open_bets, one row per 64 (see handHistoryStorage)
      const rows = this.db
        .prepare(
          `SELECT entries_json FROM ${HH_OPEN_BETS} WHERE table_id = ? AND round_no = ? ORDER BY chunk_no`,
        )
        .all(tableId, roundNo) as { entries_json: string }[];
      const bets: BetEntry[] = [];
      for (const row of rows) for (const b of JSON.parse(row.entries_json) as BetEntry[]) bets.push(b);
      return { ...recordOf(r), bets };
    }
    return recordOf(r);
  }

  /** The table state stored just before this hand (every 10th hand has one; see `replayFrom`), or null. */
  stateBefore(tableId: string, roundNo: number): TableState | null {
    const r = this.db
      .prepare('SELECT state_json FROM hh_hand_states WHERE table_id = ? AND round_no = ?')
      .get(tableId, roundNo) as { state_json: string } | undefined;
    return r ? (JSON.parse(r.state_json) as TableState) : null;
  }

  shoe(tableId: string, shoeNo: number): ShoeRecordView | null {
    const r = this.db
      .prepare('SELECT * FROM hh_shoes WHERE table_id = ? AND shoe_no = ?')
      .get(tableId, shoeNo) as Raw | undefined;
    return r ? shoeOf(r) : null;
  }

  /** The roads of a shoe (every-coup tables: the road holding that shoe); the latest road without `shoe`. */
  roads(tableId: string, shoe?: number): RoadsView | null {
    checkInt('shoe', shoe, 1);
    const r = (
      shoe === undefined
        ? this.db
            .prepare('SELECT * FROM rd_roads WHERE table_id = ? ORDER BY shoe_no DESC LIMIT 1')
            .get(tableId)
        : this.db
            .prepare(
              'SELECT * FROM rd_roads WHERE table_id = ? AND shoe_no <= ? AND last_shoe_no >= ? ORDER BY shoe_no DESC LIMIT 1',
            )
            .get(tableId, shoe, shoe)
    ) as Raw | undefined;
    if (!r) return null;
    const shoes = (
      this.db
        .prepare('SELECT shoe_no FROM rd_roads WHERE table_id = ? ORDER BY shoe_no DESC')
        .all(tableId) as { shoe_no: number }[]
    ).map((x) => x.shoe_no);
    return {
      tableId,
      shoeNo: Number(r.shoe_no),
      lastShoeNo: Number(r.last_shoe_no),
      day: (r.day as string | null) ?? null,
      coups: Number(r.coups),
      outcomes: String(r.outcomes),
      startedAt: String(r.started_at),
      updatedAt: String(r.updated_at),
      beadPlate: parse(r.bead_plate_json, []),
      bigRoad: parse(r.big_road_json, []),
      leadingTies: Number(r.leading_ties),
      bigEyeBoy: parse(r.big_eye_boy_json, []),
      smallRoad: parse(r.small_road_json, []),
      cockroachPig: parse(r.cockroach_pig_json, []),
      shoes,
    };
  }

  /** Statistics for a table (or all) over a range of UTC days: overall, per table, per day, per shoe. */
  stats(filter: StatsFilter = {}): StatsView {
    checkDay('from', filter.from);
    checkDay('to', filter.to);
    if (filter.tableId !== undefined && (filter.tableId.length === 0 || filter.tableId.length > 64)) {
      throw new QueryError('INVALID_QUERY', 'tableId', 'tableId must be a table id');
    }
    const where: string[] = [];
    const params: Record<string, string> = {};
    if (filter.tableId !== undefined) {
      where.push('table_id = @tableId');
      params.tableId = filter.tableId;
    }
    if (filter.from !== undefined) {
      where.push('day >= @from');
      params.from = filter.from;
    }
    if (filter.to !== undefined) {
      where.push('day <= @to');
      params.to = filter.to;
    }
    const rows = this.db
      .prepare(
        `SELECT * FROM st_daily ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY day, table_id`,
      )
      .all(params) as Raw[];
    const byTable = new Map<string, Raw[]>();
    const byDay = new Map<string, Raw[]>();
    for (const r of rows) {
      byTable.set(String(r.table_id), [...(byTable.get(String(r.table_id)) ?? []), r]);
      byDay.set(String(r.day), [...(byDay.get(String(r.day)) ?? []), r]);
    }
    let shoes: StatsView['shoes'] = [];
    if (filter.tableId !== undefined) {
      const w = ['table_id = @tableId'];
      if (filter.from !== undefined) w.push('first_day >= @from');
      if (filter.to !== undefined) w.push('first_day <= @to');
      shoes = (
        this.db
          .prepare(`SELECT * FROM st_shoes WHERE ${w.join(' AND ')} ORDER BY shoe_no`)
          .all(params) as Raw[]
      ).map((r) => ({
        shoeNo: Number(r.shoe_no),
        firstDay: String(r.first_day),
        ...summarize([statsRow(r)]),
      }));
    }
    return {
      filter,
      overall: summarize(rows.map(statsRow)),
      tables: [...byTable].map(([tableId, rs]) => ({
        tableId,
        decks: Number(rs[0]?.decks),
        tiePays: Number(rs[0]?.tie_pays),
        ...summarize(rs.map(statsRow)),
      })),
      days: [...byDay].map(([day, rs]) => ({ day, ...summarize(rs.map(statsRow)) })),
      shoes,
    };
  }

  /** A player's accounts at every table, their totals, and a page of ledger entries (oldest first). */
  ledger(playerId: string, options: { tableId?: string } & Page = {}): LedgerView {
    if (playerId.length === 0 || playerId.length > 64)
      throw new QueryError('INVALID_QUERY', 'playerId', 'playerId must be a player id');
    const limit = limitOf(options.limit);
    const cursor = decodeCursor(options.cursor, ['p', 's']);
    const accountsRaw = (
      options.tableId === undefined
        ? this.db.prepare('SELECT * FROM pl_accounts WHERE player_id = ? ORDER BY table_id').all(playerId)
        : this.db
            .prepare('SELECT * FROM pl_accounts WHERE player_id = ? AND table_id = ?')
            .all(playerId, options.tableId)
    ) as Raw[];
    const accounts = accountsRaw.map(
      (r) =>
        ({
          tableId: String(r.table_id),
          firstAt: String(r.first_at),
          ...Object.fromEntries(ACCOUNT_COUNTERS.map((k) => [k, Number(r[k] ?? 0)])),
        }) as LedgerAccount,
    );
    const totals = Object.fromEntries(
      ACCOUNT_COUNTERS.map((k) => [k, accounts.reduce((a, x) => a + x[k], 0)]),
    ) as LedgerView['totals'];
    const where = ['player_id = @playerId'];
    const params: Record<string, string | number> = { playerId };
    if (options.tableId !== undefined) {
      where.push('table_id = @tableId');
      params.tableId = options.tableId;
    }
    if (cursor) {
      where.push('(position > @p OR (position = @p AND seq > @s))');
      params.p = cursor.p ?? 0;
      params.s = cursor.s ?? 0;
    }
    const rows = this.db
      .prepare(
        `SELECT * FROM pl_entries WHERE ${where.join(' AND ')} ORDER BY position, seq LIMIT ${limit + 1}`,
      )
      .all(params) as Raw[];
    const entries: LedgerEntry[] = rows.slice(0, limit).map((r) => ({
      position: Number(r.position),
      seq: Number(r.seq),
      tableId: String(r.table_id),
      at: String(r.at),
      kind: String(r.kind),
      roundNo: r.round_no === null ? null : Number(r.round_no),
      spot: (r.spot as string | null) ?? null,
      amount: Number(r.amount),
      chipsDelta: Number(r.chips_delta),
      result: (r.result as string | null) ?? null,
      commission: Number(r.commission),
      by: (r.by as string | null) ?? null,
      role: (r.role as string | null) ?? null,
    }));
    const last = entries[entries.length - 1];
    return {
      playerId,
      accounts,
      totals,
      entries,
      nextCursor: rows.length > limit && last ? encodeCursor({ p: last.position, s: last.seq }) : null,
    };
  }
}
