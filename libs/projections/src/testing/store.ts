/** Test and benchmark helper: appends table events to a store the way the service does (stream, metadata). */
import { randomUUID } from 'node:crypto';
import type { AppendResult, EventStore, NewEvent, RecordedEvent } from '@coup/event-store';
import { EVENT_SCHEMA_VERSION, type TableEvent, tableStream } from '@coup/table';

/** The events as the store's new events, with the service's metadata. */
export function toNewEvents(events: readonly TableEvent[], commandType = 'Test'): NewEvent[] {
  const correlationId = randomUUID();
  return events.map((e) => {
    const d = e.data as { by?: string; actorId?: string; role?: string };
    const who = d.by === 'dealer' || d.by === 'timer' || d.by === 'player' ? d.actorId : d.by;
    return {
      id: randomUUID(),
      type: e.type,
      data: e.data as unknown as NewEvent['data'],
      metadata: {
        schemaVersion: EVENT_SCHEMA_VERSION[e.type] ?? 1,
        commandId: correlationId,
        commandType,
        actor: who && d.role ? `${d.role}:${who}` : undefined,
        correlationId,
      },
    };
  });
}

/** Appends a table's events to `table-<tableId>`. */
export function appendTable(
  store: EventStore,
  tableId: string,
  events: readonly TableEvent[],
): Promise<AppendResult> {
  return store.appendToStream(tableStream(tableId), toNewEvents(events), { expectedRevision: 'any' });
}

/** Every event of the store, in global order. */
export async function allEvents(store: EventStore): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const e of store.readAll()) out.push(e);
  return out;
}
