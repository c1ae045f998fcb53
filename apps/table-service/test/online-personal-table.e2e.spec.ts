/**
 * A player's personal online table over HTTP: staff can neither bet for the player nor deal its coups, an admin
 * cannot seat anyone else there (403 PERSONAL_TABLE, nothing recorded), and the player's own game is untouched.
 * Another player can neither see it (list, view, roads, live feed: its bets are one player's stakes) nor act on it.
 */
import { startService, type Harness } from './harness';
import { WsClient } from './ws-client';

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
    const res = await h.api(method, `/api/tables/online-ana${path}`, {
      token: h.token(role as 'dealer'),
      body,
    });
    expect([role, path, res.status, res.body.code]).toEqual([role, path, 403, 'PERSONAL_TABLE']);
  }
  // eve, once seated by an admin, could have dealt ana's coups: she is never seated, and another player's own table
  // is refused before it is loaded
  const eve = await h.api('POST', `/api/tables/online-ana/rounds/${round}/bets`, {
    token: h.token('player', 'eve'),
    body: { playerId: 'eve', spot: 'player', amount: 500 },
  });
  expect([eve.status, eve.body.code]).toEqual([403, 'FORBIDDEN']);

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

it("another player can neither list, view, follow nor read the roads of a player's own table; staff can", async () => {
  const bo = h.token('player', 'bo');
  const opened = await h.api('POST', '/api/online/tables', { token: bo });
  expect(opened.status).toBe(200);
  const round = opened.body.view.round.roundNo;
  await h.api('POST', '/api/online/tables/online-bo/buy-in', { token: bo, body: { amount: 50_000 } });
  await h.api('POST', `/api/tables/online-bo/rounds/${round}/bets`, {
    token: bo,
    body: { playerId: 'bo', spot: 'banker', amount: 2500 },
  });
  const spy = h.token('player', 'spy');
  const listed = async (token: string) =>
    ((await h.api('GET', '/api/tables', { token })).body as { tableId: string }[]).map((t) => t.tableId);
  expect(await listed(spy)).not.toContain('online-bo');
  expect(await listed(bo)).toContain('online-bo');
  expect(await listed(h.token('supervisor'))).toContain('online-bo');
  for (const path of [
    '/api/tables/online-bo',
    '/api/tables/online-bo/roads',
    '/api/tables/online-bo/hands',
  ]) {
    const res = await h.api('GET', path, { token: spy });
    expect([path, res.status, res.body.code]).toEqual([path, 403, 'FORBIDDEN']);
    expect(JSON.stringify(res.body)).not.toContain('2500');
  }
  expect((await h.api('GET', '/api/tables/online-bo', { token: h.token('supervisor') })).status).toBe(200);
  // a command on another player's table, or on one that does not exist, answers alike: whether it exists is not told
  for (const tableId of ['online-bo', 'online-nobody']) {
    const res = await h.api('POST', `/api/tables/${tableId}/rounds/1/bets`, {
      token: spy,
      body: { playerId: 'spy', spot: 'player', amount: 500 },
    });
    expect([tableId, res.status, res.body.code]).toEqual([tableId, 403, 'FORBIDDEN']);
  }

  const ws = await WsClient.open(`${h.url.replace('http', 'ws')}/ws?token=${spy}`);
  ws.send({ type: 'subscribe', tableId: 'online-bo' });
  await ws.until((f) => f.some((m) => m.type === 'error'), 'the refusal');
  expect(ws.errors()).toEqual([expect.objectContaining({ statusCode: 403, code: 'FORBIDDEN' })]);
  expect(ws.frames.some((m) => m.type === 'view' || m.type === 'bets')).toBe(false);
  ws.close();
  const own = await WsClient.open(`${h.url.replace('http', 'ws')}/ws?token=${bo}`);
  own.send({ type: 'subscribe', tableId: 'online-bo' });
  await own.until((f) => f.some((m) => m.type === 'view'), 'its own view');
  own.close();
});

it('a token limited to some tables lists only those', async () => {
  for (const tableId of ['L1', 'L2'])
    expect(
      (await h.api('POST', '/api/tables', { body: { tableId, rules: { dealing: 'rng' } } })).status,
    ).toBe(201);
  const listed = (await h.api('GET', '/api/tables', { token: h.token('dealer', 'd-l1', ['L1']) })).body as {
    tableId: string;
  }[];
  expect(listed.map((t) => t.tableId)).toEqual(['L1']);
  const all = (await h.api('GET', '/api/tables')).body as { tableId: string }[];
  expect(all.map((t) => t.tableId)).toEqual(expect.arrayContaining(['L1', 'L2']));
});
