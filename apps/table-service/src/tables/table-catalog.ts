import { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '@coup/event-store';
import { type Db, openReadModelDb } from '@coup/projections';
import { type LogFollower, LogFollowers } from '../store/log-follower';

export interface CatalogEntry {
  readonly tableId: string;
  readonly status: 'open' | 'closed';
  readonly dealing: string | null;
  readonly openedAt: string | null;
}

export interface TableCatalogOptions {
  /**
   * The catalog's own SQLite file (e.g. `<COUP_DATA_DIR>/catalog.sqlite`): the list and the log position it is
   * true at, so a start reads only the events appended since, never the whole history. Null: fold the whole log
   * at every start.
   */
  readonly indexFile?: string | null;
  /** How often the position reached while following is saved, in ms (default 1000; always saved on stop). */
  readonly saveEveryMs?: number;
  /** Where the catalog's live follower of the log is made (its backoff, and what `/health` reads). */
  readonly followers?: LogFollowers;
}

/** The position the catalog has read to and the hash of the event there (a replaced store does not match). */
interface Mark {
  readonly position: bigint;
  readonly hash: string;
}

interface IndexRow {
  readonly table_id: string;
  readonly status: 'open' | 'closed';
  readonly dealing: string | null;
  readonly opened_at: string | null;
  readonly position: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS catalog_tables (
  table_id  TEXT    PRIMARY KEY,
  status    TEXT    NOT NULL,
  dealing   TEXT,
  opened_at TEXT,
  position  INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS catalog_position (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  position INTEGER NOT NULL,
  hash     TEXT    NOT NULL
) STRICT;
`;

/**
 * The catalog file: one row per table (with the position of the last event that changed it) and the position
 * the rows are true at. Several service processes may share it: a row or the position is only ever replaced by
 * a newer one, and each process writes its changed rows with its position in one transaction, so the rows are
 * always at least as new as the saved position.
 */
class CatalogIndex {
  private readonly upsert;
  private readonly mark;
  private readonly saveTx;

  constructor(private readonly db: Db) {
    db.exec(SCHEMA);
    this.upsert = db.prepare(
      `INSERT INTO catalog_tables (table_id, status, dealing, opened_at, position) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (table_id) DO UPDATE SET status = excluded.status, dealing = excluded.dealing,
         opened_at = excluded.opened_at, position = excluded.position
       WHERE excluded.position > catalog_tables.position`,
    );
    this.mark = db.prepare(
      `INSERT INTO catalog_position (id, position, hash) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, hash = excluded.hash
       WHERE excluded.position > catalog_position.position`,
    );
    this.saveTx = db.transaction((rows: readonly [CatalogEntry, bigint][], at: Mark) => {
      for (const [e, position] of rows) this.upsert.run(e.tableId, e.status, e.dealing, e.openedAt, position);
      this.mark.run(at.position, at.hash);
    });
  }

  /** The saved list and its position, read in one transaction (null: nothing saved yet). */
  load(): { mark: Mark; rows: IndexRow[] } | null {
    return this.db.transaction(() => {
      const mark = this.db.prepare('SELECT position, hash FROM catalog_position WHERE id = 1').get() as
        { position: number; hash: string } | undefined;
      if (!mark) return null;
      const rows = this.db.prepare('SELECT * FROM catalog_tables').all() as IndexRow[];
      return { mark: { position: BigInt(mark.position), hash: mark.hash }, rows };
    })();
  }

  save(rows: readonly [CatalogEntry, bigint][], at: Mark): void {
    this.saveTx(rows, at);
  }

  clear(): void {
    this.db.exec('DELETE FROM catalog_tables; DELETE FROM catalog_position;');
  }

  close(): void {
    this.db.close();
  }
}

/**
 * The list of tables (`GET /api/tables`, and the open tables loaded at start), folded from `TableOpened` /
 * `TableClosed` in the global log. It resumes from its own small index file (the list and the position it is
 * true at), reads only the events appended since (by this or any other process), then follows the log live,
 * so tables opened by another service process appear too; a failed subscription is made again from the last
 * event read (LogFollowers). Independent of where the projections run (worker,
 * in-process or off): it needs only the event store.
 */
export class TableCatalog {
  private readonly tables = new Map<string, CatalogEntry>();
  /** Position of the last event that changed each table. */
  private readonly changedAt = new Map<string, bigint>();
  private readonly dirty = new Set<string>();
  private last: Mark | null = null;
  private saved: bigint | null = null;
  private index: CatalogIndex | null = null;
  private follower: LogFollower | null = null;
  private saveTimer: ReturnType<typeof setInterval> | null = null;
  private readonly log = new Logger('catalog');
  /** What the last `start` read from the log (events after the saved position). */
  startStats = { resumedFrom: null as bigint | null, eventsRead: 0 };

  constructor(
    private readonly store: EventStore,
    private readonly options: TableCatalogOptions = {},
  ) {}

  private apply(e: RecordedEvent): void {
    this.last = { position: e.globalPosition, hash: e.hash };
    if (e.type === 'TableOpened') {
      const data = e.data as { tableId?: string; rules?: { dealing?: string }; at?: string };
      if (data.tableId) {
        this.set(
          {
            tableId: data.tableId,
            status: 'open',
            dealing: data.rules?.dealing ?? null,
            openedAt: data.at ?? null,
          },
          e.globalPosition,
        );
      }
    } else if (e.type === 'TableClosed') {
      const tableId = e.streamName.replace(/^table-/, '');
      const entry = this.tables.get(tableId);
      if (entry) this.set({ ...entry, status: 'closed' }, e.globalPosition);
    }
  }

  private set(entry: CatalogEntry, position: bigint): void {
    this.tables.set(entry.tableId, entry);
    this.changedAt.set(entry.tableId, position);
    this.dirty.add(entry.tableId);
  }

  /** Is the event at the saved position still the one saved (the same store, not a new or rewritten one)? */
  private async matches(mark: Mark): Promise<boolean> {
    // The saved position is an event's: read from it inclusively (positions are not contiguous in every store).
    for await (const e of this.store.readAll({ fromPosition: mark.position, inclusive: true, maxCount: 1 })) {
      return e.globalPosition === mark.position && e.hash === mark.hash;
    }
    return false;
  }

  /** Loads the saved list if it belongs to this store; returns the position to read on from. */
  private async resume(): Promise<bigint | undefined> {
    const file = this.options.indexFile;
    if (!file) return undefined;
    try {
      this.index = new CatalogIndex(openReadModelDb(file));
      const saved = this.index.load();
      if (!saved) return undefined;
      if (!(await this.matches(saved.mark))) {
        this.log.warn({ msg: 'the table catalog file is from another event store: rebuilding it', file });
        this.index.clear();
        return undefined;
      }
      for (const r of saved.rows) {
        this.tables.set(r.table_id, {
          tableId: r.table_id,
          status: r.status,
          dealing: r.dealing,
          openedAt: r.opened_at,
        });
        this.changedAt.set(r.table_id, BigInt(r.position));
      }
      this.last = saved.mark;
      this.saved = saved.mark.position;
      return saved.mark.position;
    } catch (error) {
      this.log.warn({
        msg: 'table catalog file unusable: reading the whole log',
        file,
        error: String((error as Error).message),
      });
      this.index?.close();
      this.index = null;
      this.tables.clear();
      this.changedAt.clear();
      this.last = null;
      this.saved = null;
      return undefined;
    }
  }

  /** Saves the changed rows and the position reached (no-op without a file or when nothing moved). */
  private save(): void {
    if (!this.index || !this.last || this.last.position === this.saved) return;
    const rows = [...this.dirty].map(
      (id) => [this.tables.get(id)!, this.changedAt.get(id)!] as [CatalogEntry, bigint],
    );
    try {
      this.index.save(rows, this.last);
      this.dirty.clear();
      this.saved = this.last.position;
    } catch (error) {
      this.log.warn({ msg: 'could not save the table catalog', error: String((error as Error).message) });
    }
  }

  /** Resumes from the file, reads the events since, then follows the log live. Resolves once caught up. */
  async start(): Promise<void> {
    const from = await this.resume();
    let read = 0;
    for await (const e of this.store.readAll(from === undefined ? {} : { fromPosition: from })) {
      this.apply(e);
      read += 1;
    }
    this.startStats = { resumedFrom: from ?? null, eventsRead: read };
    this.save();
    const followers = this.options.followers ?? new LogFollowers();
    this.follower = followers.follow('table-catalog', this.store, this.last?.position ?? null, (e) =>
      this.apply(e),
    );
    if (this.index) {
      this.saveTimer = setInterval(() => this.save(), this.options.saveEveryMs ?? 1000);
      this.saveTimer.unref?.();
    }
  }

  /** The position of the last event read (null before any). */
  get position(): bigint | null {
    return this.last?.position ?? null;
  }

  list(): CatalogEntry[] {
    return [...this.tables.values()].sort((a, b) => a.tableId.localeCompare(b.tableId));
  }

  openTableIds(): string[] {
    return this.list()
      .filter((t) => t.status === 'open')
      .map((t) => t.tableId);
  }

  /** Stops following and saves where it stood. */
  async stop(): Promise<void> {
    if (this.saveTimer) clearInterval(this.saveTimer);
    this.saveTimer = null;
    await this.follower?.stop();
    this.follower = null;
    this.save();
    this.index?.close();
    this.index = null;
  }
}
