/** A player id with `. : @ +` (the decider's PLAYER_ID_PATTERN) is seated, bets, clears and cashes out over HTTP. */
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);
let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.close();
});

it('buys in, bets, clears and cashes out a player named alice@casino.example', async () => {
  const admin = h.token('admin');
  const dealer = h.token('dealer');
  const id = 'alice@casino.example';
  const path = encodeURIComponent(id);
  expect(
    (
      await h.api('POST', '/api/tables', {
        token: admin,
        body: { tableId: 'PID1', rules: { dealing: 'rng' } },
      })
    ).status,
  ).toBe(201);
  const buyIn = await h.api('POST', `/api/tables/PID1/players/${path}/buy-in`, {
    token: admin,
    body: { amount: 10_000 },
  });
  expect(buyIn.status).toBe(200);
  expect((await h.api('POST', '/api/tables/PID1/shoes', { token: dealer, body: {} })).status).toBe(201);
  expect((await h.api('POST', '/api/tables/PID1/rounds', { token: dealer })).status).toBe(201);
  const bet = await h.api('POST', '/api/tables/PID1/rounds/1/bets', {
    token: dealer,
    body: { playerId: id, spot: 'banker', amount: 500 },
  });
  expect(bet.status).toBe(201);
  expect((await h.api('DELETE', `/api/tables/PID1/rounds/1/bets/${path}`, { token: dealer })).status).toBe(
    200,
  );
  const cashOut = await h.api('POST', `/api/tables/PID1/players/${path}/cash-out`, { token: admin });
  expect(cashOut.status).toBe(200);
});

it('refuses a route player id outside the pattern with 400 INVALID_PARAMETER', async () => {
  const res = await h.api('POST', `/api/tables/PID1/players/${encodeURIComponent('.alice')}/buy-in`, {
    token: h.token('admin'),
    body: { amount: 100 },
  });
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('INVALID_PARAMETER');
});
