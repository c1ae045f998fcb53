/**
 * The staff accounts kept in the event store: the `staff` stream folded into a directory, and commands decided on
 * it and appended with the stream's expected revision (a write that loses a race to another process reads the
 * tail and decides again). Shared by the service and the CLI (`coup staff add`).
 */
import { randomUUID } from 'node:crypto';
import type { EventStore, JsonValue, NewEvent, RecordedEvent } from '@coup/event-store';
import {
  decide,
  EMPTY_DIRECTORY,
  evolveAll,
  STAFF_EVENT_TYPES,
  STAFF_STREAM,
  type StaffCommand,
  type StaffDecision,
  type StaffDirectory,
  type StaffEvent,
} from './staff';

/** Who caused a command, recorded in its events' metadata; `keyed` when it is sent with an idempotency key. */
export interface StaffCommandContext {
  readonly actor: string;
  readonly correlationId?: string;
  readonly keyed?: KeyedStaffCommand;
}

/**
 * An idempotent command (the service's Idempotency-Key). After every catch-up, in the store's lane, it is asked
 * whether the stream already records its key: then nothing is decided or appended (also when a lost race shows
 * another process recorded it). Otherwise each of its events takes the id and metadata `stamp` gives.
 */
export interface KeyedStaffCommand {
  readonly recorded: () => boolean;
  /** The id and extra metadata of the command's event `index` (`last`: its last), the directory `after` them all. */
  readonly stamp: (
    index: number,
    last: boolean,
    after: StaffDirectory,
  ) => { readonly id: string; readonly metadata: Readonly<Record<string, JsonValue>> };
}

export interface StaffOutcome {
  /** The decider's decision (a keyed no-op's StaffCommandUnchanged is not among its events). */
  readonly decision: StaffDecision;
  /** The directory after the command's events. */
  readonly directory: StaffDirectory;
  /** The command's key was found recorded: nothing was decided (a keyed command only). */
  readonly keyRecorded?: true;
}

export interface StaffStoreOptions {
  /** Sees every staff event read, before it is folded (the service folds its idempotency keys from them). */
  readonly onRead?: (events: readonly RecordedEvent[]) => Promise<void> | void;
}

const MAX_ATTEMPTS = 50;
const KNOWN_TYPES: ReadonlySet<string> = new Set(STAFF_EVENT_TYPES);

export class StaffStore {
  private current: StaffDirectory = EMPTY_DIRECTORY;
  /** The stream revision folded so far (-1n: none). */
  private revision = -1n;
  private position: bigint | null = null;
  /** Commands and catch-ups run one at a time, so a fold never runs beside an append. */
  private lane: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: EventStore,
    private readonly options: StaffStoreOptions = {},
  ) {}

  /** The directory as far as this process has folded the stream. */
  get directory(): StaffDirectory {
    return this.current;
  }

  /** The global position of the last staff event folded (null: none). */
  get lastPosition(): bigint | null {
    return this.position;
  }

  /** Folds whatever the stream has beyond what is folded. */
  catchUp(): Promise<StaffDirectory> {
    return this.exclusive(() => this.readTail());
  }

  /** Catches up, decides, appends; a lost race reads the tail and decides again. */
  execute(command: StaffCommand, context: StaffCommandContext): Promise<StaffOutcome> {
    return this.exclusive(async () => {
      for (let attempt = 1; ; attempt++) {
        await this.readTail();
        if (context.keyed?.recorded())
          return { decision: { events: [], refusal: null }, directory: this.current, keyRecorded: true };
        const decision = decide(command, this.current);
        const events = toRecord(decision, command, context);
        if (events.length === 0) return { decision, directory: this.current };
        try {
          await this.store.appendToStream(STAFF_STREAM, newEvents(events, context, this.current), {
            expectedRevision: this.revision < 0n ? 'no_stream' : this.revision,
          });
        } catch (error) {
          if (lostRace(error, context) && attempt < MAX_ATTEMPTS) continue;
          throw error;
        }
        // Fold what was appended from the store itself (positions and all), so the directory is the stream's.
        await this.readTail();
        return { decision, directory: this.current };
      }
    });
  }

  private async readTail(): Promise<StaffDirectory> {
    const read: RecordedEvent[] = [];
    for await (const e of this.store.readStream(STAFF_STREAM, { fromRevision: this.revision + 1n }))
      read.push(e);
    if (read.length > 0) await this.options.onRead?.(read);
    this.fold(read);
    return this.current;
  }

  private fold(recorded: readonly RecordedEvent[]): void {
    if (recorded.length === 0) return;
    const events = recorded
      .filter((e) => KNOWN_TYPES.has(e.type))
      .map((e) => ({ type: e.type, data: e.data }));
    this.current = evolveAll(this.current, events as StaffEvent[]);
    const last = recorded.at(-1);
    if (last) {
      this.revision = last.streamRevision;
      this.position = last.globalPosition;
    }
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lane.then(work, work);
    this.lane = run.catch(() => undefined);
    return run;
  }
}

/**
 * What a decision records: its events; for a keyed command accepted with none (it found the account as it asked),
 * one StaffCommandUnchanged that keeps its key and answer, so a retry gets that answer and is not decided again on
 * the directory of its time (ADR-43). An unkeyed no-op or a refusal without events records nothing.
 */
function toRecord(
  decision: StaffDecision,
  command: StaffCommand,
  context: StaffCommandContext,
): readonly StaffEvent[] {
  if (decision.events.length > 0 || decision.refusal !== null || context.keyed === undefined)
    return decision.events;
  const by = 'by' in command ? command.by : context.actor;
  return [
    {
      type: 'StaffCommandUnchanged',
      data: { username: command.username, command: command.type, by, at: command.at },
    },
  ];
}

/**
 * Another process appended first: the stream moved on, or (a keyed command) it recorded the same key's event ids
 * (a store may check those first). Either way the tail is read and the command asked or decided again.
 */
function lostRace(error: unknown, context: StaffCommandContext): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'WRONG_EXPECTED_VERSION' || (context.keyed !== undefined && code === 'DUPLICATE_EVENT_ID');
}

/** A decision's events as appended: a random id each, or for a keyed command the ids and metadata it stamps. */
function newEvents(
  events: readonly StaffEvent[],
  context: StaffCommandContext,
  before: StaffDirectory,
): NewEvent[] {
  const after = context.keyed ? evolveAll(before, events) : before;
  return events.map((event, i) => {
    const keyed = context.keyed?.stamp(i, i === events.length - 1, after);
    return {
      id: keyed?.id ?? randomUUID(),
      type: event.type,
      data: event.data as unknown as JsonValue,
      metadata: {
        schemaVersion: 1,
        actor: context.actor,
        ...(context.correlationId ? { correlationId: context.correlationId } : {}),
        ...keyed?.metadata,
      },
    };
  });
}
