import { tableStream } from '@coup/table';
import type { EventStore } from '@coup/event-store';
import { keyEntryOf, type KeyEntry, type KeyIndex } from './idempotency';
import type { TableSession } from './table-session';

const DAY_MS = 86_400_000;
/** Keys written to the index per write while it is filled from the stream. */
const FILL_CHUNK = 1_000;

/** The oldest `recordedAt` whose key is still kept, `days` before `now`. */
export function keysCutoff(days: number, now = Date.now()): string {
  return new Date(now - days * DAY_MS).toISOString();
}

/**
 * Makes the key index complete up to the session's revision (ADR-14): the keys of the stream after the index's
 * watermark (and within the retention), read backwards from the session's revision. Runs once per session, before
 * its first keyed command, and only where the index is behind (a first start on a store, or a lost index file).
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
    for await (const e of store.readStream(tableStream(session.tableId), {
      direction: 'backwards',
      fromRevision: session.revision,
    })) {
      if (e.streamRevision < from || e.recordedAt < cutoff) break;
      const entry = keyEntryOf(e);
      if (entry) entries.push(entry);
      if (entries.length >= FILL_CHUNK) {
        keys.record(session.tableId, entries, null);
        entries = [];
      }
    }
    keys.record(session.tableId, entries, session.revision);
  }
  session.keysComplete = true;
}
