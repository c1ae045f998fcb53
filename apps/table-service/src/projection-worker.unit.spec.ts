import { workerStoreOf } from './projection-worker';

describe("the worker thread's store", () => {
  it('a SQLite store is polled at COUP_PROJECTION_POLL_MS (no commit of the service wakes another connection)', () => {
    expect(workerStoreOf({ kind: 'sqlite', file: '/data/events.sqlite', writer: 'worker' }, 250)).toEqual({
      kind: 'sqlite',
      file: '/data/events.sqlite',
      pollIntervalMs: 250,
    });
  });
  it('EventStoreDB pushes its events (no poll); the memory store has no other thread to share', () => {
    expect(
      workerStoreOf({ kind: 'eventstoredb', connectionString: 'esdb://localhost:2113?tls=false' }, 250),
    ).toEqual({ kind: 'eventstoredb', connectionString: 'esdb://localhost:2113?tls=false' });
    expect(workerStoreOf({ kind: 'memory' }, 250)).toBeNull();
  });
});
