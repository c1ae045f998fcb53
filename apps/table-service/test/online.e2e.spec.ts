/** The online single-player game's own endpoints: a personal table opened or resumed, chips bought, exit rules. */
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);
let h: Harness;
beforeAll(async () => {
  h = await startService();
});
afterAll(async () => {
  await h.close();
});

it('opens a personal table with betting open, resumes it, buys chips, refuses exit mid-coup, then cashes out', async () => {
  const me = h.token('player', 'ana');
  const opened = await h.api('POST', '/api/online/tables', { token: me });
  expect(opened.status).toBe(200);
  expect(opened.body.tableId).toBe('online-ana');
  expect(opened.body.view).toMatchObject({
    phase: 'betting',
    rules: { shuffle: 'every-coup', dealtBy: 'player', decks: 8 },
  });
  expect(opened.body.view.shoe.commitment).toMatch(/^[0-9a-f]{64}$/);

  const again = await h.api('POST', '/api/online/tables', { token: me });
  expect(again.body.view.round.roundNo).toBe(opened.body.view.round.roundNo);

  expect(
    (await h.api('POST', '/api/online/tables/online-ana/buy-in', { token: me, body: { amount: 50_000 } }))
      .status,
  ).toBe(200);
  const round = opened.body.view.round.roundNo;
  expect(
    (
      await h.api('POST', `/api/tables/online-ana/rounds/${round}/bets`, {
        token: me,
        body: { playerId: 'ana', spot: 'player', amount: 2500 },
      })
    ).status,
  ).toBe(201);
  const blocked = await h.api('POST', '/api/online/tables/online-ana/exit', { token: me });
  expect([blocked.status, blocked.body.code]).toEqual([409, 'COUP_INCOMPLETE']);

  const coup = await h.api('POST', `/api/tables/online-ana/rounds/${round}/deal`, { token: me });
  expect(coup.status).toBe(200);
  const exit = await h.api('POST', '/api/online/tables/online-ana/exit', { token: me });
  expect(exit.status).toBe(200);
  expect(exit.body).toMatchObject({ playerId: 'ana', paid: 50_000 - 2500 + coup.body.settlements[0].paid });
});

it("refuses another player's table, and non-players", async () => {
  await h.api('POST', '/api/online/tables', { token: h.token('player', 'bob') });
  const other = await h.api('POST', '/api/online/tables/online-bob/buy-in', {
    token: h.token('player', 'eve'),
    body: { amount: 100 },
  });
  expect([other.status, other.body.code]).toEqual([403, 'FORBIDDEN']);
  const dealer = await h.api('POST', '/api/online/tables', { token: h.token('dealer') });
  expect(dealer.status).toBe(403);
  const anonymous = await h.api('POST', '/api/online/tables', { token: null });
  expect(anonymous.status).toBe(401);
});

it('a player reads, replays and verifies the hands of its own online table, and no one else’s', async () => {
  const me = h.token('player', 'cy');
  const { view } = (await h.api('POST', '/api/online/tables', { token: me })).body;
  await h.api('POST', '/api/online/tables/online-cy/buy-in', { token: me, body: { amount: 10_000 } });
  const round = view.round.roundNo;
  await h.api('POST', `/api/tables/online-cy/rounds/${round}/bets`, {
    token: me,
    body: { playerId: 'cy', spot: 'banker', amount: 500 },
  });
  expect((await h.api('POST', `/api/tables/online-cy/rounds/${round}/deal`, { token: me })).status).toBe(200);
  let hand = await h.api('GET', `/api/tables/online-cy/hands/${round}`, { token: me });
  for (let i = 0; i < 100 && hand.status === 404; i++) {
    await new Promise((r) => setTimeout(r, 50));
    hand = await h.api('GET', `/api/tables/online-cy/hands/${round}`, { token: me });
  }
  expect(hand.status).toBe(200);
  expect((await h.api('GET', '/api/tables/online-cy/hands', { token: me })).status).toBe(200);
  expect((await h.api('GET', `/api/tables/online-cy/hands/${round}/replay`, { token: me })).status).toBe(200);
  const verify = await h.api('GET', `/api/tables/online-cy/hands/${round}/verify`, { token: me });
  expect(verify.status).toBe(200);
  const other = await h.api('GET', `/api/tables/online-cy/hands/${round}`, {
    token: h.token('player', 'dan'),
  });
  expect([other.status, other.body.code]).toEqual([403, 'FORBIDDEN']);
  const staffTable = await h.api('GET', '/api/tables/online-cy/hands', {
    token: h.token('player', 'cy-not'),
  });
  expect(staffTable.status).toBe(403);
});

it('two tabs opening at once open one round and both get it', async () => {
  const me = h.token('player', 'twin');
  const [a, b] = await Promise.all([
    h.api('POST', '/api/online/tables', { token: me }),
    h.api('POST', '/api/online/tables', { token: me }),
  ]);
  expect([a.status, b.status]).toEqual([200, 200]);
  expect(a.body.view.round.roundNo).toBe(b.body.view.round.roundNo);
});

it('the online buy-in and exit honour Idempotency-Key: a retry gets the first answer and moves no money again', async () => {
  const me = h.token('player', 'dee');
  expect((await h.api('POST', '/api/online/tables', { token: me })).status).toBe(200);
  const buy = (amount: number, key: string) =>
    h.api('POST', '/api/online/tables/online-dee/buy-in', {
      token: me,
      body: { amount },
      headers: { 'idempotency-key': key },
    });
  const first = await buy(10_000, 'buy-1');
  expect(first.status).toBe(200);
  expect(await buy(10_000, 'buy-1')).toMatchObject({ status: 200, body: first.body });
  // The same key with another amount is another request: refused, not a third buy-in.
  expect(await buy(20_000, 'buy-1')).toMatchObject({ status: 422, body: { code: 'IDEMPOTENCY_KEY_REUSED' } });
  const exit = () =>
    h.api('POST', '/api/online/tables/online-dee/exit', {
      token: me,
      headers: { 'idempotency-key': 'exit-1' },
    });
  const left = await exit();
  expect(left).toMatchObject({ status: 200, body: { playerId: 'dee', paid: 10_000 } });
  // The retry after the cash-out (the player is no longer seated) gets the first answer, not 409 NOT_SEATED.
  expect(await exit()).toMatchObject({ status: 200, body: left.body });
  const view = await h.api('GET', '/api/tables/online-dee', { token: h.token('admin') });
  expect(view.body.players ?? []).toEqual([]);
});
