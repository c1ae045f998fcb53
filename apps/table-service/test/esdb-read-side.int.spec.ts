/**
 * The read side on EventStoreDB (issue 20, finding 8): the projections' lag is counted in events, not in the bytes
 * between two positions (EventStoreDB's positions are byte offsets in its log), and the read models fold its $all.
 */
import { EventStoreDbEventStore } from '@coup/event-store';
import { esdbForTests, type EsdbForTests } from './esdb-standin';
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);

let esdb: EsdbForTests;
const harnesses: Harness[] = [];
beforeAll(async () => {
  esdb = await esdbForTests();
});
afterAll(async () => {
  for (const h of harnesses) await h.close();
  await esdb?.close();
});

async function service(projections: 'off' | 'in-process'): Promise<Harness> {
  const h = await startService({
    COUP_EVENT_STORE: 'eventstoredb',
    EVENTSTORE_CONNECTION_STRING: esdb.connectionString,
    COUP_PROJECTIONS: projections,
  });
  harnesses.push(h);
  return h;
}

async function eventsInStore(): Promise<number> {
  const store = new EventStoreDbEventStore({ connectionString: esdb.connectionString });
  try {
    let n = 0;
    for await (const e of store.readAll()) if (e) n++;
    return n;
  } finally {
    await store.close();
  }
}

const lags = async (h: Harness) =>
  ((await h.api('GET', '/api/projections')).body as { projections: { lag: number }[] }).projections.map(
    (p) => p.lag,
  );

it('the lag of projections that have folded nothing is the number of events in the store', async () => {
  const h = await service('off');
  const tableId = `LAG${Math.random().toString(36).slice(2, 7)}`;
  expect((await h.api('POST', '/api/tables', { body: { tableId, rules: { dealing: 'rng' } } })).status).toBe(
    201,
  );
  for (const p of ['p1', 'p2', 'p3'])
    await h.api('POST', `/api/tables/${tableId}/players/${p}/buy-in`, { body: { amount: 10_000 } });
  const events = await eventsInStore();
  expect(new Set(await lags(h))).toEqual(new Set([events]));
});

it('the projections fold $all: once caught up the lag is 0 and the table is listed by the read side', async () => {
  const h = await service('in-process');
  const tableId = `RS${Math.random().toString(36).slice(2, 7)}`;
  expect((await h.api('POST', '/api/tables', { body: { tableId, rules: { dealing: 'rng' } } })).status).toBe(
    201,
  );
  const deadline = Date.now() + 20_000;
  while ((await lags(h)).some((lag) => lag > 0)) {
    if (Date.now() > deadline)
      throw new Error(`the projections did not catch up: ${JSON.stringify(await lags(h))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect((await h.api('GET', `/api/tables/${tableId}/hands`)).status).toBe(200);
});
