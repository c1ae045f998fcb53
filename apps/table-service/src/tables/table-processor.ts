import { Logger } from '@nestjs/common';
import { snapshotStream, tableStream, type TableCommand, type TableState } from '@coup/table';
import { EventStoreInputError, type EventStore } from '@coup/event-store';
import { ApiError } from '../common/api-error';
import type { Metrics } from '../common/metrics';
import { decideBatch, type Outcome } from './batch';
import {
  SqliteKeyIndex,
  keyEntryOf,
  keyExpired,
  keyReused,
  requestHashOf,
  type KeyEntry,
  type KeyIndex,
} from './idempotency';
import { loadSnapshot, snapshotDue, snapshotEvent } from './snapshots';
import { TableSession, type Pending, type TableAt } from './table-session';

export { snapshotStream, tableStream };
export type { TableAt };

const MAX_BATCH = 256;
const MAX_CONFLICT_RETRIES = 20;
const DAY_MS = 86_400_000;
/** Keys older than the retention are pruned this often. */
const PRUNE_EVERY_MS = 3_600_000;

export interface ProcessorOptions {
  readonly snapshotEvery: number;
  /** Called with a table's state whenever it changed (after a batch, a catch-up, a load), e.g. to arm the betting timer. */
  readonly onStateChanged?: (tableId: string, state: TableState) => void;
  /** The key index's SQLite file (shared by processes on one data folder); default `:memory:` (rebuilt from the stream). */
  readonly keyIndexFile?: string;
  /** The key index itself, instead of `keyIndexFile` (tests: an index that fails on purpose). */
  readonly keyIndex?: KeyIndex;
  /** A key's first accepted answer is kept at least this many days (COUP_IDEMPOTENCY_DAYS); default 7. */
  readonly idempotencyDays?: number;
  /** Most table sessions held in memory (idle ones beyond are evicted, least recently used first); default 10,000. */
  readonly maxSessions?: number;
  /** A session unused this long is evicted (it reloads from its snapshot on next use); default 10 minutes. */
  readonly sessionIdleMs?: number;
}

interface Slot {
  readonly loading: Promise<TableSession>;
  session: TableSession | null;
}

/**
 * Runs table commands (ADR-4, ADR-14): load (snapshot + tail), then per batch: catch up with the store, decide,
 * append with the expected revision, answer.
 *
 * - One true state: a table's session is only ever a fold of its stream up to a revision the store acknowledged;
 *   batches and reads run one at a time on it (`TableSession.exclusive`).
 * - Linearizable across processes: every batch and every read first folds what the store has after the session's
 *   revision, so no answer, accept or refuse, comes from state older than the store's head when the command
 *   arrived; a write that loses a race (WRONG_EXPECTED_VERSION) catches up and decides again.
 * - Idempotency: a key's first accepted answer is found in the key index (folded from the stream, complete up to the
 *   session's revision before any keyed command is decided), on any process, after any restart, for
 *   `idempotencyDays`; a batch meeting a duplicate event id is split so each command gets its own answer.
 */
export class TableProcessor {
  private readonly slots = new Map<string, Slot>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly log = new Logger('tables');
  private readonly keys: KeyIndex;
  private readonly days: number;
  private readonly maxSessions: number;
  private readonly idleMs: number;
  private readonly sweeper: NodeJS.Timeout;
  private readonly pruner: NodeJS.Timeout;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private closing = false;

  constructor(
    private readonly store: EventStore,
    private readonly metrics: Metrics,
    private readonly options: ProcessorOptions,
  ) {
    this.keys = options.keyIndex ?? new SqliteKeyIndex(options.keyIndexFile ?? ':memory:');
    this.days = options.idempotencyDays ?? 7;
    this.maxSessions = options.maxSessions ?? 10_000;
    this.idleMs = options.sessionIdleMs ?? 600_000;
    this.sweeper = setInterval(() => this.evictIdle(Date.now()), Math.min(this.idleMs, 60_000));
    this.sweeper.unref();
    this.pruneKeys();
    this.pruner = setInterval(() => this.pruneKeys(), PRUNE_EVERY_MS);
    this.pruner.unref();
  }

  /** Decides and records one command; resolves with its answer or rejects with an ApiError. */
  execute(
    tableId: string,
    command: TableCommand,
    idempotencyKey?: string,
    correlationId?: string,
  ): Promise<unknown> {
    if (this.closing)
      return Promise.reject(
        new ApiError(503, 'SHUTTING_DOWN', 'the service is shutting down; retry shortly'),
      );
    const key = idempotencyKey ?? null;
    // Only a keyed command is ever compared with a retry.
    const requestHash = key !== null ? requestHashOf(command) : '';
    if (key !== null && this.slots.get(tableId)?.session) {
      // A key in the index is recorded in the stream: its answer is final, whatever the session holds. Only once the
      // table is loaded: loading checks that the index is not ahead of the store (a store restored from a backup).
      const seen = this.keys.get(tableId, key);
      if (seen) return seen.hash === requestHash ? Promise.resolve(seen.reply) : Promise.reject(keyReused());
    }
    this.inFlight++;
    const run = this.session(tableId).then(
      (session) =>
        new Promise<unknown>((resolve, reject) => {
          session.queue.push({
            command,
            key,
            requestHash,
            correlationId,
            enqueuedAt: process.hrtime.bigint(),
            resolve,
            reject,
          });
          this.schedule(session);
        }),
    );
    return run.finally(() => {
      if (--this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
    });
  }

  /**
   * The one way to read a table: its state and revision after folding whatever the store has beyond the session,
   * taken between batches (never mid-append). A table that does not exist reads as `initialState` at -1n and
   * leaves nothing behind in memory.
   */
  async read(tableId: string): Promise<TableAt> {
    if (this.closing) throw new ApiError(503, 'SHUTTING_DOWN', 'the service is shutting down; retry shortly');
    const session = await this.session(tableId);
    const at = await session.exclusive(async () => {
      await this.catchUp(session);
      return session.at;
    });
    this.forgetIfUnknown(session);
    return at;
  }

  /** The table's current state (see `read`). */
  async state(tableId: string): Promise<TableState> {
    return (await this.read(tableId)).state;
  }

  /** Stops taking commands and waits for those in flight. */
  async shutdown(): Promise<void> {
    if (this.closing && this.inFlight === 0) return;
    this.closing = true;
    if (this.inFlight > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    clearInterval(this.sweeper);
    clearInterval(this.pruner);
    this.keys.close();
  }

  /** Arms (or re-arms) a one-shot timer for a table; used by the betting timer. */
  setTimer(tableId: string, at: number, fire: () => void): void {
    const previous = this.timers.get(tableId);
    if (previous) clearTimeout(previous);
    const timer = setTimeout(
      () => {
        this.timers.delete(tableId);
        fire();
      },
      Math.max(0, at - Date.now()),
    );
    timer.unref?.();
    this.timers.set(tableId, timer);
  }

  /** A loaded session's state and revision as they are now, without waiting or reading (for tests). */
  peek(tableId: string): TableAt | undefined {
    return this.slots.get(tableId)?.session?.at;
  }

  /** Table sessions held in memory (for tests and metrics). */
  get sessionCount(): number {
    return this.slots.size;
  }

  private session(tableId: string): Promise<TableSession> {
    const slot = this.slots.get(tableId);
    if (slot) {
      if (slot.session) slot.session.lastUsed = Date.now();
      return slot.loading;
    }
    if (this.slots.size >= this.maxSessions) this.evictIdle(Date.now(), this.maxSessions - 1);
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

  private async load(tableId: string): Promise<TableSession> {
    const session = new TableSession(tableId);
    session.lastUsed = Date.now();
    const snapshot = await loadSnapshot(this.store, tableId, (reason, revision) => {
      this.metrics.snapshotsDiscarded.inc();
      this.log.warn({ msg: 'snapshot discarded', tableId, snapshotRevision: revision, reason });
    });
    if (snapshot) {
      session.state = snapshot.state;
      session.revision = snapshot.revision;
    }
    const watermark = this.keys.watermark(tableId);
    if (
      watermark >= 0n &&
      watermark > ((await this.store.streamHead(tableStream(tableId)))?.revision ?? -1n)
    ) {
      // The index names revisions the store does not have (the store was restored from a backup): start it again.
      this.log.warn({
        msg: 'key index ahead of the store: rebuilt from the stream',
        tableId,
        watermark: String(watermark),
      });
      this.keys.forget(tableId);
    }
    session.keysComplete = this.keys.watermark(tableId) >= session.revision;
    await this.catchUp(session);
    return session;
  }

  /** Folds what the store has beyond the session; tells the timer when anything changed. */
  private async catchUp(session: TableSession): Promise<void> {
    if ((await session.catchUp(this.store, this.keys)) > 0)
      this.options.onStateChanged?.(session.tableId, session.state);
  }

  private schedule(session: TableSession): void {
    if (session.scheduled) return;
    session.scheduled = true;
    void session
      .exclusive(async () => {
        session.scheduled = false;
        const batch = session.queue.splice(0, MAX_BATCH);
        try {
          await this.processBatch(session, batch);
        } catch (error) {
          // Never expected (processBatch answers every command); no command may wait forever.
          this.log.error({
            msg: 'batch failed',
            tableId: session.tableId,
            error: String((error as Error).message),
          });
          for (const p of batch) p.reject(error);
        }
        if (session.queue.length > 0) this.schedule(session);
      })
      .then(() => this.forgetIfUnknown(session))
      .catch((error: unknown) =>
        this.log.error({
          msg: 'table lane failed',
          tableId: session.tableId,
          error: String((error as Error).message),
        }),
      );
  }

  /**
   * Makes the key index complete up to the session's revision: the keys of the stream after the index's watermark
   * (and within the retention), read backwards from the session's revision. Runs once per session, before its first
   * keyed command, and only where the index is behind (a first start on a store, or a lost index file).
   */
  private async completeKeys(session: TableSession): Promise<void> {
    const from = this.keys.watermark(session.tableId) + 1n;
    if (from <= session.revision) {
      const cutoff = new Date(Date.now() - this.days * DAY_MS).toISOString();
      let entries: KeyEntry[] = [];
      for await (const e of this.store.readStream(tableStream(session.tableId), {
        direction: 'backwards',
        fromRevision: session.revision,
      })) {
        if (e.streamRevision < from || e.recordedAt < cutoff) break;
        const entry = keyEntryOf(e);
        if (entry) entries.push(entry);
        if (entries.length >= 1_000) {
          this.keys.record(session.tableId, entries, null);
          entries = [];
        }
      }
      this.keys.record(session.tableId, entries, session.revision);
    }
    session.keysComplete = true;
  }

  private async processBatch(session: TableSession, batch: Pending[]): Promise<void> {
    this.metrics.appendBatch.observe(batch.length);
    const tableId = session.tableId;
    await this.catchUp(session);
    if (!session.keysComplete && batch.some((p) => p.key !== null)) await this.completeKeys(session);
    for (let attempt = 0; ; attempt++) {
      const decision = decideBatch(tableId, session.state, batch, (key) => this.keys.get(tableId, key));
      const { events, outcomes } = decision;
      if (events.length > 0) {
        const expected = session.revision;
        let next: bigint;
        try {
          const result = await this.store.appendToStream(tableStream(tableId), events, {
            expectedRevision: expected < 0n ? 'no_stream' : expected,
          });
          next = result.nextExpectedRevision;
        } catch (error) {
          if (
            (error as { code?: string }).code === 'WRONG_EXPECTED_VERSION' &&
            attempt < MAX_CONFLICT_RETRIES
          ) {
            this.metrics.conflicts.inc();
            // Another process is writing this table: back off a little (jittered, growing) so two writers do not
            // livelock, then fold the tail and decide the batch again.
            await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
            await this.catchUp(session);
            continue;
          }
          if (error instanceof EventStoreInputError) return this.split(session, batch, error);
          this.log.error({ msg: 'append failed', tableId, error: String((error as Error).message) });
          // The append's outcome is unknown (it may be recorded): the next batch or read folds whatever it wrote.
          for (const p of batch) p.reject(error);
          return;
        }
        if (next !== expected + BigInt(events.length)) {
          // Only an append that was a no-op (its ids already recorded at that place) answers so: fold what the
          // store has and decide again (the keys are then found recorded).
          this.log.warn({
            msg: 'append answered an unexpected revision',
            tableId,
            expected: String(expected),
            next: String(next),
          });
          if (attempt < MAX_CONFLICT_RETRIES) {
            await this.catchUp(session);
            continue;
          }
          for (const p of batch)
            p.reject(
              new ApiError(503, 'STORE_INCONSISTENT', 'the store answered an unexpected revision; retry'),
            );
          return;
        } else {
          session.acknowledge(decision.state, next, events.length);
          const recordedAt = new Date().toISOString();
          const failed = session.indexKeys(
            this.keys,
            decision.keys.map((k) => ({
              key: k.key,
              hash: k.hash,
              reply: k.reply,
              revision: expected + 1n + BigInt(k.lastEvent),
              recordedAt,
            })),
          );
          if (failed)
            this.log.warn({
              msg: 'key index write failed (refilled from the stream)',
              tableId,
              error: failed.message,
            });
          this.metrics.eventsAppended.inc(events.length);
          if (snapshotDue(session, this.options.snapshotEvery, Date.now())) this.snapshot(session);
          this.options.onStateChanged?.(tableId, session.state);
        }
      }
      this.answer(batch, outcomes);
      return;
    }
  }

  /**
   * A batch the store refused as bad input (a duplicate event id: a key recorded longer ago than the index keeps):
   * each command alone, so one command's refusal never fails its batch-mates.
   */
  private async split(session: TableSession, batch: Pending[], error: EventStoreInputError): Promise<void> {
    if (batch.length > 1) {
      for (const p of batch) await this.processBatch(session, [p]);
      return;
    }
    const p = batch[0]!;
    if (error.code === 'DUPLICATE_EVENT_ID' && p.key !== null) {
      this.answer(batch, [{ ok: false, error: keyExpired(this.days) }]);
      return;
    }
    this.log.error({
      msg: 'append refused',
      tableId: session.tableId,
      code: error.code,
      error: error.message,
    });
    p.reject(error);
  }

  private answer(batch: readonly Pending[], outcomes: readonly Outcome[]): void {
    const now = process.hrtime.bigint();
    batch.forEach((p, i) => {
      const o = outcomes[i]!;
      this.metrics.commands.inc({ type: p.command.type, outcome: o.ok ? 'ok' : o.error.code });
      this.metrics.commandSeconds.observe({ type: p.command.type }, Number(now - p.enqueuedAt) / 1e9);
      if (o.ok) p.resolve(o.reply);
      else p.reject(o.error);
    });
  }

  /** Appends a snapshot of the session's acknowledged state, with the hash of the stream's event at its revision. */
  private snapshot(session: TableSession): void {
    session.eventsSinceSnapshot = 0;
    session.lastSnapshotAt = Date.now();
    const { tableId, state, revision } = { tableId: session.tableId, ...session.at };
    void (async () => {
      let hash: string | null = null;
      for await (const e of this.store.readStream(tableStream(tableId), {
        fromRevision: revision,
        maxCount: 1,
      }))
        if (e.streamRevision === revision) hash = e.hash;
      if (hash === null) throw new Error(`the stream has no event ${revision}`);
      await this.store.appendToStream(snapshotStream(tableId), [snapshotEvent(state, revision, hash)], {
        expectedRevision: 'any',
      });
    })().catch((error: unknown) => {
      this.log.warn({
        msg: 'snapshot failed (the table is unaffected)',
        tableId,
        error: String((error as Error).message),
      });
    });
  }

  /** A table that does not exist keeps no session once nothing waits on it. */
  private forgetIfUnknown(session: TableSession): void {
    if (session.revision >= 0n || !session.idle) return;
    const slot = this.slots.get(session.tableId);
    if (slot?.session === session) {
      this.slots.delete(session.tableId);
      this.metrics.tablesLoaded.set(this.slots.size);
    }
  }

  /** Evicts sessions idle past `idleMs`, and the least recently used idle ones beyond `keep`. */
  private evictIdle(now: number, keep = this.maxSessions): void {
    const idle: [string, TableSession][] = [];
    for (const [id, slot] of this.slots) if (slot.session?.idle) idle.push([id, slot.session]);
    idle.sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    let excess = this.slots.size - keep;
    for (const [id, s] of idle) {
      if (excess <= 0 && now - s.lastUsed < this.idleMs) break;
      this.slots.delete(id);
      excess--;
    }
    this.metrics.tablesLoaded.set(this.slots.size);
  }

  private pruneKeys(): void {
    try {
      this.keys.prune(new Date(Date.now() - this.days * DAY_MS).toISOString());
    } catch (error) {
      this.log.warn({ msg: 'pruning idempotency keys failed', error: String((error as Error).message) });
    }
  }
}
