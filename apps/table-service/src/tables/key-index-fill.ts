import { tableStream } from '@coup/table';
import type { EventStore } from '@coup/event-store';
import type { KeyEntry, KeyIndex } from './idempotency';
import { commandEventsIn, keyEntryOf } from './key-replies';
import type { TableSession } from './table-session';

const DAY_MS = 86_400_000;
/** Keys written to the index per write while it is filled from the stream (a turn of the event loop after each). */
const FILL_CHUNK = 100;
/** Events read per turn of the event loop while the index is filled (a week of a busy table is millions). */
const FILL_EVENTS_PER_TURN = 500;
/** Keys older than the retention are pruned this often... */
const PRUNE_EVERY_MS = 3_600_000;
/** ...this many per turn of the event loop (an hour of a busy floor's keys is hundreds of thousands). */
export const PRUNE_CHUNK = 250;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The oldest `recordedAt` whose key is still kept, `days` before `now`. */
export function keysCutoff(days: number, now = Date.now()): string {
  return new Date(now - days * DAY_MS).toISOString();
}

/**
 * Makes the key index complete up to the session's revision (ADR-14): the keys of the stream after the index's
 * watermark (and within the retention), read backwards from the session's revision. Runs once per session, before
 * its first keyed command, and only where the index is behind (a first start on a store, or a lost index file);
 * other tables' requests are served between its slices (ADR-25).
 */
export async function completeKeys(
  store: EventStore,
  keys: KeyIndex,
  session: TableSession,
  days: number,
): Promise<void> {
  const from = keys.watermark(session.tableId) + 1n;
  if (from <= session.revision) {
    const cutoff = keysCutoff(days);
    let entries: KeyEntry[] = [];
    let read = 0;
    const stream = tableStream(session.tableId);
    const commandEvents = commandEventsIn(store, stream);
    for await (const e of store.readStream(stream, {
      direction: 'backwards',
      fromRevision: session.revision,
    })) {
      if (e.streamRevision < from || e.recordedAt < cutoff) break;
      // Read backwards, a command's events come after its last: a rebuilt answer reads them on its own.
      const entry = await keyEntryOf(e, [e], commandEvents);
      if (entry) entries.push(entry);
      if (entries.length >= FILL_CHUNK) {
        keys.record(session.tableId, entries, null);
        entries = [];
      }
      if (++read % FILL_EVENTS_PER_TURN === 0) await nextTurn();
    }
    keys.record(session.tableId, entries, session.revision);
  }
  session.keysComplete = true;
}

/**
 * Forgets keys past the retention (`days`) at start and every PRUNE_EVERY_MS, PRUNE_CHUNK keys per turn of the event
 * loop, one pruning at a time: never one long delete on the request thread.
 */
export class KeyPruner {
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly keys: KeyIndex,
    private readonly days: number,
    private readonly failed: (error: Error) => void,
  ) {
    void this.prune();
    this.timer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  /** Prunes now (or joins the pruning under way); resolves when done. */
  prune(): Promise<void> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** No more pruning; resolves when the one under way has stopped. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async run(): Promise<void> {
    try {
      const cutoff = keysCutoff(this.days);
      while (!this.stopped && this.keys.prune(cutoff, PRUNE_CHUNK) === PRUNE_CHUNK) await nextTurn();
    } catch (error) {
      this.failed(error as Error);
    }
  }
}
