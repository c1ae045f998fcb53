/**
 * The rows of a SQLite store's own latest commits, kept for its subscriptions: a caught-up subscription reads
 * what was just committed from here, not the file.
 */
import { rowOf, type StoredRow, toRecorded } from './core';
import type { WriteOutcome, WriteRequest } from './sqlite-writer';
import type { RecordedEvent } from './types';
import type { UpcasterRegistry } from './upcasting';

/** How many of its own latest committed rows the store keeps for its subscriptions (twice this at most). */
const RECENT_ROWS = 2048;

export class RecentCommits {
  /** Strictly in position order (at most 2 x RECENT_ROWS), each with its recorded event once made. */
  private rows: { readonly row: StoredRow; event?: RecordedEvent }[] = [];

  constructor(private readonly upcasters: UpcasterRegistry | undefined) {}

  /** Keeps the rows a commit inserted (as the file now holds them) for the subscriptions. */
  remember(batch: readonly WriteRequest[], outcomes: readonly WriteOutcome[], recordedAt: string): void {
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (!outcome?.ok || !outcome.inserted) return;
      const { firstPosition, hashes } = outcome.inserted;
      const n = item.events.length;
      if (hashes.length !== n) return;
      const firstRevision = outcome.result.nextExpectedRevision - BigInt(n - 1);
      let prevHash = outcome.inserted.prevHash;
      for (let k = 0; k < n; k++) {
        const event = item.events[k]!;
        const globalPosition = firstPosition + BigInt(k);
        const newest = this.rows[this.rows.length - 1];
        if (newest && newest.row.globalPosition >= globalPosition) this.rows = []; // never out of order
        this.rows.push({
          row: {
            globalPosition,
            ...rowOf(item.stream, firstRevision + BigInt(k), event, recordedAt, prevHash, hashes[k]!),
          },
        });
        prevHash = hashes[k]!;
      }
    });
    if (this.rows.length > 2 * RECENT_ROWS) this.rows = this.rows.slice(-RECENT_ROWS);
  }

  /**
   * The page after `after` from this store's own latest commits, when every position from `after + 1` to the
   * newest row kept is one of them: the kept rows are strictly increasing, so `newest - after` of them ending at
   * the newest and starting at `after + 1` leave no position for another process's row in between. Null
   * otherwise (read the file): nothing newer of ours, a gap, or older than what is kept. Rows another process
   * commits after ours are read from the file at the next wake-up or poll.
   */
  page(after: bigint, limit: number): RecordedEvent[] | null {
    const recent = this.rows;
    const newest = recent[recent.length - 1];
    if (!newest || after >= newest.row.globalPosition) return null;
    const count = newest.row.globalPosition - after;
    if (count > BigInt(recent.length)) return null;
    const start = recent.length - Number(count);
    if (recent[start]!.row.globalPosition !== after + 1n) return null;
    const end = Math.min(recent.length, start + limit);
    const events: RecordedEvent[] = new Array(end - start);
    for (let i = start; i < end; i++) {
      const kept = recent[i]!;
      events[i - start] = kept.event ??= toRecorded(kept.row, this.upcasters);
    }
    return events;
  }
}
