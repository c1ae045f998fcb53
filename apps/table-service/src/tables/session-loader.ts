import type { Logger } from '@nestjs/common';
import { tableStream } from '@coup/table';
import type { EventStore } from '@coup/event-store';
import type { Metrics } from '../common/metrics';
import type { KeyIndex } from './idempotency';
import { loadSnapshot } from './snapshots';
import { TableSession } from './table-session';

/**
 * A table's session as loading finds it, before its catch-up (ADR-7, ADR-14): at its newest snapshot that matches the
 * stream (or empty), and with the key index checked against the store: an index that names revisions the store does
 * not have (a store restored from a backup) is started again, and the session knows whether the index is complete
 * up to its revision.
 */
export async function openSession(
  store: EventStore,
  keys: KeyIndex,
  tableId: string,
  report: { readonly log: Logger; readonly metrics: Metrics },
): Promise<TableSession> {
  const session = new TableSession(tableId);
  session.lastUsed = Date.now();
  const snapshot = await loadSnapshot(store, tableId, (reason, revision) => {
    report.metrics.snapshotsDiscarded.inc();
    report.log.warn({ msg: 'snapshot discarded', tableId, snapshotRevision: revision, reason });
  });
  if (snapshot) {
    session.state = snapshot.state;
    session.revision = snapshot.revision;
  }
  const watermark = keys.watermark(tableId);
  if (watermark >= 0n && watermark > ((await store.streamHead(tableStream(tableId)))?.revision ?? -1n)) {
    report.log.warn({
      msg: 'key index ahead of the store: rebuilt from the stream',
      tableId,
      watermark: String(watermark),
    });
    keys.forget(tableId);
  }
  session.keysComplete = keys.watermark(tableId) >= session.revision;
  return session;
}
