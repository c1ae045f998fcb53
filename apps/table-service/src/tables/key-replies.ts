/**
 * What a keyed command's last event keeps of its first answer (ADR-14), and how it is read back. A small answer is
 * kept as it is (`reply`). A large one, which repeats what its events hold (a coup's settlements, a correction's new
 * settlements, a close's cash-outs), is not stored twice: the event keeps how many events the command recorded
 * (`replyEvents`), and the answer is rebuilt from them with `replyFor`, which answers from the events alone. It is
 * kept that way only when rebuilding it from the events as the store returns them (JSON) gives the same bytes, so a
 * retry answers the first answer byte for byte. Keeping both made a keyed coup's append about a third larger (past
 * EventStoreDB's 1 MiB append for a correction of 2,000 settlements).
 */
import { replyFor, type TableCommand, type TableEvent } from '@coup/table';
import type { EventStore, JsonValue, RecordedEvent } from '@coup/event-store';
import type { KeyEntry } from './idempotency';

/** An answer whose JSON is at most this many characters is kept as it is. */
export const INLINE_REPLY_MAX_CHARS = 2048;

/** What the metadata of a keyed command's last event carries about its answer. */
export type StoredReplyFields = { readonly reply: JsonValue } | { readonly replyEvents: number };

/** The metadata fields of a keyed command's events this module reads. */
interface KeyedMetadata {
  readonly commandId?: string;
  readonly commandType?: string;
  readonly requestHash?: string;
  readonly reply?: unknown;
  readonly replyEvents?: unknown;
}

/** What the last event of a keyed command keeps of its answer `reply` to `command`, decided as `events`. */
export function storedReply(
  command: TableCommand,
  events: readonly TableEvent[],
  reply: unknown,
): StoredReplyFields {
  const json = JSON.stringify(reply);
  const inline = { reply: reply as JsonValue };
  if (json === undefined || json.length <= INLINE_REPLY_MAX_CHARS) return inline;
  const asStored = JSON.parse(
    JSON.stringify(events.map((e) => ({ type: e.type, data: e.data }))),
  ) as TableEvent[];
  return JSON.stringify(replyFor(command, asStored)) === json ? { replyEvents: events.length } : inline;
}

/** Reads the `count` events of one command, the last at revision `last`, oldest first. */
export type CommandEvents = (last: bigint, count: number) => Promise<readonly RecordedEvent[]>;

/** CommandEvents over a table's stream. */
export function commandEventsIn(store: EventStore, stream: string): CommandEvents {
  return async (last, count) => {
    const out: RecordedEvent[] = [];
    const fromRevision = last - BigInt(count) + 1n;
    for await (const e of store.readStream(stream, { fromRevision, maxCount: count })) out.push(e);
    return out;
  };
}

const metaOf = (e: RecordedEvent): KeyedMetadata => e.metadata as KeyedMetadata;

/** The command's events that end with `e`, when `events` (in stream order, ending with `e`) holds all of them. */
function lastOf(events: readonly RecordedEvent[], e: RecordedEvent, count: number): RecordedEvent[] | null {
  const own = events.slice(-count);
  return own.length === count && own.at(-1) === e && isCommand(own, e, count) ? own : null;
}

/** `events` are the `count` consecutive events of e's command, ending with `e`. */
function isCommand(events: readonly RecordedEvent[], e: RecordedEvent, count: number): boolean {
  const id = metaOf(e).commandId;
  return (
    events.length === count &&
    events.every(
      (x, i) => metaOf(x).commandId === id && x.streamRevision === e.streamRevision - BigInt(count - 1 - i),
    )
  );
}

/**
 * The key entry a recorded event carries (the last event of a keyed command), or null. An answer kept as
 * `replyEvents` is rebuilt from the command's events: taken from `recent` (events read just before, in stream order,
 * ending with `e`) when it holds them, otherwise read with `read`. Throws when they are not the command's events
 * (the stream was changed behind the service): a key must never be taken for not recorded.
 */
export async function keyEntryOf(
  e: RecordedEvent,
  recent: readonly RecordedEvent[],
  read: CommandEvents,
): Promise<KeyEntry | null> {
  const meta = metaOf(e);
  if (typeof meta.commandId !== 'string' || typeof meta.requestHash !== 'string') return null;
  const base = {
    key: meta.commandId,
    hash: meta.requestHash,
    revision: e.streamRevision,
    recordedAt: e.recordedAt,
  };
  if (Object.prototype.hasOwnProperty.call(meta, 'reply')) return { ...base, reply: meta.reply };
  const count = meta.replyEvents;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1) return null;
  const events = lastOf(recent, e, count) ?? (await read(e.streamRevision, count));
  if (!isCommand(events, e, count) || typeof meta.commandType !== 'string')
    throw new Error(
      `the answer to key ${meta.commandId} (revision ${e.streamRevision}) cannot be rebuilt: its ${count} events are not in the stream`,
    );
  const command = { type: meta.commandType } as TableCommand;
  return {
    ...base,
    reply: replyFor(
      command,
      events.map((x) => ({ type: x.type, data: x.data }) as TableEvent),
    ),
  };
}

/**
 * The events of the command being read, for keyEntryOf: `add` each event read forwards; it answers the events of
 * that event's command read so far (the current one ends when another command's event comes).
 */
export class CommandWindow {
  private events: RecordedEvent[] = [];

  add(e: RecordedEvent): readonly RecordedEvent[] {
    const id = metaOf(e).commandId;
    const previous = this.events.at(-1);
    if (previous === undefined || id === undefined || metaOf(previous).commandId !== id) this.events = [];
    this.events.push(e);
    return this.events;
  }
}
