// The EventStoreDB stand-in: a protocol-level test double of EventStoreDB's gRPC client API (see ../README.md).
export { type AppendRefusal, type StandinOptions, type ServedCall, DEFAULT_OPTIONS } from './context';
export { type AppendFault, Faults } from './faults';
export { DELETED_STREAM, recordSize, sizeOnDisk, StandinLog, type StoredEvent } from './log';
export { type NodeRole, StandinCluster, StandinNode, startStandin, startStandinCluster } from './node';
