/**
 * The projection runner: subscribes to the store's `$all` from the lowest projection checkpoint, batches the
 * events (a batch ends when the subscription has nothing more at once, or at `maxBatch` events) and commits
 * each batch with the engine (writes + checkpoints in one transaction). Failures are retried with backoff from
 * the stored checkpoints; a rebuild by another process (the CLI) is noticed at the next commit and resumed from.
 */
import type { EventStore, RecordedEvent, Subscription } from '@coup/event-store';
import { PROJECTIONS } from '../read-models';
import type { AnyProjection } from '../read-models/kernel/types';
import {
  CHECKPOINTS,
  type Db,
  ensureCheckpointTable,
  ensureProjection,
  openReadModelDb,
  readCheckpoint,
} from './db';
import { CheckpointMovedError, ProjectionEngine } from './engine';

export interface RunnerLogger {
  info(msg: Record<string, unknown>): void;
  warn(msg: Record<string, unknown>): void;
  error(msg: Record<string, unknown>): void;
}

const silent: RunnerLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export interface ProjectionRunnerOptions {
  readonly store: EventStore;
  /** The read-model file (or an open database). */
  readonly readModels: string | Db;
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

export interface ProjectionStatus {
  readonly name: string;
  readonly version: number;
  /** Global position of the last event applied. */
  readonly checkpoint: number;
  /** The store's last global position (as far as known). */
  readonly head: number;
  /** Events not yet applied (head - checkpoint where positions count events, else the events counted after it). */
  readonly lag: number;
  /** True when the head was not read to the end (lag is at least this). */
  readonly lagIsLowerBound: boolean;
  readonly updatedAt: string | null;
  readonly rebuiltAt: string | null;
  /** The version the read model was built with (null: never built); differs from `version` until refolded. */
  readonly storedVersion: number | null;
}

export interface RunnerStatus {
  readonly running: boolean;
  readonly lastError: string | null;
  readonly projections: readonly ProjectionStatus[];
}

const HEAD_SCAN_LIMIT = 100_000;

/** The head as far as known; with `positions` (those read after the lowest checkpoint), lag counts events. */
export interface KnownHead {
  readonly position: number;
  readonly lowerBound: boolean;
  readonly positions?: readonly number[];
}

/** The store's last position by reading forward from `from` (at most 100,000 events: then a lower bound). */
export async function scanHead(store: EventStore, from: number): Promise<KnownHead> {
  let position = from;
  const positions: number[] = [];
  for await (const e of store.readAll({ fromPosition: BigInt(from), maxCount: HEAD_SCAN_LIMIT })) {
    position = Number(e.globalPosition);
    positions.push(position);
  }
  return { position, lowerBound: positions.length >= HEAD_SCAN_LIMIT, positions };
}

/** How many of the ascending `positions` are after `checkpoint`. */
function countAfter(positions: readonly number[], checkpoint: number): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((positions[mid] ?? Number.POSITIVE_INFINITY) <= checkpoint) lo = mid + 1;
    else hi = mid;
  }
  return positions.length - lo;
}

/** Each projection's stored checkpoint and its lag behind `head` (read-only: for tools and the runner). */
export function readStatus(
  db: Db,
  projections: readonly AnyProjection[],
  head: KnownHead,
): ProjectionStatus[] {
  const built =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(CHECKPOINTS) !==
    undefined;
  return projections.map((p) => {
    const row = built ? readCheckpoint(db, p.name) : undefined;
    const checkpoint = row?.position ?? 0;
    return {
      name: p.name,
      version: p.version,
      checkpoint,
      head: Math.max(head.position, checkpoint),
      lag: head.positions ? countAfter(head.positions, checkpoint) : Math.max(0, head.position - checkpoint),
      lagIsLowerBound: head.lowerBound,
      updatedAt: row?.updated_at ?? null,
      rebuiltAt: row?.rebuilt_at ?? null,
      storedVersion: row?.version ?? null,
    };
  });
}

export class ProjectionRunner {
  readonly db: Db;
  readonly engine: ProjectionEngine;
  private readonly ownsDb: boolean;
  private readonly store: EventStore;
  private readonly logger: RunnerLogger;
  private readonly maxBatch: number;
  private readonly minCommitIntervalMs: number;
  private readonly catchUpPage: number;
  private running = false;
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private subscription: Subscription | null = null;
  private wakeSleep: (() => void) | null = null;
  private waiters: { position: number; resolve: () => void }[] = [];
  private lastError: string | null = null;

  constructor(private readonly options: ProjectionRunnerOptions) {
    this.store = options.store;
    this.ownsDb = typeof options.readModels === 'string';
    this.db =
      typeof options.readModels === 'string' ? openReadModelDb(options.readModels) : options.readModels;
    // A live commit's multi-row upserts keep their statement journals (each at most one statement's undo) in memory:
    // on disk they spill past 64 KiB into a temporary file, written page by page on every commit. Only on a
    // connection the runner opened: a rebuild's CREATE INDEX on another connection keeps sorting on disk (with
    // temp_store = MEMORY SQLite sorts a whole index in memory).
    if (typeof options.readModels === 'string') this.db.pragma('temp_store = MEMORY');
    this.logger = options.logger ?? silent;
    this.maxBatch = options.maxBatch ?? 2000;
    this.minCommitIntervalMs = options.minCommitIntervalMs ?? 0;
    this.catchUpPage = options.catchUpPage ?? 1000;
    const projections = options.projections ?? PROJECTIONS;
    ensureCheckpointTable(this.db);
    for (const p of projections) ensureProjection(this.db, p);
    this.engine = new ProjectionEngine({ db: this.db, projections });
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

  /** Stops and closes the read-model file if the runner opened it. */
  async close(): Promise<void> {
    await this.stop();
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
    if (this.ownsDb) this.db.close();
  }

  /**
   * Applies everything in the store now (pages of `catchUpPage` events, one transaction each), then returns.
   * For tools (CLI, benchmark) and tests; do not run it while `start()` is following in this process.
   */
  async catchUp(onProgress?: (position: number) => void): Promise<{ events: number; position: number }> {
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
        this.engine.applyBatch(page);
      } catch (error) {
        this.engine.reset();
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
    const head = this.options.headPosition
      ? { position: Number((await this.options.headPosition()) ?? 0), lowerBound: false }
      : await scanHead(this.store, this.engine.minCheckpoint());
    return {
      running: this.running,
      lastError: this.lastError,
      projections: readStatus(this.db, this.engine.projections, head),
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
      const subscription = this.store.subscribeToAll({ fromPosition: BigInt(this.engine.minCheckpoint()) });
      this.subscription = subscription;
      try {
        await this.consume(subscription);
        backoff = 100;
      } catch (error) {
        this.engine.reset();
        if (error instanceof CheckpointMovedError) {
          this.logger.info({
            msg: 'projection checkpoint moved (rebuild): resuming from the stored checkpoint',
            projection: error.projection,
          });
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
      } finally {
        await subscription.close();
        this.subscription = null;
      }
    }
  }

  /**
   * Reads the subscription, committing a batch whenever no more events are at hand (or maxBatch is reached), and
   * with `minCommitIntervalMs` not sooner than that after the previous commit.
   */
  private async consume(subscription: Subscription): Promise<void> {
    let batch: RecordedEvent[] = [];
    let failure: unknown = null;
    let scheduled = false;
    let timer: NodeJS.Timeout | null = null;
    let lastCommit = Number.NEGATIVE_INFINITY;
    const flush = (): void => {
      scheduled = false;
      if (timer) clearTimeout(timer);
      timer = null;
      if (batch.length === 0 || failure !== null) return;
      lastCommit = performance.now();
      const events = batch;
      batch = [];
      try {
        this.engine.applyBatch(events);
        this.lastError = null;
        this.notifyWaiters();
      } catch (error) {
        failure = error;
        void subscription.close();
      }
    };
    for await (const event of subscription) {
      if (failure !== null) break;
      batch.push(event);
      if (batch.length >= this.maxBatch) flush();
      else if (!scheduled) {
        scheduled = true;
        const wait = lastCommit + this.minCommitIntervalMs - performance.now();
        if (wait > 0) timer = setTimeout(flush, wait);
        else setImmediate(flush);
      }
    }
    flush();
    if (failure !== null) throw failure;
  }
}
