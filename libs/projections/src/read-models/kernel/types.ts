/**
 * The shape every read model (projection) has: pure folds over the table events that produce row writes for
 * SQLite tables. No I/O here: the runner (`src/runner`) loads the state, calls `evolve`, and commits the writes
 * and the checkpoint in one transaction.
 *
 * Idempotence comes from the position: every projection state records the global position of the last event it
 * applied, and `evolve` of an event at or before that position changes nothing (see {@link once}). The runner's
 * checkpoint gives the same guarantee across batches and crashes.
 */
import type { TableEvent } from '@coup/table';

/** A value stored in a read-model column. */
export type SqlValue = string | number | null;

/** A row: column name to value. */
export type Row = Readonly<Record<string, SqlValue>>;

export interface ColumnDef {
  readonly name: string;
  readonly type: 'TEXT' | 'INTEGER' | 'REAL';
  /** What the column holds (documentation, printed in the README). */
  readonly doc: string;
}

export interface IndexDef {
  /** Short name, unique within the table (the runner derives the SQL index name). */
  readonly name: string;
  readonly columns: readonly string[];
}

/** A read-model table. Names carry the projection's prefix (its "schema"), e.g. `hh_hands`. */
export interface TableDef {
  readonly name: string;
  readonly doc: string;
  readonly columns: readonly ColumnDef[];
  readonly primaryKey: readonly string[];
  readonly indexes?: readonly IndexDef[];
  /** Store the rows in the primary key's b-tree (no rowid): for append-mostly tables read by their key. */
  readonly withoutRowid?: boolean;
  /**
   * Coalesce this table's upserts and deletes within a batch (only the last write of a row reaches SQLite): for
   * rows rewritten by many events (e.g. a shoe row). Other tables' writes are applied in order; `add` writes
   * are always summed per row.
   */
  readonly coalesce?: boolean;
  /** Columns that `add` writes increment (tables written with `add` only). */
  readonly counters?: readonly string[];
}

/**
 * A change to a read-model table:
 * - `upsert`: the row replaces the one with the same primary key (every column given; missing ones are NULL);
 * - `add`: a counter row: inserted with `row` (key columns and set-once columns) plus `add`, or, when the key
 *   exists, each `add` column is incremented by its value;
 * - `delete`: removes the row with this primary key;
 * - `update`: sets the columns of `set` on the row with the primary key of `key` (no row: nothing), the other
 *   columns kept: for a row too big to rebuild from the state (a finished hand's bets) when a later event changes
 *   some of its columns.
 */
export type Write =
  | { readonly kind: 'upsert'; readonly table: string; readonly row: Row }
  | {
      readonly kind: 'add';
      readonly table: string;
      readonly row: Row;
      readonly add: Readonly<Record<string, number>>;
    }
  | { readonly kind: 'delete'; readonly table: string; readonly key: Row }
  | { readonly kind: 'update'; readonly table: string; readonly key: Row; readonly set: Row };

/** A recorded table event as projections see it (from a `table-<tableId>` stream). */
export interface ProjectionEvent {
  /** From the stream name `table-<tableId>`. */
  readonly tableId: string;
  readonly event: TableEvent;
  /** Global position in `$all` (a safe integer). */
  readonly position: number;
  /** Revision in the table's stream (0-based). */
  readonly revision: number;
  /** When the store recorded it (ISO). Events also carry `data.at`, the command's time. */
  readonly recordedAt: string;
  readonly prevHash: string;
  readonly hash: string;
  /** Metadata `actor` ("role:id"), if any. */
  readonly actor: string | null;
  readonly commandId: string | null;
}

/** What `evolve` returns: the next state and the writes it implies. */
export interface Evolution<S> {
  readonly state: S;
  readonly writes: readonly Write[];
}

/** Every projection state knows the last position it applied. */
export interface PositionedState {
  readonly position: number;
}

/**
 * A projection: pure, keyed by table. The runner keeps one state per key (persisted as JSON in
 * `<prefix>_state`), applies events in global order, and writes, once per batch for every key whose state
 * changed, the rows of `materialize(state)` (rows that mirror the state, such as the table view).
 */
export interface ProjectionModel<S extends PositionedState = PositionedState> {
  readonly name: string;
  /** Table-name prefix: every table of this projection starts with `<prefix>_`. */
  readonly prefix: string;
  /** Bump when the tables or the fold change: the runner then rebuilds the projection from position 0. */
  readonly version: number;
  readonly description: string;
  readonly tables: readonly TableDef[];
  /**
   * The event types `evolve` can act on (default: all). The runner does not call `evolve` for other types: list
   * only when `evolve` of every other type returns the same state and no writes (MemoryProjection folds every
   * event, so the tests comparing the runner with it check the list).
   */
  readonly handles?: ReadonlySet<TableEvent['type']>;
  /** The state key of an event (the table id), or null to skip it. */
  keyOf(e: ProjectionEvent): string | null;
  initial(key: string): S;
  evolve(state: S, e: ProjectionEvent): Evolution<S>;
  materialize?(state: S): readonly Write[];
  /**
   * How the SQLite runner stores the state and its mirrored rows when they can grow without bound with the
   * events of one key (the hand history's open hand: every bet of a round). Without it, the runner writes
   * `materialize(state)` and the whole state as JSON once per batch for every key that changed: a cost that
   * grows with the state. With it, it writes `storage.materialize(state, written)` (only what changed since
   * the rows of `written`) and `storage.save(state)`; the in-memory folds (MemoryProjection) are unchanged.
   */
  readonly storage?: StateStorage<S>;
}

/**
 * A projection's SQLite storage of a state in parts (see {@link ProjectionModel.storage}). Pure, like the folds.
 * The rows of `rowsTable` for a key are part of its stored state: written in the same transactions as the
 * state row, read back with it.
 */
export interface StateStorage<S> {
  /** A table of the projection whose rows with `keyColumn` = the key are read back with the state. */
  readonly rowsTable: string;
  readonly keyColumn: string;
  /** What is stored in `<prefix>_state` (JSON): the state without what the rows hold. */
  save(state: S): unknown;
  /**
   * The state from what `save` stored (or an older shape) and the key's rows of `rowsTable` (in primary-key
   * order); `written`: the state whose rows the tables hold now (what `materialize` writes from), null when
   * that is not known (then `materialize` rewrites everything).
   */
  load(stored: unknown, rows: readonly Row[]): { readonly state: S; readonly written: S | null };
  /**
   * The writes that bring the tables from the rows of `written` (the state of the last commit; null:
   * unknown) to those of `state`. What they hold, read as the query API reads them, equals the rows of
   * `materialize(state)`.
   */
  materialize(state: S, written: S | null): readonly Write[];
  /**
   * The tables (every row of every table of the projection) as `materialize` would have written them, from
   * the tables as the runner wrote them with this storage (for tests comparing the SQLite file with a fold in
   * memory).
   */
  logical(tables: Readonly<Record<string, readonly Row[]>>): Record<string, Row[]>;
}

/** A projection of any state type (for lists of projections). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyProjection = ProjectionModel<any>;

const NOTHING: readonly Write[] = Object.freeze([]);

/** The state with no writes. */
export function only<S>(state: S): Evolution<S> {
  return { state, writes: NOTHING };
}

/**
 * Applies `f` unless the event was applied already (position at or before the state's): then the state is
 * returned unchanged with no writes. `f` returns the next state without the new position; `once` stamps it
 * when the event changed something. An event that changes nothing leaves the state as it was (same object), so
 * its position stays that of the last event that mattered, which still guards every event before it.
 */
export function once<S extends PositionedState>(
  state: S,
  e: ProjectionEvent,
  f: (state: S, e: ProjectionEvent) => Evolution<S>,
): Evolution<S> {
  if (e.position <= state.position) return only(state);
  const out = f(state, e);
  if (out.state === state && out.writes.length === 0) return out;
  // a plain copy, then the position set (every state has it: the key keeps its place): V8 clones an object
  // spread without other fields on a fast path, and builds one with them far slower
  const next: { -readonly [K in keyof S]: S[K] } = { ...out.state };
  next.position = e.position;
  return { state: next, writes: out.writes };
}

/** The key of every event: its table. */
export function byTable(e: ProjectionEvent): string {
  return e.tableId;
}

/**
 * `n` counted (`sign` 1) or counted back (-1): -n, but 0 for 0 (a negative zero would be stored and compared as
 * another value than 0).
 */
export function signed(sign: 1 | -1, n: number): number {
  return sign === 1 ? n : 0 - n;
}

/** The UTC day (YYYY-MM-DD) of an ISO instant. */
export function dayOf(iso: string): string {
  return iso.slice(0, 10);
}

/** Column helpers for table definitions. */
export const text = (name: string, doc: string): ColumnDef => ({ name, type: 'TEXT', doc });
export const int = (name: string, doc: string): ColumnDef => ({ name, type: 'INTEGER', doc });
export const real = (name: string, doc: string): ColumnDef => ({ name, type: 'REAL', doc });
