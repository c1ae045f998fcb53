/** Test helpers: table events as recorded projection events (positions, revisions and stand-in hashes). */
import type { TableEvent } from '@coup/table';
import type { ProjectionEvent } from '../read-models/kernel/types';

/** A numbered stand-in hash (tests of the folds do not check the chain). */
export const fakeHash = (n: number): string => n.toString(16).padStart(64, '0');

/** Numbers events of one table as a stream starting at `revision` and global `position` (both of the first). */
export function recorded(
  tableId: string,
  events: readonly TableEvent[],
  from: { position: number; revision: number } = { position: 1, revision: 0 },
): ProjectionEvent[] {
  return events.map((event, i) => ({
    tableId,
    event,
    position: from.position + i,
    revision: from.revision + i,
    recordedAt: (event.data as { at: string }).at,
    prevHash: fakeHash(from.position + i - 1),
    hash: fakeHash(from.position + i),
    actor: null,
    commandId: null,
  }));
}

/** Numbers a whole history (events of one table) from position 1. */
export class Recorder {
  private position = 0;
  private readonly revisions = new Map<string, number>();

  record(tableId: string, events: readonly TableEvent[]): ProjectionEvent[] {
    const revision = this.revisions.get(tableId) ?? 0;
    const out = recorded(tableId, events, { position: this.position + 1, revision });
    this.position += events.length;
    this.revisions.set(tableId, revision + events.length);
    return out;
  }
}
