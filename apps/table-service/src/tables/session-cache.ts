import type { Metrics } from '../common/metrics';
import type { TableSession } from './table-session';

interface Slot {
  readonly loading: Promise<TableSession>;
  session: TableSession | null;
}

export interface SessionCacheOptions {
  /** Most sessions held (idle ones beyond are evicted, least recently used first). */
  readonly maxSessions: number;
  /** A session unused this long is evicted. */
  readonly idleMs: number;
}

/**
 * The table sessions held in memory (ADR-14): one per table, loaded once however many callers ask at the same time,
 * bounded by count and idleness. A table that does not exist keeps none once nothing waits on it.
 */
export class SessionCache {
  private readonly slots = new Map<string, Slot>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly metrics: Metrics,
    private readonly options: SessionCacheOptions,
    private readonly load: (tableId: string) => Promise<TableSession>,
  ) {
    this.sweeper = setInterval(() => this.evictIdle(Date.now()), Math.min(options.idleMs, 60_000));
    this.sweeper.unref();
  }

  /** Sessions held (for tests and metrics). */
  get size(): number {
    return this.slots.size;
  }

  /** The table's session if it is loaded, without loading it. */
  loaded(tableId: string): TableSession | null {
    return this.slots.get(tableId)?.session ?? null;
  }

  /** The table's session, loaded on first use (one load however many callers wait on it). */
  get(tableId: string): Promise<TableSession> {
    const slot = this.slots.get(tableId);
    if (slot) {
      if (slot.session) slot.session.lastUsed = Date.now();
      return slot.loading;
    }
    if (this.slots.size >= this.options.maxSessions) this.evictIdle(Date.now(), this.options.maxSessions - 1);
    const loading = this.load(tableId);
    const created: Slot = { loading, session: null };
    this.slots.set(tableId, created);
    loading.then(
      (s) => {
        created.session = s;
        this.metrics.tablesLoaded.set(this.slots.size);
      },
      () => {
        if (this.slots.get(tableId) === created) this.slots.delete(tableId);
      },
    );
    return loading;
  }

  /** A table that does not exist keeps no session once nothing waits on it. */
  forgetIfUnknown(session: TableSession): void {
    if (session.revision >= 0n || !session.idle) return;
    const slot = this.slots.get(session.tableId);
    if (slot?.session === session) {
      this.slots.delete(session.tableId);
      this.metrics.tablesLoaded.set(this.slots.size);
    }
  }

  /** Evicts sessions idle past `idleMs`, and the least recently used idle ones beyond `keep`. */
  evictIdle(now: number, keep = this.options.maxSessions): void {
    const idle: [string, TableSession][] = [];
    for (const [id, slot] of this.slots) if (slot.session?.idle) idle.push([id, slot.session]);
    idle.sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    let excess = this.slots.size - keep;
    for (const [id, s] of idle) {
      if (excess <= 0 && now - s.lastUsed < this.options.idleMs) break;
      this.slots.delete(id);
      excess--;
    }
    this.metrics.tablesLoaded.set(this.slots.size);
  }

  /** Stops the idle sweep. */
  close(): void {
    clearInterval(this.sweeper);
  }
}
