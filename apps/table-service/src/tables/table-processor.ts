import { createHash, randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Subject } from 'rxjs';
import {
  EVENT_SCHEMA_VERSION,
  ERROR_HTTP_STATUS,
  STATE_VERSION,
  decide,
  evolve,
  initialState,
  replyFor,
  type TableCommand,
  type TableEvent,
  type TableState,
} from '@coup/table';
import type { EventStore, NewEvent } from '@coup/event-store';
import { ApiError } from '../common/api-error';
import type { Metrics } from '../common/metrics';

/** Events this process appended to a table, published in process (e.g. for metrics and live push). */
export interface TableEventsAppended {
  readonly tableId: string;
  /** Stream revision of the first event. */
  readonly firstRevision: bigint;
  readonly events: readonly TableEvent[];
}

interface Pending {
  readonly command: TableCommand;
  readonly key: string | null;
  /** Identifies the request behind `key` (empty without a key). */
  readonly requestHash: string;
  readonly correlationId: string | undefined;
  readonly enqueuedAt: bigint;
  readonly resolve: (reply: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export interface StoredReply {
  readonly hash: string;
  readonly reply: unknown;
}

/** One table held in memory: its folded state, the stream revision it reflects, and its command queue. */
interface TableSession {
  readonly tableId: string;
  state: TableState;
  /** Revision of the last event folded into `state`; -1n when the stream does not exist. */
  revision: bigint;
  readonly queue: Pending[];
  draining: boolean;
  readonly replies: Map<string, StoredReply>;
  eventsSinceSnapshot: number;
  /** When this process last appended a snapshot of the table (ms since the epoch; 0: not yet). */
  lastSnapshotAt: number;
  timer: NodeJS.Timeout | null;
}

const MAX_BATCH = 256;
const MAX_CONFLICT_RETRIES = 20;
const REPLIES_KEPT = 10_000;
const REPLIES_IN_SNAPSHOT = 2_000;
const SNAPSHOT_TYPE = 'TableSnapshotTaken';

export const tableStream = (tableId: string) => `table-${tableId}`;
export const snapshotStream = (tableId: string) => `tablesnapshot-${tableId}`;

/**
 * The snapshot of a table's state at a stream revision, with its recent idempotency answers, as the service
 * appends it to `tablesnapshot-<tableId>`. A cache: loading ignores one whose STATE_VERSION is not the code's.
 */
export function snapshotEvent(
  state: TableState,
  revision: bigint,
  replies: readonly [string, StoredReply][] = [],
): NewEvent {
  return {
    id: uuidv7(),
    type: SNAPSHOT_TYPE,
    data: {
      stateVersion: STATE_VERSION,
      revision: revision.toString(),
      state: state as never,
      replies: replies as never,
    },
    metadata: { schemaVersion: 1 },
  };
}

/**
 * A time-ordered UUID (version 7: 48-bit Unix milliseconds, then random bits). Ids that grow with time keep the
 * store's unique id index appending at its end instead of writing random pages (about a third of the durable
 * write cost with random v4 ids, see docs/benchmarks.md).
 */
export function uuidv7(now = Date.now()): string {
  // The random part comes from crypto.randomUUID (a v4 id from Node's buffered CSPRNG pool: one system call per
  // 128 ids, where randomBytes(16) makes one per id); its first 48 bits and version nibble are replaced.
  const random = randomUUID();
  const ms = now.toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${random.slice(15)}`;
}

/** A deterministic UUID (version 8 layout) for the i-th event of an idempotent command. */
export function eventIdFor(tableId: string, key: string, index: number): string {
  const h = createHash('sha256').update(`${tableId}\u0000${key}\u0000${index}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * What identifies a client's request behind an Idempotency-Key: the command's type and data, without the seeds the
 * edge adds (fresh CSPRNG bytes differ on every retry, the request does not).
 */
function requestHashOf(command: TableCommand): string {
  const { seed: _seed, nextSeed: _nextSeed, ...data } = command.data as Record<string, unknown>;
  return createHash('sha256')
    .update(JSON.stringify([command.type, data]))
    .digest('hex')
    .slice(0, 32);
}

/** Under load, a table is snapshotted at most this often, unless its tail grows past SNAPSHOT_TAIL_LIMIT. */
export const SNAPSHOT_MIN_INTERVAL_MS = 1_000;
/** However busy the table, a snapshot is taken once this many times `snapshotEvery` events have followed the last. */
export const SNAPSHOT_TAIL_LIMIT = 20;

/**
 * Is a snapshot of the table due? After `every` events, but on a busy table (thousands of bets a second, each
 * snapshot the whole state with its recent answers) not more than once a second: the tail a load reads stays
 * bounded (at most a second of events, and never more than SNAPSHOT_TAIL_LIMIT x `every`), whatever the history.
 */
export function snapshotDue(
  session: { readonly eventsSinceSnapshot: number; readonly lastSnapshotAt: number },
  every: number,
  now: number,
): boolean {
  if (session.eventsSinceSnapshot < every) return false;
  return (
    now - session.lastSnapshotAt >= SNAPSHOT_MIN_INTERVAL_MS ||
    session.eventsSinceSnapshot >= every * SNAPSHOT_TAIL_LIMIT
  );
}

export interface ProcessorOptions {
  readonly snapshotEvery: number;
  /** Called after each batch with the table's new state, e.g. to arm the betting timer. */
  readonly onStateChanged?: (tableId: string, state: TableState) => void;
}

/**
 * Runs table commands: load (snapshot + tail), decide, append with the expected revision, answer.
 *
 * Commands for one table are serialized in this process and decided in batches: every command waiting when
 * the previous append finished is decided in order against the evolving state, and all their events go to
 * the store in ONE append (one fsync), so a busy table is not a queue of fsyncs. A conflict (another process
 * wrote first) re-reads the tail and re-decides the batch, a bounded number of times. An idempotency key
 * makes the event ids deterministic and the answer is stored in the last event's metadata, so a retry (even
 * after a restart) returns the first answer and records nothing new.
 */
export class TableProcessor {
  private readonly sessions = new Map<string, Promise<TableSession>>();
  private readonly log = new Logger('tables');
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private closing = false;
  readonly appended = new Subject<TableEventsAppended>();

  constructor(
    private readonly store: EventStore,
    private readonly metrics: Metrics,
    private readonly options: ProcessorOptions,
  ) {}

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
    this.inFlight++;
    const done = () => {
      if (--this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
    };
    const run = this.session(tableId).then(
      (session) =>
        new Promise<unknown>((resolve, reject) => {
          const key = idempotencyKey ?? null;
          // Only a keyed command is ever compared with a retry.
          const requestHash = key !== null ? requestHashOf(command) : '';
          if (key !== null) {
            const seen = session.replies.get(key);
            if (seen) {
              if (seen.hash !== requestHash) {
                reject(
                  new ApiError(
                    422,
                    'IDEMPOTENCY_KEY_REUSED',
                    'this Idempotency-Key was used for a different request',
                  ),
                );
              } else resolve(seen.reply);
              return;
            }
          }
          session.queue.push({
            command,
            key,
            requestHash,
            correlationId,
            enqueuedAt: process.hrtime.bigint(),
            resolve,
            reject,
          });
          if (!session.draining) void this.drain(session);
        }),
    );
    return run.finally(done);
  }

  /** The table's current state (loading it if needed). */
  async state(tableId: string): Promise<TableState> {
    return (await this.session(tableId)).state;
  }

  /** The table's state and the stream revision it reflects, after reading any events other processes wrote. */
  async current(tableId: string): Promise<{ state: TableState; revision: bigint }> {
    const session = await this.session(tableId);
    if (!session.draining) await this.catchUp(session);
    return { state: session.state, revision: session.revision };
  }

  /** Refreshes a table from the store (e.g. another process wrote) and returns its state. */
  async refresh(tableId: string): Promise<TableState> {
    const session = await this.session(tableId);
    await this.catchUp(session);
    return session.state;
  }

  /** Stops taking commands and waits for those in flight. */
  async shutdown(): Promise<void> {
    if (this.closing && this.inFlight === 0) return;
    this.closing = true;
    if (this.inFlight > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    for (const s of this.sessions.values()) {
      const session = await s.catch(() => null);
      if (session?.timer) clearTimeout(session.timer);
    }
    this.appended.complete();
  }

  /** Arms (or re-arms) a one-shot timer for a table; used by the betting timer. */
  setTimer(tableId: string, at: number, fire: () => void): void {
    void this.session(tableId).then((session) => {
      if (session.timer) clearTimeout(session.timer);
      session.timer = setTimeout(
        () => {
          session.timer = null;
          fire();
        },
        Math.max(0, at - Date.now()),
      );
      session.timer.unref?.();
    });
  }

  private session(tableId: string): Promise<TableSession> {
    let s = this.sessions.get(tableId);
    if (!s) {
      s = this.load(tableId);
      this.sessions.set(tableId, s);
      s.then(
        () => this.metrics.tablesLoaded.set(this.sessions.size),
        () => this.sessions.delete(tableId),
      );
    }
    return s;
  }

  private async load(tableId: string): Promise<TableSession> {
    const session: TableSession = {
      tableId,
      state: initialState,
      revision: -1n,
      queue: [],
      draining: false,
      replies: new Map(),
      eventsSinceSnapshot: 0,
      lastSnapshotAt: 0,
      timer: null,
    };
    for await (const snap of this.store.readStream(snapshotStream(tableId), {
      direction: 'backwards',
      fromRevision: 'end',
      maxCount: 1,
    })) {
      const data = snap.data as {
        stateVersion?: number;
        revision?: string;
        state?: TableState;
        replies?: [string, StoredReply][];
      };
      if (data.stateVersion === STATE_VERSION && data.state && data.revision !== undefined) {
        session.state = data.state;
        session.revision = BigInt(data.revision);
        for (const [k, v] of data.replies ?? []) session.replies.set(k, v);
      }
    }
    await this.catchUp(session);
    this.options.onStateChanged?.(tableId, session.state);
    return session;
  }

  /** Folds every event after the session's revision (written by this or another process). */
  private async catchUp(session: TableSession): Promise<void> {
    for await (const e of this.store.readStream(tableStream(session.tableId), {
      fromRevision: session.revision + 1n,
    })) {
      session.state = evolve(session.state, { type: e.type, data: e.data } as TableEvent);
      session.revision = e.streamRevision;
      session.eventsSinceSnapshot++;
      const meta = e.metadata as { commandId?: string; requestHash?: string; reply?: unknown };
      if (meta.commandId && meta.requestHash && 'reply' in meta)
        this.remember(session, meta.commandId, { hash: meta.requestHash, reply: meta.reply });
    }
  }

  private remember(session: TableSession, key: string, reply: StoredReply): void {
    session.replies.delete(key);
    session.replies.set(key, reply);
    if (session.replies.size > REPLIES_KEPT)
      session.replies.delete(session.replies.keys().next().value as string);
  }

  private async drain(session: TableSession): Promise<void> {
    session.draining = true;
    try {
      while (session.queue.length > 0) {
        const batch = session.queue.splice(0, MAX_BATCH);
        await this.processBatch(session, batch);
      }
    } finally {
      session.draining = false;
    }
  }

  private async processBatch(session: TableSession, batch: Pending[]): Promise<void> {
    this.metrics.appendBatch.observe(batch.length);
    for (let attempt = 0; ; attempt++) {
      let state = session.state;
      const events: NewEvent[] = [];
      const outcomes: ({ ok: true; reply: unknown } | { ok: false; error: ApiError })[] = [];
      const keysInBatch = new Map<string, number>();
      for (const p of batch) {
        if (p.key !== null && keysInBatch.has(p.key)) {
          outcomes.push(outcomes[keysInBatch.get(p.key)!]!);
          continue;
        }
        // A retry that queued while its first try was being appended: answer it from the recorded reply.
        const recorded = p.key !== null ? session.replies.get(p.key) : undefined;
        if (recorded) {
          outcomes.push(
            recorded.hash === p.requestHash
              ? { ok: true, reply: recorded.reply }
              : {
                  ok: false,
                  error: new ApiError(
                    422,
                    'IDEMPOTENCY_KEY_REUSED',
                    'this Idempotency-Key was used for a different request',
                  ),
                },
          );
          continue;
        }
        const decision = decide(p.command, state);
        if (!decision.ok) {
          const { code, message, details } = decision.error;
          outcomes.push({
            ok: false,
            error: new ApiError(ERROR_HTTP_STATUS[code] ?? 400, code, message, details),
          });
          continue;
        }
        let after = state;
        for (const e of decision.events) after = evolve(after, e);
        const reply = replyFor(p.command, decision.events, after);
        const commandId = p.key ?? randomUUID();
        decision.events.forEach((e, i) => {
          const last = i === decision.events.length - 1;
          events.push({
            id: p.key !== null ? eventIdFor(session.tableId, p.key, i) : uuidv7(),
            type: e.type,
            data: e.data as never,
            metadata: {
              schemaVersion: EVENT_SCHEMA_VERSION[e.type],
              commandId,
              commandType: p.command.type,
              actor: `${p.command.meta.actor.role}:${p.command.meta.actor.id}`,
              ...(p.correlationId ? { correlationId: p.correlationId } : {}),
              ...(last && p.key !== null ? { requestHash: p.requestHash, reply: reply as never } : {}),
            },
          });
        });
        state = after;
        if (p.key !== null) keysInBatch.set(p.key, outcomes.length);
        outcomes.push({ ok: true, reply });
      }

      if (events.length > 0) {
        try {
          const expectedRevision = session.revision < 0n ? 'no_stream' : session.revision;
          await this.store.appendToStream(tableStream(session.tableId), events, { expectedRevision });
        } catch (error) {
          if (
            (error as { code?: string }).code === 'WRONG_EXPECTED_VERSION' &&
            attempt < MAX_CONFLICT_RETRIES
          ) {
            this.metrics.conflicts.inc();
            // Another process is writing this table: back off a little (jittered, growing) so two writers do not
            // livelock, then read only the tail and decide the batch again.
            await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
            await this.catchUp(session);
            continue;
          }
          this.log.error({
            msg: 'append failed',
            tableId: session.tableId,
            error: String((error as Error).message),
          });
          for (const p of batch) p.reject(error);
          return;
        }
        this.metrics.eventsAppended.inc(events.length);
        const firstRevision = session.revision + 1n;
        session.state = state;
        session.revision += BigInt(events.length);
        session.eventsSinceSnapshot += events.length;
        batch.forEach((p, i) => {
          const o = outcomes[i]!;
          if (o.ok && p.key !== null) this.remember(session, p.key, { hash: p.requestHash, reply: o.reply });
        });
        this.publish(session.tableId, events, firstRevision);
        if (snapshotDue(session, this.options.snapshotEvery, Date.now())) void this.snapshot(session);
        this.options.onStateChanged?.(session.tableId, session.state);
      }
      const now = process.hrtime.bigint();
      batch.forEach((p, i) => {
        const o = outcomes[i]!;
        this.metrics.commands.inc({ type: p.command.type, outcome: o.ok ? 'ok' : o.error.code });
        this.metrics.commandSeconds.observe({ type: p.command.type }, Number(now - p.enqueuedAt) / 1e9);
        if (o.ok) p.resolve(o.reply);
        else p.reject(o.error);
      });
      return;
    }
  }

  private publish(tableId: string, events: readonly NewEvent[], firstRevision: bigint): void {
    if (!this.appended.observed) return;
    this.appended.next({
      tableId,
      firstRevision,
      events: events.map((e) => ({ type: e.type, data: e.data }) as TableEvent),
    });
  }

  private async snapshot(session: TableSession): Promise<void> {
    session.eventsSinceSnapshot = 0;
    session.lastSnapshotAt = Date.now();
    const replies = [...session.replies.entries()].slice(-REPLIES_IN_SNAPSHOT);
    try {
      await this.store.appendToStream(
        snapshotStream(session.tableId),
        [snapshotEvent(session.state, session.revision, replies)],
        {
          expectedRevision: 'any',
        },
      );
    } catch (error) {
      this.log.warn({
        msg: 'snapshot failed (the table is unaffected)',
        tableId: session.tableId,
        error: String((error as Error).message),
      });
    }
  }
}
