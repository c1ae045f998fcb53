/** Reading a hand: its index record, the stored state before it, and a bounded span of its table stream. */
import { tableStream } from '@coup/table';
import type { EventStore, RecordedEvent } from '@coup/event-store';
import type { TableState } from '@coup/table';
import type { HandRecord } from '../read-models/hand-history/wire';
import { type Check, type HandSource, ReplayError } from './types';

/** The table's stream (its name is defined once, in @coup/table). */
export const streamOf = tableStream;

export async function readSpan(
  store: EventStore,
  stream: string,
  from: number,
  count: number,
): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const e of store.readStream(stream, { fromRevision: BigInt(from), maxCount: count }))
    out.push(e);
  return out;
}

/** The hand's index record and the stored state its replay starts from. */
export async function indexed(
  src: HandSource,
  tableId: string,
  roundNo: number,
): Promise<{ hand: HandRecord; start: TableState }> {
  const hand = await src.readModels.hand(tableId, roundNo);
  const start = hand ? await src.readModels.stateBefore(tableId, hand.replayFrom.roundNo) : null;
  if (!hand || !start)
    throw new ReplayError('UNKNOWN_HAND', `No hand ${roundNo} at table ${tableId} in the hand history`);
  return { hand, start };
}

/** Where an event is, as a check names it. */
export const ref = (e: RecordedEvent) => ({
  revision: Number(e.streamRevision),
  position: Number(e.globalPosition),
  type: e.type,
});

/** A failed check about the event `e`. */
export const failedAt = (name: Check['name'], detail: string, e: RecordedEvent): Check => ({
  name,
  status: 'fail',
  detail,
  event: ref(e),
});
