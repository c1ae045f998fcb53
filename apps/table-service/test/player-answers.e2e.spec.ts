/**
 * What a player's own command answers may carry: on a shared table a player deals (`dealtBy: 'player'`), the
 * coup's answer settles every player's bets, and the dealing player gets only its own settlements, first time and
 * on a retry with its Idempotency-Key. A player id that would not name its own personal
 * table gets no online table.
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

async function ok(method: string, path: string, body?: unknown, token?: string) {
  const res = await h.api(method, path, {
    ...(body === undefined ? {} : { body }),
    ...(token ? { token } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

type Settlement = { playerId: string; spot: string; amount: number };

it('a player who deals a shared table gets its own settlements only, on a keyed retry too', async () => {
  const dealer = h.token('dealer');
  await ok('POST', '/api/tables', { tableId: 'PD', rules: { dealing: 'rng', dealtBy: 'player' } });
  for (const p of ['alice', 'carol'])
    await ok('POST', `/api/tables/PD/players/${p}/buy-in`, { amount: 100_000 });
  await ok('POST', '/api/tables/PD/shoes', undefined, dealer);
  await ok('POST', '/api/tables/PD/rounds', undefined, dealer);
  const alice = h.token('player', 'alice');
  await ok(
    'POST',
    '/api/tables/PD/rounds/1/bets',
    { playerId: 'carol', spot: 'banker', amount: 7_700 },
    h.token('player', 'carol'),
  );
  await ok(
    'POST',
    '/api/tables/PD/rounds/1/bets',
    { playerId: 'alice', spot: 'player', amount: 1_000 },
    alice,
  );

  const deal = () =>
    h.api('POST', '/api/tables/PD/rounds/1/deal', {
      token: alice,
      headers: { 'idempotency-key': 'alice-deal-1' },
    });
  const first = await deal();
  expect(first.status).toBe(200);
  const own = (first.body.settlements as Settlement[]).map((s) => [s.playerId, s.spot, s.amount]);
  expect(own).toEqual([['alice', 'player', 1_000]]);
  expect(JSON.stringify(first.body)).not.toContain('carol');
  const again = await deal();
  expect([again.status, again.body]).toEqual([200, first.body]);
});

it('a player id that would not name its own personal table gets no online table (400, nothing opened)', async () => {
  const res = await h.api('POST', '/api/online/tables', { token: h.token('player', '_x') });
  expect([res.status, res.body.code]).toEqual([400, 'INVALID_PARAMETER']);
  const listed = (await h.api('GET', '/api/tables')).body as { tableId: string }[];
  expect(listed.map((t) => t.tableId)).not.toContain('online-_x');
});
