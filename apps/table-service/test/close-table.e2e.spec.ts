/**
 * Closing a table over HTTP: refused while players hold chips (409 PLAYERS_SEATED, nothing recorded), closed with
 * a recorded cash-out of every player on `?cashOutAll=true`, a retry with the same Idempotency-Key answered by the
 * first answer across a restart. And the console's card spellings (`10h`, lower case) taken by the API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);
// our own data folder: the harness removes the folders it makes itself when it closes, and this test restarts
const dataDir = mkdtempSync(join(tmpdir(), 'coup-close-'));
let h: Harness;
beforeAll(async () => {
  h = await startService({}, {}, dataDir);
});
afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function revisionOf(tableId: string): Promise<number> {
  return (await h.api('GET', `/api/tables/${tableId}`, { token: h.token('admin') })).body.revision;
}

it('refuses to close with players holding chips, then closes with every player cashed out (retry-safe)', async () => {
  const admin = h.token('admin');
  expect((await h.api('POST', '/api/tables', { token: admin, body: { tableId: 'CL1' } })).status).toBe(201);
  for (const [playerId, amount] of [
    ['ann', 10_000],
    ['bob', 2500],
  ] as const) {
    const r = await h.api('POST', `/api/tables/CL1/players/${playerId}/buy-in`, {
      token: admin,
      body: { amount },
    });
    expect(r.status).toBe(200);
  }
  const before = await revisionOf('CL1');

  const refused = await h.api('DELETE', '/api/tables/CL1', { token: admin });
  expect(refused.status).toBe(409);
  expect(refused.body).toMatchObject({ code: 'PLAYERS_SEATED', details: { players: ['ann', 'bob'] } });
  const bad = await h.api('DELETE', '/api/tables/CL1?cashOutAll=yes', { token: admin });
  expect(bad.status).toBe(400);
  expect(bad.body.code).toBe('INVALID_COMMAND');
  expect(await revisionOf('CL1')).toBe(before); // nothing recorded

  const key = { 'Idempotency-Key': 'close-CL1-1' };
  const closed = await h.api('DELETE', '/api/tables/CL1?cashOutAll=true', { token: admin, headers: key });
  expect(closed.status).toBe(200);
  expect(closed.body).toMatchObject({
    tableId: 'CL1',
    closed: true,
    cashedOut: [
      { playerId: 'ann', paid: 10_000, commissionCollected: 0 },
      { playerId: 'bob', paid: 2500, commissionCollected: 0 },
    ],
  });
  const after = await revisionOf('CL1');

  // the same request again after a restart: the first answer, nothing new recorded
  await h.close();
  h = await startService({}, {}, dataDir);
  const retried = await h.api('DELETE', '/api/tables/CL1?cashOutAll=true', {
    token: h.token('admin'),
    headers: key,
  });
  expect([retried.status, retried.body]).toEqual([200, closed.body]);
  expect(retried.body).toEqual(closed.body);
  expect(await revisionOf('CL1')).toBe(after);

  const view = await h.api('GET', '/api/tables/CL1', { token: h.token('admin') });
  expect(view.body).toMatchObject({ phase: 'closed', players: [] });
});

it('takes a card as the console spells it (10h, lower case) and records the engine spelling', async () => {
  const admin = h.token('admin');
  const dealer = h.token('dealer');
  expect(
    (
      await h.api('POST', '/api/tables', {
        token: admin,
        body: { tableId: 'SP1', rules: { dealing: 'live' } },
      })
    ).status,
  ).toBe(201);
  const shoe = await h.api('POST', '/api/tables/SP1/shoes', { token: dealer, body: { firstCard: '10h' } });
  expect(shoe.status).toBe(201);
  expect((await h.api('POST', '/api/tables/SP1/rounds', { token: dealer })).status).toBe(201);
  expect((await h.api('POST', '/api/tables/SP1/rounds/1/close', { token: dealer })).status).toBe(200);
  const dealt = await h.api('POST', '/api/tables/SP1/rounds/1/cards', {
    token: dealer,
    body: { card: 'ks' },
  });
  expect(dealt.status).toBeLessThan(300);
  const view = await h.api('GET', '/api/tables/SP1', { token: dealer });
  expect(view.body.shoe.burn.card).toBe('Th');
  expect(view.body.round.cards[0].card).toBe('Ks');
});
