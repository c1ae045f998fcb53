/**
 * Issue 15's read side over HTTP: the remaining-shoe edge monitor ("favourable now" and the analyst report), the
 * odds of each bet before a hand, and the statistics per bet type, on a live one-deck EZ table whose first coup
 * leaves Dragon 7 favourable (known cards: the 8d turned, then 9h Qs Qc 3d).
 */
import { startService, type Harness } from './harness';
import { ok as call, readModelsCaughtUp } from './http-helpers';

jest.setTimeout(60_000);

let h: Harness;

const dealer = () => h.token('dealer');

const ok = (method: string, path: string, body?: unknown, token?: string) =>
  call(h, method, path, body, token);
const caughtUp = () => readModelsCaughtUp(h);

async function round(roundNo: number, bets: [string, string, number][], cards: string[]): Promise<void> {
  await ok('POST', '/api/tables/T1/rounds', undefined, dealer());
  for (const [playerId, spot, amount] of bets)
    await ok('POST', `/api/tables/T1/rounds/${roundNo}/bets`, { playerId, spot, amount });
  await ok('POST', `/api/tables/T1/rounds/${roundNo}/close`, undefined, dealer());
  for (const card of cards) await ok('POST', `/api/tables/T1/rounds/${roundNo}/cards`, { card }, dealer());
}

beforeAll(async () => {
  h = await startService({ COUP_PROJECTIONS: 'in-process', COUP_PROJECTION_COMMIT_MS: '0' });
  const rules = { dealing: 'live', decks: 1, cutCard: 12, game: 'ez', sideBets: { dragon7: {}, panda8: {} } };
  await ok('POST', '/api/tables', { tableId: 'T1', rules });
  for (const p of ['p1', 'p2']) await ok('POST', `/api/tables/T1/players/${p}/buy-in`, { amount: 100_000 });
  await ok('POST', '/api/tables/T1/shoes', { firstCard: '8d' }, dealer());
  // player 9h Qc: a natural 9; banker Qs 3d: 3
  await round(1, [['p1', 'player', 1_000]], ['9h', 'Qs', 'Qc', '3d']);
  await ok('POST', '/api/tables/T1/rounds', undefined, dealer());
  await caughtUp();
});
afterAll(async () => {
  await h.close();
});

describe('favourable now', () => {
  test("lists the table while Dragon 7 favours the player, with every offered bet's exact value", async () => {
    const res = await h.api('GET', '/api/edge/favourable', { token: dealer() });
    expect(res.status).toBe(200);
    expect(res.body.tables).toHaveLength(1);
    const t1 = res.body.tables[0];
    expect(t1).toMatchObject({
      tableId: 'T1',
      shoeNo: 1,
      roundNo: 2,
      coupInShoe: 1,
      cardsSeen: 5,
      cardsLeft: 47,
    });
    expect(t1.favourable.map((v: { spot: string }) => v.spot)).toEqual(['dragon7']);
    expect(t1.values.map((v: { spot: string }) => v.spot)).toEqual([
      'player',
      'banker',
      'tie',
      'dragon7',
      'panda8',
    ]);
    expect(
      (await h.api('GET', '/api/edge/favourable?tableId=T1', { token: h.token('analyst') })).body,
    ).toEqual(res.body);
  });

  test('a dealer limited to other tables sees none of them, and is refused this one by name', async () => {
    const limited = h.token('dealer', 'd2', ['T9']);
    expect((await h.api('GET', '/api/edge/favourable', { token: limited })).body).toEqual({ tables: [] });
    const refused = await h.api('GET', '/api/edge/favourable?tableId=T1', { token: limited });
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
  });

  test('a player may not ask', async () => {
    const res = await h.api('GET', '/api/edge/favourable', { token: h.token('player', 'p1') });
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
  });
});

describe('once the round of the alert is dealt', () => {
  beforeAll(async () => {
    for (const [playerId, spot, amount] of [
      ['p1', 'banker', 1_000],
      ['p1', 'dragon7', 500],
      ['p2', 'player', 100],
      ['p2', 'dragon7', 200],
    ] as const)
      await ok('POST', '/api/tables/T1/rounds/2/bets', { playerId, spot, amount });
    await ok('POST', '/api/tables/T1/rounds/2/close', undefined, dealer());
    // player 9c Qd: 9; banker Js 6h: 6; Dragon 7 loses
    for (const card of ['9c', 'Js', 'Qd', '6h'])
      await ok('POST', '/api/tables/T1/rounds/2/cards', { card }, dealer());
    await caughtUp();
  });

  test("the report: the alert, each player's stake on Dragon 7 in that round and its result, the totals", async () => {
    const res = await h.api('GET', '/api/edge/report?tableId=T1', { token: h.token('compliance') });
    expect(res.status).toBe(200);
    const alert = res.body.alerts.find((a: { roundNo: number }) => a.roundNo === 2);
    expect(alert).toMatchObject({
      tableId: 'T1',
      shoeNo: 1,
      coupInShoe: 1,
      spot: 'dragon7',
      paytable: '40-to-1',
      wagered: { bets: 2, staked: 700, paid: 0, net: -700 },
      players: [
        { playerId: 'p1', bets: 1, staked: 500, paid: 0, net: -500 },
        { playerId: 'p2', bets: 1, staked: 200, paid: 0, net: -200 },
      ],
    });
    expect(alert.ev).toBeGreaterThan(0);
    expect(res.body.players.map((p: { playerId: string; staked: number }) => [p.playerId, p.staked])).toEqual(
      [
        ['p1', 500],
        ['p2', 200],
      ],
    );
    const csv = await h.api('GET', '/api/edge/report?tableId=T1&spot=dragon7', {
      token: h.token('analyst'),
      headers: { accept: 'text/csv' },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
  });

  test("the hand's audit trail and the ledger name the side bet's paytable", async () => {
    const audit = await h.api('GET', '/api/tables/T1/hands/2', {
      token: h.token('compliance'),
      headers: { accept: 'text/csv' },
    });
    const lines = String(audit.body).split('\r\n');
    expect(lines.filter((l) => l.includes(',dragon7,'))).toEqual([
      expect.stringContaining('paytable 40-to-1'),
      expect.stringContaining('paytable 40-to-1'),
      expect.stringContaining('lose stake 500 commission 0 paytable 40-to-1'),
      expect.stringContaining('lose stake 200 commission 0 paytable 40-to-1'),
    ]);
    const ledger = await h.api('GET', '/api/players/p1/ledger?tableId=T1', { token: h.token('analyst') });
    const entries = ledger.body.entries as { kind: string; spot: string; paytable: string | null }[];
    expect(entries.filter((e) => e.spot === 'dragon7').map((e) => [e.kind, e.paytable])).toEqual([
      ['bet', '40-to-1'],
      ['settlement', '40-to-1'],
    ]);
  });

  test('the odds before hand 2: Dragon 7 favoured, on the 47 cards not seen; before hand 1 on the deck less the turned card', async () => {
    const res = await h.api('GET', '/api/tables/T1/hands/2/odds', { token: h.token('supervisor') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tableId: 'T1', roundNo: 2, shoeNo: 1 });
    expect(res.body.odds).toMatchObject({ coupInShoe: 1, cardsSeen: 5, cardsLeft: 47, game: 'ez' });
    const dragon7 = res.body.odds.bets.find((b: { spot: string }) => b.spot === 'dragon7');
    expect(dragon7).toMatchObject({ favourable: true, paytable: '40-to-1' });
    const report = await h.api('GET', '/api/edge/report?tableId=T1&spot=dragon7', {
      token: h.token('analyst'),
    });
    expect(dragon7.evExact).toBe(report.body.alerts[0].evExact);
    const first = await h.api('GET', '/api/tables/T1/hands/1/odds', { token: h.token('supervisor') });
    expect(first.body.odds).toMatchObject({ coupInShoe: 0, cardsSeen: 1, cardsLeft: 51 });
    expect((await h.api('GET', '/api/tables/T1/hands/9/odds', { token: h.token('analyst') })).status).toBe(
      404,
    );
    const player = await h.api('GET', '/api/tables/T1/hands/2/odds', { token: h.token('player', 'p1') });
    expect([player.status, player.body.code]).toEqual([403, 'FORBIDDEN']);
  });

  test('the statistics per bet type: both coups counted for every offered bet, the stakes on each, beside the exact odds', async () => {
    const res = await h.api('GET', '/api/stats/bets?tableId=T1', { token: h.token('analyst') });
    expect(res.status).toBe(200);
    expect(res.body.confidence).toBe('wilson-95');
    const table = res.body.tables[0];
    expect(table).toMatchObject({ tableId: 'T1', decks: 1, game: 'ez', tiePays: 8 });
    const bets = Object.fromEntries(table.bets.map((b: { spot: string }) => [b.spot, b]));
    expect(Object.keys(bets)).toEqual(['player', 'banker', 'tie', 'dragon7', 'panda8']);
    expect(bets.dragon7).toMatchObject({ coups: 2, bets: 2, handle: 700, paid: 0, holdPercent: 100 });
    expect(bets.player).toMatchObject({ coups: 2, bets: 2, handle: 1_100, paid: 2_200 });
    expect(bets.dragon7.results.map((r: { key: string; count: number }) => [r.key, r.count])).toEqual([
      ['win:40/1', 0],
      ['lose', 2],
    ]);
    const csv = await h.api('GET', '/api/stats/bets', {
      token: h.token('admin'),
      headers: { accept: 'text/csv' },
    });
    expect(csv.status).toBe(200);
    expect(String(csv.body).split('\r\n')[0]).toContain('scope,key,spot,variant,coups');
  });

  test.each([
    ['/api/edge/report?spot=dragon', 'spot'],
    ['/api/edge/report?limit=0', 'limit'],
    ['/api/edge/report?colour=red', 'colour'],
    ['/api/stats/bets?from=2025-13-40', 'from'],
    ['/api/edge/favourable?tableId=no%20spaces', 'tableId'],
  ])('%s is refused with a 400 naming %s', async (path, field) => {
    const res = await h.api('GET', path, { token: h.token('admin') });
    expect(res.status).toBe(400);
    expect(res.body.details).toMatchObject({ field });
  });
});
