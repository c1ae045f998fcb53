/**
 * Test doubles for a store connection that drops: a store whose `$all` subscriptions the test makes fail (as the
 * EventStoreDB client's do when its link drops), and whose reads fail while the test says it is down; and waits
 * the test releases, in place of the followers' backoff timers.
 */
import type { EventStore, RecordedEvent, Subscription } from '@coup/event-store';
import { EventStoreUnavailableError } from '@coup/event-store';

/** The wrapped store, with its live subscriptions at the test's mercy. */
export class FlakyStore implements EventStore {
  /** While set, every read and subscription fails with it (appends still land: another process's link is up). */
  private down: Error | null = null;
  private readonly live = new Set<(error: Error) => void>();
  /** `$all` subscriptions opened so far. */
  subscriptions = 0;

  constructor(readonly inner: EventStore) {}

  /** Every open `$all` subscription fails with `error` (its pending read rejects). */
  drop(error: Error = new EventStoreUnavailableError('STORE_UNAVAILABLE', 'connection reset')): void {
    for (const fail of [...this.live]) fail(error);
  }

  /** The store stops answering reads until `restore`; open subscriptions fail. */
  goDown(message = 'store unreachable'): void {
    this.down = new EventStoreUnavailableError('STORE_UNAVAILABLE', message);
    this.drop(this.down);
  }

  restore(): void {
    this.down = null;
  }

  private check(): void {
    if (this.down) throw this.down;
  }

  appendToStream(...args: Parameters<EventStore['appendToStream']>) {
    return this.inner.appendToStream(...args);
  }

  async *readStream(...args: Parameters<EventStore['readStream']>): AsyncGenerator<RecordedEvent> {
    this.check();
    yield* this.inner.readStream(...args);
  }

  async *readAll(...args: Parameters<EventStore['readAll']>): AsyncGenerator<RecordedEvent> {
    this.check();
    yield* this.inner.readAll(...args);
  }

  async streamHead(...args: Parameters<EventStore['streamHead']>) {
    this.check();
    return this.inner.streamHead(...args);
  }

  async headPosition() {
    this.check();
    return this.inner.headPosition();
  }

  verifyStream(...args: Parameters<EventStore['verifyStream']>) {
    return this.inner.verifyStream(...args);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  subscribeToAll(...args: Parameters<EventStore['subscribeToAll']>): Subscription {
    this.subscriptions += 1;
    const inner = this.inner.subscribeToAll(...args);
    const events = inner[Symbol.asyncIterator]();
    let fail = (_error: Error): void => undefined;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    failed.catch(() => undefined);
    const onDrop = (error: Error): void => {
      this.live.delete(onDrop);
      fail(error);
      void inner.close();
    };
    this.live.add(onDrop);
    const close = async (): Promise<void> => {
      this.live.delete(onDrop);
      await inner.close();
    };
    const down = this.down;
    return {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          if (down) throw down; // as the client does: the subscription fails on its first read
          return Promise.race([events.next(), failed]);
        },
        return: async () => {
          await close();
          return { done: true, value: undefined };
        },
      }),
      close,
    };
  }
}

/** Backoff waits that end when the test says so: a follower's wait is recorded, and pending until released. */
export class ManualWaits {
  /** Every wait asked for, in ms, in order. */
  readonly asked: number[] = [];
  private pending: (() => void)[] = [];

  readonly wait = (ms: number, signal: AbortSignal): Promise<void> => {
    this.asked.push(ms);
    return new Promise<void>((resolve) => {
      const done = (): void => {
        this.pending = this.pending.filter((p) => p !== done);
        resolve();
      };
      this.pending.push(done);
      signal.addEventListener('abort', done, { once: true });
    });
  };

  get waiting(): number {
    return this.pending.length;
  }

  /** Ends every wait pending now. */
  release(): void {
    for (const done of [...this.pending]) done();
  }
}

/** Polls `predicate` (every few ms) until it holds; fails naming `what` after `timeoutMs`. */
export async function until(predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
