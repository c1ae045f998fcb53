/**
 * The API's own page (issue 16): every command in the OpenAPI document lists one optional Idempotency-Key header
 * (it used to list a second, required `idempotency-key`, so "Try it out" could not send a request), and a command
 * executed as the page would send it (only the parameters it lists) is answered.
 */
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);
let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.close();
});

type Parameter = { name: string; in: string; required?: boolean };
type Operation = { parameters?: Parameter[] };

it('lists one optional Idempotency-Key header on every command, and no other header', async () => {
  const doc = (await h.api('GET', '/docs/openapi.json', { token: null })).body as {
    paths: Record<string, Record<string, Operation>>;
  };
  const commands: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (method === 'get') continue;
      const headers = (op.parameters ?? []).filter((p) => p.in === 'header');
      const keys = headers.filter((p) => p.name.toLowerCase() === 'idempotency-key');
      if (keys.length === 0) continue;
      commands.push(`${method} ${path}`);
      expect({ op: `${method} ${path}`, headers: headers.map((p) => [p.name, p.required ?? false]) }).toEqual(
        {
          op: `${method} ${path}`,
          headers: [['Idempotency-Key', false]],
        },
      );
    }
  }
  expect(commands).toEqual(expect.arrayContaining(['post /api/tables/{tableId}/rounds/{roundNo}/bets']));
  expect(commands.length).toBeGreaterThan(10);
});

it('answers a command sent with only what the page lists (no Idempotency-Key), and a retry with one', async () => {
  const admin = h.token('admin');
  expect((await h.api('POST', '/api/tables', { token: admin, body: { tableId: 'DOC1' } })).status).toBe(201);
  const key = { 'Idempotency-Key': 'doc-buy-1' };
  const first = await h.api('POST', '/api/tables/DOC1/players/p1/buy-in', {
    token: admin,
    body: { amount: 500 },
    headers: key,
  });
  expect(first.status).toBe(200);
  const retry = await h.api('POST', '/api/tables/DOC1/players/p1/buy-in', {
    token: admin,
    body: { amount: 500 },
    headers: key,
  });
  expect([retry.status, retry.body]).toEqual([200, first.body]);
  const view = await h.api('GET', '/api/tables/DOC1', { token: admin });
  expect(view.body.players).toMatchObject([{ playerId: 'p1', chips: 500 }]);
});

it('types the path parameters: round numbers and card indexes are integers, ids have their patterns', async () => {
  const doc = (await h.api('GET', '/docs/openapi.json', { token: null })).body as {
    paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema?: unknown }[] }>>;
  };
  const param = (path: string, method: string, name: string) =>
    doc.paths[path]![method]!.parameters!.find((p) => p.in === 'path' && p.name === name)!.schema;
  expect(param('/api/tables/{tableId}/rounds/{roundNo}/cards/{index}', 'put', 'roundNo')).toMatchObject({
    type: 'integer',
    minimum: 1,
  });
  expect(param('/api/tables/{tableId}/rounds/{roundNo}/cards/{index}', 'put', 'index')).toMatchObject({
    type: 'integer',
    minimum: 0,
    maximum: 5,
  });
  expect(param('/api/tables/{tableId}/players/{playerId}/buy-in', 'post', 'playerId')).toMatchObject({
    type: 'string',
    pattern: expect.any(String),
  });
});
