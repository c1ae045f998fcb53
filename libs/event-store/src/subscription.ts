// Catch-up-then-live subscriptions for stores that can page through their global log (memory, SQLite).
// Catch-up and live are one loop: read the page after the last delivered position; when a page comes back
// short, wait for this process's next commit (a wake-up) or a poll tick (other processes' commits). As the
// position of the last delivered event is the only cursor, there is no gap or duplicate at the hand-over,
// and at most one page is buffered however slow the consumer is.
import type { RecordedEvent, Subscription } from './types';

/** Counts commits and wakes waiting subscriptions. */
export class CommitNotifier {
  private generationValue = 0;
  private readonly waiters = new Set<() => void>();

  get generation(): number {
    return this.generationValue;
  }

  notify(): void {
    this.generationValue += 1;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves on the next notify (removable by the returned cancel). */
  onNext(wake: () => void): () => void {
    this.waiters.add(wake);
    return () => this.waiters.delete(wake);
  }
}

export type PageReader = (
  after: bigint,
  limit: number,
) => readonly RecordedEvent[] | Promise<readonly RecordedEvent[]>;

export interface PagedSubscriptionOptions {
  readonly readPage: PageReader;
  readonly from: bigint;
  readonly notifier: CommitNotifier;
  /** Poll interval while caught up, to see other processes' commits; omit when all writes are in-process. */
  readonly pollMs?: number;
  readonly pageSize?: number;
  readonly onClose?: () => void;
}

export class PagedSubscription implements Subscription {
  private closed = false;
  private wakeWaiter: (() => void) | null = null;
  private readonly iterator: AsyncGenerator<RecordedEvent, void, undefined>;

  constructor(private readonly options: PagedSubscriptionOptions) {
    this.iterator = this.run();
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    return this.iterator;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wakeWaiter?.();
    this.options.onClose?.();
  }

  private async *run(): AsyncGenerator<RecordedEvent, void, undefined> {
    const { readPage, notifier, pageSize = 256 } = this.options;
    let last = this.options.from;
    while (!this.closed) {
      const generation = notifier.generation;
      const page = await readPage(last, pageSize);
      for (const event of page) {
        if (this.closed) return;
        last = event.globalPosition;
        yield event;
      }
      if (page.length < pageSize && !this.closed) await this.waitForCommits(generation);
    }
  }

  /** Returns at once if a commit happened since `generation`; else waits for one, a poll tick, or close. */
  private waitForCommits(generation: number): Promise<void> {
    const { notifier, pollMs } = this.options;
    if (notifier.generation !== generation) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        cancel();
        if (timer) clearTimeout(timer);
        this.wakeWaiter = null;
        resolve();
      };
      const cancel = notifier.onNext(done);
      if (pollMs !== undefined) timer = setTimeout(done, pollMs);
      this.wakeWaiter = done;
    });
  }
}
