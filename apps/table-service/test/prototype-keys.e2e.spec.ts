/**
 * Keys named like Object.prototype's members (`toString`, `prototype`, `hasOwnProperty`, `constructor`...) are
 * refused like any unknown key, wherever a client sends them: in table rules (400 INVALID_RULES, as `foo`), in a
 * body (400 VALIDATION_FAILED, unknown field) and in a query (400 INVALID_QUERY). None is dropped in silence, and a
 * refused request opens nothing.
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

const KEYS = ['toString', 'prototype', 'hasOwnProperty', 'constructor', 'valueOf', 'isPrototypeOf', 'foo'];
const idOf = (key: string, n: number) => `K${n}${key.replace(/[^A-Za-z]/g, '')}`;

it.each(KEYS)('a rules key %p is refused as unknown: 400 INVALID_RULES, no table', async (key) => {
  const cases: [string, string][] = [
    [`{"${key}": 1}`, key],
    [`{"limits": {"${key}": {"min": 100}}}`, `limits.${key}`],
    [`{"limits": {"tie": {"min": 100, "${key}": 1}}}`, `limits.tie.${key}`],
  ];
  for (const [i, [rules, field]] of cases.entries()) {
    const tableId = idOf(key, i);
    const res = await h.api('POST', '/api/tables', { raw: `{"tableId": "${tableId}", "rules": ${rules}}` });
    expect([res.status, res.body.code, res.body.details?.field, res.body.message]).toEqual([
      400,
      'INVALID_RULES',
      field,
      expect.anything(),
    ]);
  }
  const list = JSON.stringify((await h.api('GET', '/api/tables')).body);
  for (const i of cases.keys()) expect(list).not.toContain(idOf(key, i));
});

it('rules are an object (or null for the defaults), checked as before', async () => {
  for (const rules of ['5', '"rng"', '[]', 'true']) {
    const res = await h.api('POST', '/api/tables', { raw: `{"tableId": "R1", "rules": ${rules}}` });
    expect([res.status, res.body.code, res.body.message]).toEqual([
      400,
      'VALIDATION_FAILED',
      'rules must be an object',
    ]);
  }
  const both = await h.api('POST', '/api/tables', { raw: '{"tableId": "bad id", "rules": 5}' });
  expect([both.status, both.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  expect((await h.api('POST', '/api/tables', { raw: '{"tableId": "R1", "rules": null}' })).status).toBe(201);
  const r2 = await h.api('POST', '/api/tables', {
    body: { tableId: 'R2', rules: { decks: 6, limits: { tie: { max: 50_000 } } } },
  });
  expect([r2.status, r2.body.rules.decks, r2.body.rules.limits.tie.max]).toEqual([201, 6, 50_000]);
});

describe('body fields', () => {
  beforeAll(async () => {
    expect((await h.api('POST', '/api/tables', { body: { tableId: 'B1' } })).status).toBe(201);
    await h.api('POST', '/api/tables/B1/players/p1/buy-in', { body: { amount: 100_000 } });
    await h.api('POST', '/api/tables/B1/shoes', { token: h.token('dealer') });
    expect((await h.api('POST', '/api/tables/B1/rounds', { token: h.token('dealer') })).status).toBe(201);
  });

  it.each(KEYS)('%p beside the fields of a body is an unknown field: 400 VALIDATION_FAILED', async (key) => {
    const routes: [string, string, string][] = [
      ['/api/tables', `{"tableId": "${idOf(key, 9)}", "${key}": 1}`, 'admin'],
      ['/api/tables/B1/players/p1/buy-in', `{"amount": 100, "${key}": 1}`, 'admin'],
      [
        '/api/tables/B1/rounds/1/bets',
        `{"playerId": "p1", "spot": "player", "amount": 100, "${key}": 1}`,
        'player',
      ],
      ['/api/tables/B1/rounds/1/void', `{"reason": "a reason", "${key}": 1}`, 'supervisor'],
    ];
    for (const [path, raw, role] of routes) {
      const token = role === 'player' ? h.token('player', 'p1') : h.token(role as 'admin');
      const res = await h.api('POST', path, { raw, token });
      expect([path, res.status, res.body.code]).toEqual([path, 400, 'VALIDATION_FAILED']);
      expect(res.body.message).toContain(`unknown field '${key}'`);
    }
    const nested: [string, string, string][] = [
      ['/api/tables/B1/players/p1/buy-in', `{"amount": {"${key}": 1}}`, `amount.${key}`],
      ['/api/tables/B1/players/p1/buy-in', `{"amount": [1, {"${key}": {}}]}`, `amount.1.${key}`],
      ['/api/tables', `{"tableId": {"a": [{"${key}": 1}]}}`, `tableId.a.0.${key}`],
    ];
    for (const [path, raw, field] of nested) {
      const res = await h.api('POST', path, { raw });
      expect([raw, res.status, res.body.code]).toEqual([raw, 400, 'VALIDATION_FAILED']);
      if (key !== 'foo') expect(res.body.message).toBe(`unknown field '${field}'`);
    }
    const table = (await h.api('GET', '/api/tables/B1')).body;
    expect(table.phase).toBe('betting');
    expect(table.players).toEqual([expect.objectContaining({ playerId: 'p1', chips: 100_000 })]);
  });
});

it.each([...KEYS, '__proto__'])('a query parameter %p is unknown: 400 INVALID_QUERY', async (key) => {
  const res = await h.api('GET', `/api/stats?${key}=1`);
  expect([res.status, res.body.code]).toEqual([400, 'INVALID_QUERY']);
});
