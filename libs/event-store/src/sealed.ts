// Sealed fields: secrets inside events (an rng shoe's seed before it is revealed) encrypted at rest. A
// `SealedEventStore` wraps any adapter: on append it replaces each declared field of each declared event type with
// an AES-256-GCM sealed text, on read it opens them again, so the code above it works with plain events while the
// store (the SQLite file and its WAL, EventStoreDB, backups, copies) holds only ciphertext. The adapter hashes and
// chains what it stores, the sealed text: a chain verifies without the key, and a reader that needs no secret (the
// projections, replay and verify, the live push) reads the adapter itself.
//
// A sealed value is the text `sealed:v1:<key id>:<base64url(iv | ciphertext | tag)>` in place of the field's value
// (so a field that held a string still holds one):
// - the key id (8 hex) is derived from the key, so a value names the key that opens it and a later key can be
//   added (rotation: the first key seals, every key listed opens);
// - the associated data binds the value to its place: event type, event id and field path (a value moved to
//   another event or field does not open);
// - the 96-bit IV is HMAC-SHA256(iv key, associated data, plaintext) (a synthetic IV): sealing the same event twice
//   gives the same text, so re-appending an event (an idempotent retry) matches the stored one, and two different
//   plaintexts never share an IV short of an HMAC collision.
// The encryption key, the IV key and the key id are derived from the 32-byte key with HKDF-SHA256.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  JsonValue,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamHead,
  StreamVerification,
  SubscribeToAllOptions,
  Subscription,
  VerifyStreamOptions,
} from './types';

/** Starts every sealed value (a seed is 64 hex characters and never does). */
export const SEALED_PREFIX = 'sealed:v1:';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HKDF_INFO = 'coup sealed fields v1';

export type SealErrorCode =
  /** The value names a key that is not configured. */
  | 'SEAL_KEY_UNKNOWN'
  /** The value does not open with the key it names: changed, moved, or not a sealed value. */
  | 'SEAL_BROKEN';

/** A sealed field that cannot be opened. Nothing is ever read from it: the caller gets this error, never garbage. */
export class SealError extends Error {
  override readonly name = 'SealError';
  constructor(
    readonly code: SealErrorCode,
    message: string,
  ) {
    super(message);
  }
}

interface DerivedKey {
  readonly id: string;
  readonly cipher: Buffer;
  readonly iv: Buffer;
}

function derive(key: Uint8Array): DerivedKey {
  if (key.length !== KEY_BYTES) throw new RangeError(`a seal key is ${KEY_BYTES} bytes, not ${key.length}`);
  const okm = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), HKDF_INFO, 2 * KEY_BYTES + 4));
  return {
    cipher: okm.subarray(0, KEY_BYTES),
    iv: okm.subarray(KEY_BYTES, 2 * KEY_BYTES),
    id: okm.subarray(2 * KEY_BYTES).toString('hex'),
  };
}

/**
 * Parses keys written as text: 64 hex characters or the base64 (or base64url) of 32 bytes each, separated by
 * commas, spaces or new lines; lines starting with `#` are comments. Throws a RangeError that never quotes a key.
 */
export function parseSealKeys(text: string): Buffer[] {
  const words = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join(' ')
    .split(/[\s,]+/)
    .filter((w) => w !== '');
  if (words.length === 0) throw new RangeError('no key given');
  return words.map((word, i) => {
    const key = /^[0-9a-fA-F]{64}$/.test(word)
      ? Buffer.from(word, 'hex')
      : /^[A-Za-z0-9+/_-]{43}=?$/.test(word)
        ? Buffer.from(word, 'base64')
        : null;
    if (key === null || key.length !== KEY_BYTES)
      throw new RangeError(
        `key ${i + 1} is not 64 hex characters or the base64 of 32 bytes (e.g. \`openssl rand -hex 32\`)`,
      );
    return key;
  });
}

/** The keys that seal (the first) and open (all) sealed fields, known by their ids. */
export class SealKeys {
  private readonly byId = new Map<string, DerivedKey>();
  readonly current: DerivedKey;

  /**
   * @param keys 32 bytes each; the first seals.
   * @param source Where the keys come from (e.g. `COUP_SEED_KEY`), named in errors.
   */
  constructor(
    keys: readonly Uint8Array[],
    readonly source = 'the configured seal keys',
  ) {
    const derived = keys.map(derive);
    if (derived[0] === undefined) throw new RangeError('at least one seal key is needed');
    this.current = derived[0];
    for (const k of derived) if (!this.byId.has(k.id)) this.byId.set(k.id, k);
  }

  /** A fresh random key, for a store that never outlives the process (memory). */
  static ephemeral(): SealKeys {
    return new SealKeys([randomBytes(KEY_BYTES)], 'a key made for this process');
  }

  /** The ids of the keys, the sealing one first. */
  get ids(): string[] {
    return [...this.byId.keys()];
  }

  get(id: string): DerivedKey | undefined {
    return this.byId.get(id);
  }

  /** Logged or serialized (e.g. with the configuration), the keys show their ids only. */
  toJSON(): { ids: string[]; source: string } {
    return { ids: this.ids, source: this.source };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `SealKeys(${this.ids.join(', ')} from ${this.source})`;
  }
}

/** Per event type, the paths (property names from the event's `data`) of the fields to seal. */
export type SealedFields = Readonly<Record<string, readonly (readonly string[])[]>>;

type Json = JsonValue | undefined;

const isObject = (v: Json): v is { [k: string]: JsonValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `value` with the field at `path` replaced by `change(field)` (copied along the path), or `value` itself. */
function updateAt(value: Json, path: readonly string[], change: (field: JsonValue) => JsonValue): Json {
  if (path.length === 0) return value === undefined || value === null ? value : change(value);
  const [head, ...rest] = path as [string, ...string[]];
  if (!isObject(value) || !Object.hasOwn(value, head)) return value;
  const before = value[head];
  const after = updateAt(before, rest, change);
  return after === before ? value : { ...value, [head]: after as JsonValue };
}

/** Seals and opens the declared fields of events (see the file's comment for the format). */
export class FieldSealer {
  private readonly fields: ReadonlyMap<string, readonly (readonly string[])[]>;

  constructor(
    private readonly keys: SealKeys,
    fields: SealedFields,
  ) {
    this.fields = new Map(Object.entries(fields));
  }

  /** The event with its declared fields sealed (the same object when it has none). */
  seal<E extends Pick<NewEvent, 'id' | 'type' | 'data'>>(event: E): E {
    const paths = this.fields.get(event.type);
    if (paths === undefined) return event;
    let data: Json = event.data;
    for (const path of paths)
      data = updateAt(data, path, (value) => this.sealValue(value, context(event, path)));
    return data === event.data ? event : { ...event, data: data as JsonValue };
  }

  /** The event with its sealed fields opened (the same object when it has none). Throws SealError. */
  open<E extends Pick<NewEvent, 'id' | 'type' | 'data'>>(event: E): E {
    const paths = this.fields.get(event.type);
    if (paths === undefined) return event;
    let data: Json = event.data;
    for (const path of paths)
      data = updateAt(data, path, (value) =>
        typeof value === 'string' && value.startsWith(SEALED_PREFIX)
          ? this.openValue(value, context(event, path))
          : value,
      );
    return data === event.data ? event : { ...event, data: data as JsonValue };
  }

  /** `value` sealed for the place `aad` names. */
  sealValue(value: JsonValue, aad: string): string {
    const key = this.keys.current;
    const plain = Buffer.from(JSON.stringify(value), 'utf8');
    const iv = createHmac('sha256', key.iv)
      .update(aad)
      .update('\u0000')
      .update(plain)
      .digest()
      .subarray(0, IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key.cipher, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_PREFIX}${key.id}:${body.toString('base64url')}`;
  }

  /** The value sealed in `text` for the place `aad` names. Throws SealError. */
  openValue(text: string, aad: string): JsonValue {
    const [id = '', encoded = ''] = text.slice(SEALED_PREFIX.length).split(':');
    const key = this.keys.get(id);
    if (key === undefined)
      throw new SealError(
        'SEAL_KEY_UNKNOWN',
        `${describe(aad)} was sealed with key ${id || '(none)'}, but ${this.keys.source} holds only key ` +
          `${this.keys.ids.join(', ')}: configure the key it was sealed with (a new key goes first, the old ones after it)`,
      );
    const body = Buffer.from(encoded, 'base64url');
    try {
      if (body.length < IV_BYTES + TAG_BYTES) throw new Error('too short');
      const decipher = createDecipheriv('aes-256-gcm', key.cipher, body.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)),
        decipher.final(),
      ]);
      return JSON.parse(plain.toString('utf8')) as JsonValue;
    } catch {
      throw new SealError(
        'SEAL_BROKEN',
        `${describe(aad)} does not open with key ${id}: the stored value was changed or moved`,
      );
    }
  }
}

/** The associated data of a field: where it is (type, id, path). */
function context(event: Pick<NewEvent, 'id' | 'type'>, path: readonly string[]): string {
  return `${event.type}\u0000${String(event.id).toLowerCase()}\u0000${path.join('.')}`;
}

function describe(aad: string): string {
  const [type, id, path] = aad.split('\u0000');
  return `The sealed field ${path} of event ${id} (${type})`;
}

/**
 * An event store whose declared fields are sealed at rest (see the file's comment). Events read through it carry
 * the opened values with the stored event's `hash` and `prevHash`, which cover the sealed text: check a chain on
 * the wrapped store (`verifyStream` here delegates to it). Reading a sealed field that does not open throws
 * SealError from the read.
 */
export class SealedEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly sealer: FieldSealer,
  ) {}

  appendToStream(
    stream: string,
    events: readonly NewEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult> {
    let sealed: readonly NewEvent[];
    try {
      sealed = Array.isArray(events) ? events.map((e) => this.sealer.seal(e)) : events;
    } catch (error) {
      return Promise.reject(error);
    }
    return this.inner.appendToStream(stream, sealed, options);
  }

  async *readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent> {
    for await (const e of this.inner.readStream(stream, options)) yield this.sealer.open(e);
  }

  async *readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent> {
    for await (const e of this.inner.readAll(options)) yield this.sealer.open(e);
  }

  subscribeToAll(options?: SubscribeToAllOptions): Subscription {
    const inner = this.inner.subscribeToAll(options);
    const sealer = this.sealer;
    return {
      close: () => inner.close(),
      async *[Symbol.asyncIterator]() {
        for await (const e of inner) yield sealer.open(e);
      },
    };
  }

  streamHead(stream: string): Promise<StreamHead | null> {
    return this.inner.streamHead(stream);
  }

  headPosition(): Promise<bigint | null> {
    return this.inner.headPosition();
  }

  verifyStream(stream: string, options?: VerifyStreamOptions): Promise<StreamVerification> {
    return this.inner.verifyStream(stream, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
