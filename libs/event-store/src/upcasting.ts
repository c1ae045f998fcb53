// Schema evolution on read: stored events are never rewritten; an upcaster turns version n of an event
// type into version n + 1 when the event is read, repeatedly, up to the newest version registered.
import { EventStoreInputError } from './errors';
import type { EventMetadata, JsonValue, RecordedEvent } from './types';

export interface UpcastInput {
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata: EventMetadata;
}

export interface UpcastOutput {
  readonly data: JsonValue;
  /** Replaces the metadata (its `schemaVersion` is set by the registry). Omit to keep it. */
  readonly metadata?: EventMetadata;
  /** Renames the event type. Omit to keep it. */
  readonly type?: string;
}

/** Turns `fromSchemaVersion` of an event type into `fromSchemaVersion + 1`. Must be pure. */
export type Upcaster = (event: UpcastInput) => UpcastOutput;

export class UpcasterRegistry {
  private readonly upcasters = new Map<string, Upcaster>();

  /** Registers the step from `fromSchemaVersion` to `fromSchemaVersion + 1` for `type`. */
  register(type: string, fromSchemaVersion: number, upcaster: Upcaster): this {
    if (!Number.isSafeInteger(fromSchemaVersion) || fromSchemaVersion < 1) {
      throw new EventStoreInputError('INVALID_OPTIONS', `fromSchemaVersion must be an integer >= 1`);
    }
    const key = keyOf(type, fromSchemaVersion);
    if (this.upcasters.has(key)) {
      throw new EventStoreInputError(
        'INVALID_OPTIONS',
        `An upcaster for ${type} v${fromSchemaVersion} is already registered`,
      );
    }
    this.upcasters.set(key, upcaster);
    return this;
  }

  /** The event as its newest registered version; the same object when no upcaster applies. */
  upcast(event: RecordedEvent): RecordedEvent {
    let current: RecordedEvent = event;
    for (;;) {
      const version = current.metadata.schemaVersion;
      const upcaster = this.upcasters.get(keyOf(current.type, version));
      if (!upcaster) return current;
      const next = upcaster({ type: current.type, data: current.data, metadata: current.metadata });
      current = {
        ...current,
        type: next.type ?? current.type,
        data: next.data,
        metadata: { ...(next.metadata ?? current.metadata), schemaVersion: version + 1 },
      };
    }
  }
}

const keyOf = (type: string, version: number): string => `${version}\u0000${type}`;
