// @coup/event-store: one port (`EventStore`), three adapters (memory, SQLite, EventStoreDB), the
// tamper-evident hash chain and upcasting. The contract suite every adapter passes is in
// `src/testing/contract.ts` (test-only: import it by relative path from a spec). Test support for other projects
// (the fake EventStoreDB client) is `@coup/event-store/testing` (src/testing/index.ts), never this entry: every
// production process loads this one.
export type {
  AppendOptions,
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedRevision,
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
export {
  EventStoreInputError,
  type EventStoreInputErrorCode,
  EventStoreUnavailableError,
  type EventStoreUnavailableErrorCode,
  StreamDeletedError,
  WrongExpectedVersionError,
} from './errors';
export { canonicalJson, computeEventHash, type EventHashInput, GENESIS_HASH } from './hash';
export { type Upcaster, type UpcastInput, type UpcastOutput, UpcasterRegistry } from './upcasting';
export { MAX_EVENT_BYTES, MAX_EVENT_TYPE_LENGTH, MAX_STREAM_NAME_LENGTH } from './validation';
export {
  createEventStore,
  type EventStoreConfig,
  eventStoreConfigFromEnv,
  type EventStoreOptions,
  SQLITE_FILE_NAME,
} from './factory';
export { makePrivate, preparePrivateSqliteFile, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files';
export {
  FieldSealer,
  parseSealKeys,
  SEALED_PREFIX,
  SealedEventStore,
  type SealedFields,
  SealError,
  type SealErrorCode,
  SealKeys,
} from './sealed';
export {
  appendSnapshot,
  MAX_SNAPSHOT_PARTS,
  readSnapshots,
  type ReadSnapshot,
  type Snapshot,
  SNAPSHOT_PART_CHARS,
  SNAPSHOT_PART_KEY,
  snapshotEvents,
  snapshotEventsSync,
  type SnapshotWriteOptions,
} from './snapshot-parts';
export { MemoryEventStore, type MemoryEventStoreOptions } from './memory';
export {
  SQLITE_SCHEMA,
  SqliteEventStore,
  type SqliteEventStoreConfig,
  type SqliteStoreObserver,
  type WriterStatus,
} from './sqlite';
export type { ThreadLost } from './sqlite-batch-writer';
export { EventStoreDbEventStore, type EventStoreDbConfig } from './eventstoredb';
