/**
 * The projection runner: subscribes to the store's `$all` from the lowest projection checkpoint, batches the
 * events (a batch ends when the subscription has nothing more at once, or at `maxBatch` events) and commits
 * each batch through the read-model storage (writes + checkpoints in one transaction; SQLite or PostgreSQL).
 * Failures are retried with backoff from the stored checkpoints; a rebuild by another process (the CLI) is
 * noticed at the next commit and resumed from.
 */
import type { EventStore, RecordedEvent, Subscription } from '@coup/event-store';
import { PROJECTIONS } from '../read-models';
import type { AnyProjection } from '../read-models/kernel/types';
import { CheckpointMovedError } from './batch-folder';
import type { CheckpointRow, Db } from './db';
import { openReadModelStorage } from './open-storage';
import { ensureWithReportViews } from './report-views';
import { SqliteReadModelStorage } from './sqlite-storage';
import { type RunnerStatus, scanHead, statusOf } from './status';
import type { ReadModelStorage } from './storage';
import { StorageEngine } from './storage-engine';

export { type KnownHead, type ProjectionStatus, type RunnerStatus, readStatus, scanHead } from './status';

export interface RunnerLogger {
  info(msg: Record<string, unknown>): void;
  warn(msg: Record<string, unknown>): void;
  error(msg: Record<string, unknown>): void;
}

const silent: RunnerLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export interface ProjectionRunnerOptions {
  readonly store: EventStore;
  /**
   * Where the read models are: a SQLite file, an open SQLite connection, or a `postgres://` URL (opened with
   * `openReadModelStorage`, closed with the runner). Or give `storage`.
   */
  readonly readModels?: string | Db;
  /** An open storage (left open by `close`): instead of `readModels`. */
  readonly storage?: ReadModelStorage;
  /** Which projections (default: all). */
  readonly projections?: readonly AnyProjection[];
  /** Most events per transaction. Default 2000. */
  readonly maxBatch?: number;
  /**
   * Live, at most one commit per this many milliseconds (default 0: a commit whenever no more events are at hand).
   * An event after a quiet spell is still committed at once; under sustained load the events of the interval go
   * into one transaction, so what a commit costs whatever its size (the checkpoints, the rows mirroring a state)
   * is paid once per interval instead of once per poll. The read models then lag by up to the interval.
   */
  readonly minCommitIntervalMs?: number;
  /** Events per readAll page (and transaction) in `catchUp`. Default 1000. */
  readonly catchUpPage?: number;
  readonly logger?: RunnerLogger;
  /**
   * The store's last global position, for lag, in a store whose positions count its events (SQLite, memory): the
   * lag is then head - checkpoint. Default (and for EventStoreDB, whose positions are byte offsets): the events
   * after the lowest checkpoint are read and counted (at most 100,000; beyond that the lag is a lower bound).
   */
  readonly headPosition?: () => Promise<bigint | null>;
}

export class ProjectionRunner {
  /** Where the read models are written. */
  readonly storage: ReadModelStorage;
  readonly engine: StorageEngine;
  private readonly ownsStorage: boolean;
  private readonly store: EventStore;
  private readonly logger: RunnerLogger;
  private readonly maxBatch: number;
  private readonly minCommitIntervalMs: number;
  private readonly catchUpPage: number;
  /** The storage's tables exist and the engine has read the checkpoints. */
  private prepared: Promise<void>;
  private running = false;
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private subscription: Subscription | null = null;
  private wakeSleep: (() => void) | null = null;
  private waiters: { position: number; resolve: () => void }[] = [];
  private lastError: string | null = null;

  constructor(private readonly options: ProjectionRunnerOptions) {
    this.store = options.store;
    this.ownsStorage = options.storage === undefined;
    if (options.storage === undefined && options.readModels === undefined)
      throw new Error('ProjectionRunner: give readModels or storage');
    this.storage = options.storage ?? openReadModelStorage(options.readModels as string | Db);
    this.logger = options.logger ?? silent;
    this.maxBatch = options.maxBatch ?? 2000;
    this.minCommitIntervalMs = options.minCommitIntervalMs ?? 0;
    this.catchUpPage = options.catchUpPage ?? 1000;
    const projections = options.projections ?? PROJECTIONS;
    const storage = this.storage;
    if (storage instanceof SqliteReadModelStorage) {
      // A live commit's multi-row upserts keep their statement journals (each at most one statement's undo) in
      // memory: on disk they spill past 64 KiB into a temporary file, written page by page on every commit. Only
      // on a connection the runner opened: a rebuild's CREATE INDEX on another connection keeps sorting on disk
      // (with temp_store = MEMORY SQLite sorts a whole index in memory).
      if (typeof options.readModels === 'string') storage.db.pragma('temp_store = MEMORY');
      // SQLite answers at once: the tables and checkpoints are there when the constructor returns
      storage.ensureNow(projections);
      this.engine = new StorageEngine({ projections, live: storage.live(projections) });
      this.prepared = Promise.resolve();
    } else {
      this.engine = new StorageEngine({ projections, live: storage.live(projections) });
      this.prepared = this.prepare();
    }
  }

  /**
   * Creates the tables (and the report views) and reads the checkpoints (an asynchronous storage); the loop tries
   * again on failure.
   */
  private prepare(): Promise<void> {
    const projections = this.engine.projections;
    const prepared = ensureWithReportViews(this.storage, projections).then(() => this.engine.reset());
    prepared.catch(() => undefined); // reported by whoever awaits it
    return prepared;
  }

  /** The SQLite read-model connection (a runner on SQLite only; on PostgreSQL use `storage`). */
  get db(): Db {
    if (this.storage instanceof SqliteReadModelStorage) return this.storage.db;
    throw new Error(`the read models are in ${this.storage.location}, not a SQLite file: use runner.storage`);
  }

  /** Resolves once the storage's tables exist and the checkpoints are read (at once on SQLite). */
  ready(): Promise<void> {
    return this.prepared;
  }

  get projections(): readonly AnyProjection[] {
    return this.engine.projections;
  }

  /** Starts following the store in the background (catch-up, then live). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.loopDone = this.loop();
  }

  /** Stops following (the batch in progress is committed first). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.stopping = true;
    this.wakeSleep?.();
    await this.subscription?.close();
    await this.loopDone;
    this.running = false;
  }

  /** Stops and closes the storage if the runner opened it. */
  async close(): Promise<void> {
    await this.stop();
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
    if (this.ownsStorage) await this.storage.close();
  }

  /**
   * Applies everything in the store now (pages of `catchUpPage` events, one transaction each), then returns.
   * For tools (CLI, benchmark) and tests; do not run it while `start()` is following in this process.
   */
  async catchUp(onProgress?: (position: number) => void): Promise<{ events: number; position: number }> {
    await this.prepared.catch(() => (this.prepared = this.prepare()));
    await this.prepared;
    let events = 0;
    if (this.engine.projections.length === 0) return { events, position: 0 };
    for (;;) {
      const page: RecordedEvent[] = [];
      for await (const e of this.store.readAll({
        fromPosition: BigInt(this.engine.minCheckpoint()),
        maxCount: this.catchUpPage,
      })) {
        page.push(e);
      }
      if (page.length === 0) break;
      try {
        await this.engine.applyBatch(page);
      } catch (error) {
        await this.engine.reset();
        if (error instanceof CheckpointMovedError) continue;
        throw error;
      }
      events += page.length;
      this.notifyWaiters();
      onProgress?.(this.engine.minCheckpoint());
    }
    return { events, position: this.engine.minCheckpoint() };
  }

  /** Resolves once every projection has applied the event at `position` (e.g. an append's result). */
  waitFor(position: bigint | number, timeoutMs = 10_000): Promise<void> {
    const target = Number(position);
    if (this.engine.minCheckpoint() >= target) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          new Error(
            `projections did not reach position ${target} within ${timeoutMs} ms (at ${this.engine.minCheckpoint()})`,
          ),
        );
      }, timeoutMs);
      const waiter = {
        position: target,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Checkpoints and lag of every projection (for `projections status` and the Prometheus gauge). */
  async status(): Promise<RunnerStatus> {
    const failed = (error: unknown): CheckpointRow[] => {
      this.lastError = error instanceof Error ? error.message : String(error);
      // the storage does not answer: the checkpoints this runner committed, as it knows them
      return this.engine.projections.map((p) => ({
        name: p.name,
        version: p.version,
        position: this.engine.checkpoint(p.name),
        generation: 0,
        updated_at: null,
        rebuilt_at: null,
      }));
    };
    const rows = await this.prepared.then(() => this.storage.checkpoints()).catch(failed);
    const head = this.options.headPosition
      ? { position: Number((await this.options.headPosition()) ?? 0), lowerBound: false }
      : await scanHead(this.store, this.engine.minCheckpoint());
    return {
      running: this.running,
      lastError: this.lastError,
      projections: statusOf(rows, this.engine.projections, head),
    };
  }

  private notifyWaiters(): void {
    if (this.waiters.length === 0) return;
    const at = this.engine.minCheckpoint();
    const ready = this.waiters.filter((w) => w.position <= at);
    this.waiters = this.waiters.filter((w) => w.position > at);
    for (const w of ready) w.resolve();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeSleep = done;
    });
  }

  private async loop(): Promise<void> {
    let backoff = 100;
    while (!this.stopping) {
      try {
        await this.prepared;
      } catch (error) {
        this.lastError = error instanceof Error ? error.message : String(error);
        this.logger.error({
          msg: 'read-model storage not ready: trying again',
          error: this.lastError,
          backoffMs: backoff,
        });
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, 30_000);
        if (!this.stopping) this.prepared = this.prepare();
        continue;
      }
      const subscription = this.store.subscribeToAll({ fromPosition: BigInt(this.engine.minCheckpoint()) });
      this.subscription = subscription;
      try {
        await this.consume(subscription);
        backoff = 100;
      } catch (error) {
        if (error instanceof CheckpointMovedError) {
          this.logger.info({
            msg: 'projection checkpoint moved (rebuild): resuming from the stored checkpoint',
            projection: error.projection,
          });
          await this.engine.reset().catch(() => undefined);
          continue;
        }
        this.lastError = error instanceof Error ? error.message : String(error);
        this.logger.error({
          msg: 'projection batch failed: retrying from the checkpoints',
          error: this.lastError,
          backoffMs: backoff,
        });
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, 30_000);
        // the stored checkpoints, if the storage answers again (else the next batch fails the same way)
        await this.engine.reset().catch(() => undefined);
      } finally {
        await subscription.close();
        this.subscription = null;
      }
    }
  }

  /**
   * Reads the subscription, committing a batch whenever no more events are at hand (or maxBatch is reached), and
   * with `minCommitIntervalMs` not sooner than that after the previous commit. One commit at a time: events
   * arriving during a commit wait for the next; at `maxBatch` of them the subscription waits too.
   */
  private async consume(subscription: Subscription): Promise<void> {
    let batch: RecordedEvent[] = [];
    let failure: unknown = null;
    let scheduled = false;
    let timer: NodeJS.Timeout | null = null;
    let lastCommit = Number.NEGATIVE_INFINITY;
    let committing: Promise<void> | null = null;
    const schedule = (): void => {
      if (scheduled || batch.length === 0) return;
      scheduled = true;
      const wait = lastCommit + this.minCommitIntervalMs - performance.now();
      if (wait > 0) timer = setTimeout(flush, wait);
      else setImmediate(flush);
    };
    const flush = (): void => {
      scheduled = false;
      if (timer) clearTimeout(timer);
      timer = null;
      if (batch.length === 0 || failure !== null || committing !== null) return;
      lastCommit = performance.now();
      const events = batch;
      batch = [];
      committing = this.engine.applyBatch(events).then(
        () => {
          this.lastError = null;
          this.notifyWaiters();
        },
        (error: unknown) => {
          failure = error;
          void subscription.close();
        },
      );
      void committing.then(() => {
        committing = null;
        if (batch.length >= this.maxBatch) flush();
        else schedule();
      });
    };
    for await (const event of subscription) {
      if (failure !== null) break;
      batch.push(event);
      if (batch.length >= this.maxBatch) {
        if (committing !== null) await committing;
        flush();
      } else schedule();
    }
    while (committing !== null) await committing;
    flush();
    while (committing !== null) await committing;
    if (failure !== null) throw failure;
  }
}
