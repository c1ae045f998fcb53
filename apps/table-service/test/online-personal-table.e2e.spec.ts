/**
 * A player's personal online table over HTTP: staff can neither bet for the player nor deal its coups, an admin
 * cannot seat anyone else there (403 PERSONAL_TABLE, nothing recorded), and the player's own game is untouched.
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

it('takes bets and deals only from its player', async () => {
  const ana = h.token('player', 'ana');
  const opened = await h.api('POST', '/api/online/tables', { token: ana });
  expect(opened.status).toBe(200);
  const round = opened.body.view.round.roundNo;
  await h.api('POST', '/api/online/tables/online-ana/buy-in', { token: ana, body: { amount: 50_000 } });
  const before = (await h.api('GET', '/api/tables/online-ana')).body;

  const refused: [string, string, string, unknown][] = [
    ['dealer', 'POST', `/rounds/${round}/bets`, { playerId: 'ana', spot: 'player', amount: 2500 }],
    ['supervisor', 'POST', `/rounds/${round}/bets`, { playerId: 'ana', spot: 'banker', amount: 2500 }],
    ['admin', 'POST', `/rounds/${round}/bets`, { playerId: 'ana', spot: 'tie', amount: 500 }],
    ['dealer', 'POST', `/rounds/${round}/close`, undefined],
    ['admin', 'POST', '/players/eve/buy-in', { amount: 10_000 }],
  ];
  for (const [role, method, path, body] of refused) {
    const res = await h.api(method, `/api/tables/online-ana${path}`, { token: h.token(role as 'dealer'), body });
    expect([role, path, res.status, res.body.code]).toEqual([role, path, 403, 'PERSONAL_TABLE']);
  }
  // eve, once seated by an admin, could have dealt ana's coups: she is never seated, so she cannot bet either
  const eve = await h.api('POST', `/api/tables/online-ana/rounds/${round}/bets`, {
    token: h.token('player', 'eve'),
    body: { playerId: 'eve', spot: 'player', amount: 500 },
  });
  expect([eve.status, eve.body.code]).toEqual([403, 'PERSONAL_TABLE']);

  expect((await h.api('GET', '/api/tables/online-ana')).body).toEqual(before);

  const placed = await h.api('POST', `/api/tables/online-ana/rounds/${round}/bets`, {
    token: ana,
    body: { playerId: 'ana', spot: 'player', amount: 2500 },
  });
  expect(placed.status).toBe(201);
  for (const role of ['dealer', 'supervisor'] as const) {
    const deal = await h.api('POST', `/api/tables/online-ana/rounds/${round}/deal`, { token: h.token(role) });
    expect([role, deal.status, deal.body.code]).toEqual([role, 403, 'PERSONAL_TABLE']);
  }
  const dealt = await h.api('POST', `/api/tables/online-ana/rounds/${round}/deal`, { token: ana });
  expect([dealt.status, dealt.body.outcome]).toEqual([200, expect.stringMatching(/^(player|banker|tie)$/)]);
});

it('an online-<player> table is opened only as the online game', async () => {
  const res = await h.api('POST', '/api/tables', { body: { tableId: 'online-zoe' } });
  expect([res.status, res.body.code]).toEqual([403, 'PERSONAL_TABLE']);
  const zoe = await h.api('POST', '/api/online/tables', { token: h.token('player', 'zoe') });
  expect([zoe.status, zoe.body.view.rules.dealtBy]).toEqual([200, 'player']);
});
