/**
 * The correlation id of a request: taken from a valid `x-correlation-id` header or made fresh, echoed in the
 * response header, carried in error bodies and recorded in the metadata of the events the request caused.
 */
import { EventStoreHandle } from '../src/store/event-store.provider';
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.close();
});

async function lastEventMetadata(tableId: string): Promise<Record<string, unknown>> {
  const store = h.app.get(EventStoreHandle).store;
  for await (const e of store.readStream(`table-${tableId}`, {
    direction: 'backwards',
    fromRevision: 'end',
    maxCount: 1,
  }))
    return e.metadata as Record<string, unknown>;
  throw new Error(`no events in table-${tableId}`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

it("records the header's correlation id in the events and echoes it", async () => {
  const res = await h.api('POST', '/api/tables', {
    body: { tableId: 'C1', rules: { dealing: 'live' } },
    headers: { 'x-correlation-id': 'corr-open-C1' },
  });
  expect(res.status).toBe(201);
  expect(res.headers.get('x-correlation-id')).toBe('corr-open-C1');
  expect(await lastEventMetadata('C1')).toMatchObject({ correlationId: 'corr-open-C1' });

  const buyIn = await h.api('POST', '/api/tables/C1/players/p1/buy-in', {
    body: { amount: 5000 },
    headers: { 'x-correlation-id': 'corr-buy-in' },
  });
  expect(buyIn.status).toBe(200);
  expect(await lastEventMetadata('C1')).toMatchObject({
    correlationId: 'corr-buy-in',
    actor: 'admin:admin-1',
  });
});

it('makes a fresh one when the header is missing or not valid, and records that', async () => {
  const cases: Record<string, string>[] = [
    {},
    { 'x-correlation-id': 'x'.repeat(129) },
    { 'x-correlation-id': 'has space' },
  ];
  for (const headers of cases) {
    const res = await h.api('POST', '/api/tables/C1/players/p1/buy-in', { body: { amount: 100 }, headers });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-correlation-id');
    expect(id).toMatch(UUID);
    expect(await lastEventMetadata('C1')).toMatchObject({ correlationId: id });
  }
});

it('carries the correlation id in error bodies (domain, validation and auth errors)', async () => {
  const headers = { 'x-correlation-id': 'corr-refused' };
  const domain = await h.api('POST', '/api/tables/NOPE/players/p1/buy-in', {
    body: { amount: 100 },
    headers,
  });
  expect(domain.status).toBe(404);
  expect(domain.body).toMatchObject({ code: 'UNKNOWN_TABLE', correlationId: 'corr-refused' });
  const invalid = await h.api('POST', '/api/tables/C1/players/p1/buy-in', { body: { amount: -1 }, headers });
  expect(invalid.status).toBe(400);
  expect(invalid.body).toMatchObject({ code: 'VALIDATION_FAILED', correlationId: 'corr-refused' });
  const unauthenticated = await h.api('GET', '/api/tables', { token: null, headers });
  expect(unauthenticated.status).toBe(401);
  expect(unauthenticated.body).toMatchObject({ code: 'UNAUTHENTICATED', correlationId: 'corr-refused' });
});
