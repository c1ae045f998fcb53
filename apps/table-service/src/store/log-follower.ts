import { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent, Subscription } from '@coup/event-store';

/**
 * How long a follower whose subscription failed waits before it subscribes again: `firstMs` after the first
 * failure, doubling with each failure in a row, never more than `maxMs`; each wait is jittered (half of it fixed,
 * half random) so that several followers, or several processes, do not knock on the store at the same instant.
 */
export interface FollowRetry {
  readonly firstMs: number;
  readonly maxMs: number;
}

export const DEFAULT_FOLLOW_RETRY: FollowRetry = Object.freeze({ firstMs: 200, maxMs: 5_000 });

/** What `/health` says of one follower. */
export interface FollowerStatus {
  readonly name: string;
  readonly up: boolean;
  /** Global position of the last event handled (a string: JSON has no bigint); null before any. */
  readonly position: string | null;
  /** When it lost its subscription (ISO-8601); null while up. */
  readonly downSince: string | null;
  /** Why it lost its subscription the last time (kept once it is up again). */
  readonly lastError: string | null;
  /** Failed attempts to subscribe again since it went down (0 while up). */
  readonly retries: number;
}

export interface LogFollowersOptions {
  readonly retry?: FollowRetry;
  /** Resolves after `ms`, or at once when `signal` aborts (tests pass their own, to drive the waits). */
  readonly wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A number in [0, 1): the jitter. */
  readonly random?: () => number;
  /** The time in ms since the epoch. */
  readonly now?: () => number;
}

/** The wait before attempt `failures` (0 for the first) to subscribe again. */
export function retryDelay(retry: FollowRetry, failures: number, random: () => number): number {
  const base = Math.min(retry.maxMs, retry.firstMs * 2 ** failures);
  return Math.round(base / 2 + (random() * base) / 2);
}

function timerWait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref?.();
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The service's followers of the store's global log (`$all`): the live push and the table list. Each follows
 * from a position and, when its subscription fails (a dropped connection, a store restart, a leader change),
 * subscribes again from the last event it handled, after a backoff: so no event is lost or handled twice. The
 * registry is what `/health` reads: a follower that is down is named there, with since when and why.
 */
export class LogFollowers {
  private readonly running = new Set<LogFollower>();
  private readonly settings: Required<LogFollowersOptions>;

  constructor(options: LogFollowersOptions = {}) {
    this.settings = {
      retry: options.retry ?? DEFAULT_FOLLOW_RETRY,
      wait: options.wait ?? timerWait,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
    };
  }

  /**
   * Follows the log after `from` (exclusive; null: from its start), handing each event to `onEvent` in global
   * order. A throwing `onEvent` counts as a failure: the event is handed again after the backoff.
   */
  follow(
    name: string,
    store: EventStore,
    from: bigint | null,
    onEvent: (event: RecordedEvent) => void,
  ): LogFollower {
    const follower = new LogFollower(name, store, from, onEvent, this.settings, () =>
      this.running.delete(follower),
    );
    this.running.add(follower);
    follower.start();
    return follower;
  }

  /** Every follower still running, by name (a stopped one is not down: it was stopped). */
  statuses(): FollowerStatus[] {
    return [...this.running].map((f) => f.status()).sort((a, b) => a.name.localeCompare(b.name));
  }
}

/** One follower of the log; made and started by {@link LogFollowers.follow}. */
export class LogFollower {
  private readonly log = new Logger('log-follower');
  private readonly stopping = new AbortController();
  private subscription: Subscription | null = null;
  private up = true;
  private downSince: number | null = null;
  private lastError: string | null = null;
  private retries = 0;
  /** Failures in a row, for the backoff: reset once a subscription delivers or lasts the longest wait. */
  private failures = 0;

  constructor(
    readonly name: string,
    private readonly store: EventStore,
    private last: bigint | null,
    private readonly onEvent: (event: RecordedEvent) => void,
    private readonly settings: Required<LogFollowersOptions>,
    private readonly forget: () => void,
  ) {}

  /** The global position of the last event handled (null before any). */
  get position(): bigint | null {
    return this.last;
  }

  status(): FollowerStatus {
    return {
      name: this.name,
      up: this.up,
      position: this.last === null ? null : this.last.toString(),
      downSince: this.downSince === null ? null : new Date(this.downSince).toISOString(),
      lastError: this.lastError,
      retries: this.retries,
    };
  }

  start(): void {
    void this.run();
  }

  /** Stops following; nothing is handed to `onEvent` after this. */
  async stop(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    this.forget();
    await this.subscription?.close();
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private async run(): Promise<void> {
    let delay: number | null = null; // null: subscribe at once (the start)
    while (!this.stopped) {
      if (delay !== null) {
        await this.settings.wait(delay, this.stopping.signal);
        if (this.stopped) return;
      }
      const startedAt = this.settings.now();
      let delivered = false;
      try {
        // After a failure, subscribe only once the store answers a read: "up" then means it can.
        if (delay !== null && !(await this.storeAnswers())) return;
        const subscription = this.store.subscribeToAll(this.last === null ? {} : { fromPosition: this.last });
        this.subscription = subscription;
        this.markUp();
        for await (const event of subscription) {
          if (this.stopped) return;
          this.onEvent(event);
          this.last = event.globalPosition;
          delivered = true;
        }
        if (this.stopped) return;
        throw new Error('the subscription ended');
      } catch (error) {
        if (this.stopped) return;
        if (delivered || this.settings.now() - startedAt >= this.settings.retry.maxMs) this.failures = 0;
        delay = retryDelay(this.settings.retry, this.failures, this.settings.random);
        this.failures += 1;
        this.markDown(error, delay);
      } finally {
        const subscription = this.subscription;
        this.subscription = null;
        await subscription?.close().catch(() => undefined);
      }
    }
  }

  /** Reads the log's head; false when stopped meanwhile (a read that never answers does not hold `stop` up). */
  private async storeAnswers(): Promise<boolean> {
    const signal = this.stopping.signal;
    let onStop = (): void => undefined;
    const stopped = new Promise<void>((resolve) => {
      onStop = resolve;
      signal.addEventListener('abort', onStop, { once: true });
    });
    const read = this.store.headPosition();
    read.catch(() => undefined); // a read that fails after a stop is of no interest
    try {
      await Promise.race([read, stopped]);
    } finally {
      signal.removeEventListener('abort', onStop);
    }
    return !this.stopped;
  }

  private markUp(): void {
    if (this.up) return;
    this.log.log({
      msg: 'following the log again',
      follower: this.name,
      position: this.last?.toString() ?? null,
      downMs: this.downSince === null ? null : this.settings.now() - this.downSince,
      retries: this.retries,
    });
    this.up = true;
    this.downSince = null;
    this.retries = 0;
  }

  private markDown(error: unknown, retryInMs: number): void {
    this.lastError = error instanceof Error ? error.message : String(error);
    const wasUp = this.up;
    if (wasUp) {
      this.up = false;
      this.downSince = this.settings.now();
    } else {
      this.retries += 1;
    }
    this.log.error({
      msg: wasUp
        ? 'log subscription stopped: subscribing again from the last event handled'
        : 'log subscription still down: trying again',
      follower: this.name,
      position: this.last?.toString() ?? null,
      error: this.lastError,
      retryInMs,
    });
  }
}
