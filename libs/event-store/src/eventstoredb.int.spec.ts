// The contract suite against a real EventStoreDB (or KurrentDB). No server runs on the build machines, so it
// runs only when EVENTSTORE_CONNECTION_STRING is set, e.g.:
//   docker compose up -d eventstore
//   EVENTSTORE_CONNECTION_STRING='esdb://localhost:2113?tls=false' npx nx run @coup/event-store:test:int
import { EventStoreDbEventStore } from './eventstoredb';
import { runEventStoreContract } from './testing/contract';

const connectionString = process.env['EVENTSTORE_CONNECTION_STRING'];
const describeEsdb = connectionString ? describe : describe.skip;

if (!connectionString) {
  console.warn(
    'SKIPPED: the EventStoreDB contract suite did not run because EVENTSTORE_CONNECTION_STRING is not set. ' +
      "To run it: docker compose up -d eventstore && EVENTSTORE_CONNECTION_STRING='esdb://localhost:2113?tls=false' " +
      'npx nx run @coup/event-store:test:int',
  );
}

describeEsdb('EventStoreDB adapter', () => {
  jest.setTimeout(30_000);
  runEventStoreContract(
    'eventstoredb',
    async (options) => {
      const store = new EventStoreDbEventStore({
        connectionString: connectionString!,
        upcasters: options?.upcasters,
      });
      return { store, cleanup: () => store.close() };
    },
    // Stored events are immutable on the server, and it de-duplicates event ids per stream only.
    { tamperable: false, uniqueEventIds: false },
  );
});
