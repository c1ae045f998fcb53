import { Logger } from '@nestjs/common';
import { snapshotStream, tableStream, type TableCommand, type TableState } from '@coup/table';
import { EventStoreInputError, type EventStore } from '@coup/event-store';
import { ApiError } from '../common/api-error';
import type { Metrics } from '../common/metrics';
import { decideBatch, type BatchDecision, type Outcome } from './batch';
import { SqliteKeyIndex, keyExpired, requestHashOf, type KeyIndex } from './idempotency';
import { KeyPruner, completeKeys } from './key-index-fill';
import { SessionCache } from './session-cache';
import { openSession } from './session-loader';
import { snapshotDue, writeSnapshot } from './snapshots';
import type { Pending, TableAt, TableSession } from './table-session';
import { TableTimers } from './table-timers';

export { snapshotStream, tableStream };
export type { TableAt };

const MAX_BATCH = 256;
/**
 * A batch that keeps losing the race to another process's appends is decided again up to this many times (jittered
 * backoff, at most 50 ms each: about 2.5 s in all) before the client gets 409 CONCURRENCY_CONFLICT. Two processes
 * taking a whole table's bets at once can lose many races in a row.
 */
const MAX_CONFLICT_RETRIES = 100;
const shuttingDown = () => new ApiError(503, 'SHUTTING_DOWN', 'the service is shutting down; retry shortly');

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

/** Where a batch stands after its append: recorded (answer it), to decide again, or settled (every command answered). */
type AppendStep = 'recorded' | 'retry' | 'settled';

/**
 * Runs table commands (ADR-4, ADR-14, ADR-25): load (snapshot + tail), then per batch: decide, append with the
 * expected revision, answer.
 *
 * - One true state: a table's session is only ever a fold of its stream up to a revision the store acknowledged;
 *   batches and reads run one at a time on it (`TableSession.exclusive`).
 * - Linearizable across processes: no answer, accept or refuse, comes from state older than the store's head when
 *   the command arrived. A batch that appends is accepted by the store only at the session's revision, so it was
 *   decided on the head; one that loses a race (WRONG_EXPECTED_VERSION) catches up and decides again. A batch that
 *   appends nothing, and every read, first folds what the store has after the session's revision.
 * - Idempotency: a key's first accepted answer is found in the key index (folded from the stream, complete up to the
 *   session's revision before any keyed command is decided), on any process, after any restart, for
 *   `idempotencyDays`; a batch meeting a duplicate event id is split so each command gets its own answer.
 */
export class TableProcessor {
  private readonly sessions: SessionCache;
  private readonly timers = new TableTimers();
  private readonly log = new Logger('tables');
  private readonly keys: KeyIndex;
  private readonly days: number;
  private readonly pruner: KeyPruner;
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
    this.sessions = new SessionCache(
      metrics,
      { maxSessions: options.maxSessions ?? 10_000, idleMs: options.sessionIdleMs ?? 600_000 },
      (tableId) => this.load(tableId),
    );
    this.pruner = new KeyPruner(this.keys, this.days, (error) =>
      this.log.warn({ msg: 'pruning idempotency keys failed', error: String(error.message) }),
    );
  }

  /** Decides and records one command; resolves with its answer or rejects with an ApiError. */
  execute(
    tableId: string,
    command: TableCommand,
    idempotencyKey?: string,
    correlationId?: string,
  ): Promise<unknown> {
    if (this.closing) return Promise.reject(shuttingDown());
    const key = idempotencyKey ?? null;
    // Only a keyed command is ever compared with a retry.
    const requestHash = key !== null ? requestHashOf(command) : '';
    this.inFlight++;
    const run = this.sessions.get(tableId).then(
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
    if (this.closing) throw shuttingDown();
    const session = await this.sessions.get(tableId);
    const at = await session.exclusive(async () => {
      await this.catchUp(session);
      return session.at;
    });
    this.sessions.forgetIfUnknown(session);
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
    this.timers.clear();
    this.sessions.close();
    await this.pruner.stop();
    this.keys.close();
  }

  /** Arms (or re-arms) a one-shot timer for a table; used by the betting timer. */
  setTimer(tableId: string, at: number, fire: () => void): void {
    this.timers.set(tableId, at, fire);
  }

  /** A loaded session's state and revision as they are now, without waiting or reading (for tests). */
  peek(tableId: string): TableAt | undefined {
    return this.sessions.loaded(tableId)?.at;
  }

  /** Table sessions held in memory (for tests and metrics). */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Loads a table (its snapshot, then the stream's tail). */
  private async load(tableId: string): Promise<TableSession> {
    const session = await openSession(this.store, this.keys, tableId, {
      log: this.log,
      metrics: this.metrics,
    });
    await this.catchUp(session);
    return session;
  }

  /** Folds what the store has beyond the session; tells the timer when anything changed. Answers how many. */
  private async catchUp(session: TableSession): Promise<number> {
    const folded = await session.catchUp(this.store, this.keys);
    if (folded > 0) this.options.onStateChanged?.(session.tableId, session.state);
    return folded;
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
      .then(() => this.sessions.forgetIfUnknown(session))
      .catch((error: unknown) =>
        this.log.error({
          msg: 'table lane failed',
          tableId: session.tableId,
          error: String((error as Error).message),
        }),
      );
  }

  /**
   * Decides a batch on the session's state and appends it at the session's revision, which the store accepts only
   * if nothing was appended since (ADR-25). A batch that appends nothing is answered from a state just caught up.
   */
  private async processBatch(session: TableSession, batch: Pending[]): Promise<void> {
    this.metrics.appendBatch.observe(batch.length);
    const tableId = session.tableId;
    if (!session.keysComplete && batch.some((p) => p.key !== null))
      await completeKeys(this.store, this.keys, session, this.days);
    for (let attempt = 0, caughtUp = false; ; attempt++) {
      const decision = decideBatch(tableId, session.state, batch, (key) => this.keys.get(tableId, key));
      if (decision.events.length === 0) {
        if (!caughtUp && (await this.catchUp(session)) > 0) caughtUp = true;
        else return this.answer(batch, decision.outcomes);
        continue;
      }
      const step = await this.append(session, batch, decision, attempt);
      if (step === 'recorded') this.answer(batch, decision.outcomes);
      if (step !== 'retry') return;
      caughtUp = true; // a retry follows a catch-up
    }
  }

  /** Appends the decided events at the session's revision and, once the store acknowledges them, takes them in. */
  private async append(
    session: TableSession,
    batch: Pending[],
    decision: BatchDecision,
    attempt: number,
  ): Promise<AppendStep> {
    const expected = session.revision;
    let next: bigint;
    try {
      const result = await this.store.appendToStream(tableStream(session.tableId), decision.events, {
        expectedRevision: expected < 0n ? 'no_stream' : expected,
      });
      next = result.nextExpectedRevision;
    } catch (error) {
      return this.appendFailed(session, batch, error, attempt);
    }
    if (next !== expected + BigInt(decision.events.length))
      return this.unexpectedRevision(session, batch, { expected, next }, attempt);
    this.acknowledge(session, decision, expected, next);
    return 'recorded';
  }

  /** A refused append: a lost race is decided again on the tail; anything else answers the batch. */
  private async appendFailed(
    session: TableSession,
    batch: Pending[],
    error: unknown,
    attempt: number,
  ): Promise<AppendStep> {
    if ((error as { code?: string }).code === 'WRONG_EXPECTED_VERSION' && attempt < MAX_CONFLICT_RETRIES) {
      this.metrics.conflicts.inc();
      // Another process is writing this table: back off a little (jittered, growing) so two writers do not
      // livelock, then fold the tail and decide the batch again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
      await this.catchUp(session);
      return 'retry';
    }
    if (error instanceof EventStoreInputError) {
      await this.split(session, batch, error);
      return 'settled';
    }
    this.log.error({
      msg: 'append failed',
      tableId: session.tableId,
      error: String((error as Error).message),
    });
    // The append's outcome is unknown (it may be recorded): the next batch or read folds whatever it wrote.
    for (const p of batch) p.reject(error);
    return 'settled';
  }

  /**
   * Only an append that was a no-op (its ids already recorded at that place) answers another revision than the one
   * expected: fold what the store has and decide again (the keys are then found recorded).
   */
  private async unexpectedRevision(
    session: TableSession,
    batch: Pending[],
    revisions: { readonly expected: bigint; readonly next: bigint },
    attempt: number,
  ): Promise<AppendStep> {
    this.log.warn({
      msg: 'append answered an unexpected revision',
      tableId: session.tableId,
      expected: String(revisions.expected),
      next: String(revisions.next),
    });
    if (attempt < MAX_CONFLICT_RETRIES) {
      await this.catchUp(session);
      return 'retry';
    }
    for (const p of batch)
      p.reject(new ApiError(503, 'STORE_INCONSISTENT', 'the store answered an unexpected revision; retry'));
    return 'settled';
  }

  /**
   * Takes in an acknowledged append: the session moves to the store's revision, the batch's keys are indexed (a
   * failed index write only marks the index incomplete), then the snapshot and the timer follow.
   */
  private acknowledge(session: TableSession, decision: BatchDecision, expected: bigint, next: bigint): void {
    const tableId = session.tableId;
    session.acknowledge(decision.state, next, decision.events.length);
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
    this.metrics.eventsAppended.inc(decision.events.length);
    if (snapshotDue(session, this.options.snapshotEvery, Date.now())) this.snapshot(session);
    this.options.onStateChanged?.(tableId, session.state);
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
      // Another process may have just recorded this key (a retry sent to two instances at once): its events are then
      // in the tail, and deciding again answers the first answer. Nothing new in the tail: the key is past the index.
      const before = session.revision;
      await this.catchUp(session);
      if (session.revision > before) return this.processBatch(session, [p]);
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

  /** Appends a snapshot of the session's acknowledged state in the background (a failure leaves the table as it is). */
  private snapshot(session: TableSession): void {
    session.eventsSinceSnapshot = 0;
    session.lastSnapshotAt = Date.now();
    const { tableId, state, revision } = { tableId: session.tableId, ...session.at };
    writeSnapshot(this.store, tableId, state, revision).catch((error: unknown) => {
      this.log.warn({
        msg: 'snapshot failed (the table is unaffected)',
        tableId,
        error: String((error as Error).message),
      });
    });
  }
}
