import {
  evolve,
  initialState,
  tableStream,
  type TableCommand,
  type TableEvent,
  type TableState,
} from '@coup/table';
import type { EventStore } from '@coup/event-store';
import type { KeyEntry, KeyIndex } from './idempotency';
import { CommandWindow, commandEventsIn, keyEntryOf } from './key-replies';

/** A command waiting in its table's queue, with the promise of its answer. */
export interface Pending {
  readonly command: TableCommand;
  readonly key: string | null;
  /** Identifies the caller and request behind `key` (empty without a key). */
  readonly requestHash: string;
  readonly correlationId: string | undefined;
  readonly enqueuedAt: bigint;
  readonly resolve: (reply: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** A table's state as the store acknowledged it, at the revision of its last event (-1n: no stream). */
export interface TableAt {
  readonly state: TableState;
  readonly revision: bigint;
}

const noop = () => undefined;
/** Unkeyed events after which the key index's watermark is moved anyway. */
const WATERMARK_STEP = 1_000n;
/** Events a catch-up folds per turn of the event loop (a load's tail or another process's burst: thousands). */
export const CATCH_UP_PER_TURN = 1_000;

/**
 * One table held in memory (ADR-14): its state, always a fold of its stream up to `revision`, and the revision is
 * only ever one the store acknowledged (an append's answer, or an event read back). Everything that reads or changes
 * it runs through `exclusive`, one at a time in arrival order: a batch of commands (catch up, decide, append), a
 * read (catch up, answer). Nothing folds events into it while an append is in flight.
 */
export class TableSession {
  state: TableState = initialState;
  revision = -1n;
  eventsSinceSnapshot = 0;
  /** When this process last appended a snapshot of the table (ms since the epoch; 0: not yet). */
  lastSnapshotAt = 0;
  /** Every key of the table up to `revision` (within the retention) is in the key index. */
  keysComplete = false;
  /** The revision this session last wrote as the key index's watermark. */
  private markedAt = -1n;
  /** Last use (ms since the epoch), for evicting idle sessions. */
  lastUsed = 0;
  readonly queue: Pending[] = [];
  /** A batch is scheduled on `exclusive` and will take the queue. */
  scheduled = false;
  /** Operations scheduled or running on `exclusive`. */
  private running = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(readonly tableId: string) {}

  get at(): TableAt {
    return { state: this.state, revision: this.revision };
  }

  /** Nothing queued, scheduled or running: the session may be evicted. */
  get idle(): boolean {
    return this.running === 0 && this.queue.length === 0 && !this.scheduled;
  }

  /** Runs `fn` when every operation scheduled before it has finished; nothing else touches the session meanwhile. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.running++;
    const run = this.tail.then(fn).finally(() => {
      this.running--;
    });
    this.tail = run.then(noop, noop);
    return run;
  }

  /**
   * Folds every event after `revision` (written by this or another process) and indexes the keys they carry,
   * CATCH_UP_PER_TURN events per turn of the event loop. Only call inside `exclusive` (or before the session is
   * shared). Answers the number of events folded.
   */
  async catchUp(store: EventStore, keys: KeyIndex): Promise<number> {
    let folded = 0;
    const entries: KeyEntry[] = [];
    const stream = tableStream(this.tableId);
    const read = commandEventsIn(store, stream);
    const command = new CommandWindow();
    try {
      for await (const e of store.readStream(stream, { fromRevision: this.revision + 1n })) {
        this.state = evolve(this.state, { type: e.type, data: e.data } as TableEvent);
        this.revision = e.streamRevision;
        folded++;
        const entry = await keyEntryOf(e, command.add(e), read);
        if (entry) entries.push(entry);
        if (folded % CATCH_UP_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      // Also when the read fails halfway: the keys of every event folded are indexed before anything else runs.
      if (folded > 0) {
        this.eventsSinceSnapshot += folded;
        this.indexKeys(keys, entries);
      }
    }
    return folded;
  }

  /**
   * Indexes keys this session folded or appended, up to its revision. A failure (the index file busy or full)
   * never fails what the store recorded: the index is marked incomplete, and is filled from the stream again before
   * the session's next keyed command. Answers the failure, or null.
   */
  indexKeys(keys: KeyIndex, entries: readonly KeyEntry[]): Error | null {
    // The watermark is a lower bound: moved with every key, and otherwise every WATERMARK_STEP events (not one write
    // per batch of unkeyed bets); a lagging one only makes a later load read a little more of the stream.
    const moveMark =
      this.keysComplete && (entries.length > 0 || this.revision - this.markedAt >= WATERMARK_STEP);
    if (entries.length === 0 && !moveMark) return null;
    try {
      keys.record(this.tableId, entries, moveMark ? this.revision : null);
      if (moveMark) this.markedAt = this.revision;
      return null;
    } catch (error) {
      this.keysComplete = false;
      return error as Error;
    }
  }

  /** Takes the outcome of an acknowledged append of `count` events: the stream is at `revision`. */
  acknowledge(state: TableState, revision: bigint, count: number): void {
    this.state = state;
    this.revision = revision;
    this.eventsSinceSnapshot += count;
  }
}
