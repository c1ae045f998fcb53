// The in-memory adapter, for unit tests: same algorithm, chain and checks as the SQLite store, no disk.
import {
  appendCore,
  firstOf,
  type Head,
  type NewRow,
  type StoredRow,
  type SyncBackend,
  toRecorded,
  verifyChain,
} from './core';
import { EventStoreUnavailableError } from './errors';
import { CommitNotifier, PagedSubscription } from './subscription';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamHead,
  StreamVerification,
  SubscribeToAllOptions,
  Subscription,
  VerifyStreamOptions,
} from './types';
import type { UpcasterRegistry } from './upcasting';
import {
  normalizePosition,
  denseReadStart,
  normalizeReadAllOptions,
  normalizeReadStreamOptions,
  prepareEvents,
  validateExpectedRevision,
  validateStreamName,
} from './validation';

export interface MemoryEventStoreOptions {
  upcasters?: UpcasterRegistry;
  /** Clock for `recordedAt` (tests may fix it). */
  now?: () => Date;
}

class MemoryBackend implements SyncBackend {
  /** Index = global position - 1. */
  readonly all: StoredRow[] = [];
  readonly streams = new Map<string, StoredRow[]>();
  readonly ids = new Map<string, StoredRow>();

  head(stream: string): Head | null {
    const rows = this.streams.get(stream);
    const last = rows?.[rows.length - 1];
    return last ? { revision: last.revision, hash: last.hash } : null;
  }

  range(stream: string, fromRevision: bigint, count: number): StoredRow[] {
    const rows = this.streams.get(stream) ?? [];
    const from = Number(fromRevision);
    return rows.slice(from, from + count);
  }

  locate(id: string): { stream: string; revision: bigint } | null {
    const row = this.ids.get(id);
    return row ? { stream: row.stream, revision: row.revision } : null;
  }

  insert(rows: readonly NewRow[]): { lastPosition: bigint } | { duplicateId: string } {
    const duplicate = rows.find((row) => this.ids.has(row.id));
    if (duplicate) return { duplicateId: duplicate.id };
    const name = firstOf(rows).stream;
    let stream = this.streams.get(name);
    if (!stream) {
      stream = [];
      this.streams.set(name, stream);
    }
    for (const row of rows) {
      const stored: StoredRow = { ...row, globalPosition: BigInt(this.all.length + 1) };
      this.all.push(stored);
      stream.push(stored);
      this.ids.set(stored.id, stored);
    }
    return { lastPosition: BigInt(this.all.length) };
  }
}

export class MemoryEventStore implements EventStore {
  private readonly backend = new MemoryBackend();
  private readonly notifier = new CommitNotifier();
  private readonly subscriptions = new Set<Subscription>();
  private closed = false;

  constructor(private readonly options: MemoryEventStoreOptions = {}) {}

  async appendToStream(
    stream: string,
    events: readonly NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.assertOpen();
    validateStreamName(stream);
    const expected = validateExpectedRevision(options.expectedRevision);
    const prepared = prepareEvents(events);
    const now = (this.options.now ?? (() => new Date()))().toISOString();
    const result = appendCore(this.backend, stream, prepared, expected, now);
    this.notifier.notify();
    return result;
  }

  async *readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent> {
    this.assertOpen();
    validateStreamName(stream);
    const { fromRevision, direction, maxCount } = normalizeReadStreamOptions(options);
    const rows = this.backend.streams.get(stream) ?? [];
    let selected: StoredRow[];
    if (direction === 'forwards') {
      const from = fromRevision === 'start' ? 0 : fromRevision === 'end' ? rows.length : Number(fromRevision);
      selected = rows.slice(from, from + maxCount);
    } else {
      const top =
        fromRevision === 'end'
          ? rows.length - 1
          : fromRevision === 'start'
            ? 0
            : Math.min(Number(fromRevision), rows.length - 1);
      selected = rows.slice(Math.max(0, top + 1 - maxCount), top + 1).reverse();
    }
    for (const row of selected) yield toRecorded(row, this.options.upcasters);
  }

  async *readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent> {
    this.assertOpen();
    const read = normalizeReadAllOptions(options);
    for (const row of this.page(denseReadStart(read), read.maxCount)) yield row;
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): Subscription {
    this.assertOpen();
    const subscription: Subscription = new PagedSubscription({
      readPage: (after, limit) => this.page(after, limit),
      from: normalizePosition(options.fromPosition),
      notifier: this.notifier,
      onClose: () => this.subscriptions.delete(subscription),
    });
    this.subscriptions.add(subscription);
    return subscription;
  }

  async streamHead(stream: string): Promise<StreamHead | null> {
    this.assertOpen();
    validateStreamName(stream);
    return this.backend.head(stream);
  }

  async headPosition(): Promise<bigint | null> {
    this.assertOpen();
    const length = this.backend.all.length;
    return length === 0 ? null : BigInt(length);
  }

  async verifyStream(stream: string, options?: VerifyStreamOptions): Promise<StreamVerification> {
    this.assertOpen();
    validateStreamName(stream);
    return verifyChain(this.backend.streams.get(stream) ?? [], options);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
  }

  /**
   * Test hook: overwrite fields of a stored event in place, bypassing the store, as someone with access to
   * the storage could. Used by the contract suite to check `verifyStream` finds tampering.
   */
  tamperForTests(
    stream: string,
    revision: bigint,
    patch: Partial<Omit<StoredRow, 'globalPosition' | 'stream' | 'revision'>>,
  ): void {
    const rows = this.backend.streams.get(stream);
    const index = Number(revision);
    const row = rows?.[index];
    if (!rows || !row) throw new RangeError(`No event ${stream}@${revision} to tamper with`);
    const changed: StoredRow = { ...row, ...patch };
    rows[index] = changed;
    this.backend.all[Number(row.globalPosition) - 1] = changed;
    this.backend.ids.delete(row.id);
    this.backend.ids.set(changed.id, changed);
  }

  private page(after: bigint, limit: number): RecordedEvent[] {
    this.assertOpen();
    const from = Number(after);
    return this.backend.all.slice(from, from + limit).map((row) => toRecorded(row, this.options.upcasters));
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreUnavailableError('STORE_CLOSED', 'The event store is closed');
  }
}
