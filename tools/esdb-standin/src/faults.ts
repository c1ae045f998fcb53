// Fault injection: what a test makes a stand-in node do that a healthy server would not, each fault a failure the
// EventStoreDB documentation or its source says a client must expect.

/**
 * What happens to an append:
 * - `timeout-after-write`: the events are written, and the client is told the write timed out, as a server does
 *   when a write misses its commit timeout after it reached the log (server docs, configuration/db-config.md
 *   "Prepare and Commit timeouts": the server answers a timeout, the write may still be committed);
 * - `timeout-before-write`: the client is told the write timed out, and nothing is written;
 * - `unavailable-after-write` / `unavailable-before-write`: the call ends as a dropped connection ends it
 *   (UNAVAILABLE), after or before the events reach the log;
 * - `hang`: the call is never answered (a server that accepts the request and stalls).
 */
export type AppendFault =
  | 'timeout-after-write'
  | 'timeout-before-write'
  | 'unavailable-after-write'
  | 'unavailable-before-write'
  | 'hang';

export class Faults {
  private appendFaults: { fault: AppendFault; stream: string | null }[] = [];
  /** Reads and subscriptions are accepted and never answered. */
  hangReads = false;
  /**
   * Called with the stream before each append is checked: the test's chance to write first, as another client, or to
   * act once the server has received an append. The append waits for a promise it returns (a commit held back).
   */
  beforeAppend: ((stream: string) => void | Promise<void>) | null = null;
  /**
   * Reads and subscriptions of the streams it accepts (`$all` for reads of and subscriptions to `$all`) end as a
   * dropped connection ends them (UNAVAILABLE); other reads are answered.
   */
  dropReads: ((stream: string) => boolean) | null = null;
  /** Every commit takes this long; one longer than the write timeout is answered as a timeout and lands later. */
  commitDelayMs = 0;
  /** The writes answered as timed out that have not landed yet. */
  private readonly late = new Set<Promise<void>>();

  /** Lands `write` in `ms` (a commit that missed its timeout), counted until it has. */
  landLater(write: () => void, ms: number): void {
    const landed = new Promise<void>((resolve) =>
      setTimeout(() => {
        write();
        resolve();
      }, ms).unref(),
    );
    this.late.add(landed);
    void landed.then(() => this.late.delete(landed));
  }

  /** Resolves once every write answered as timed out so far has landed. */
  async lateWritesLanded(): Promise<void> {
    while (this.late.size > 0) await Promise.all([...this.late]);
  }

  /** The next `times` appends (to `stream`, or to any stream) meet `fault`. */
  failAppends(fault: AppendFault, options: { stream?: string; times?: number } = {}): void {
    for (let i = 0; i < (options.times ?? 1); i++)
      this.appendFaults.push({ fault, stream: options.stream ?? null });
  }

  /** The fault the next append to `stream` meets (and consumes), or null. */
  take(stream: string): AppendFault | null {
    const index = this.appendFaults.findIndex((f) => f.stream === null || f.stream === stream);
    if (index < 0) return null;
    const [taken] = this.appendFaults.splice(index, 1);
    return taken?.fault ?? null;
  }

  /** Faults not yet met. */
  get pendingAppendFaults(): number {
    return this.appendFaults.length;
  }

  reset(): void {
    this.appendFaults = [];
    this.hangReads = false;
    this.beforeAppend = null;
    this.dropReads = null;
    this.commitDelayMs = 0;
  }
}
