// @coup/event-store/testing: test support, kept out of the library's main entry so that no production process
// (the service, its projection worker, the CLI) loads it. Resolved from the sources by tsconfig.base.json's paths
// and jest.preset.js's moduleNameMapper; not part of the built library (tsconfig.lib.json excludes src/testing).
// The contract suites (contract.ts, snapshot-contract.ts) use Jest's globals: specs import them by relative path.

// An in-memory stand-in for the EventStoreDB client, so the service's tests run the EventStoreDB adapter (several
// adapters on one fake client: several machines on one server) without a server.
export { FakeEsdbClient } from './fake-esdb-client';
