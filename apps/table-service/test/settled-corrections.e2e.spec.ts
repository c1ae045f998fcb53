/**
 * The coup just settled put right over HTTP (issue 16): a supervisor corrects a mis-entered deciding card with a
 * reason (PUT .../cards/:index) or voids the coup (POST .../void) until the next betting opens. The settlement is
 * reversed and the coup settled anew; chips, the view and the player's live push follow; a retry with the same
 * Idempotency-Key gets the first answer, also after a restart; once betting opens, 409 CORRECTION_WINDOW_CLOSED.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TableView } from '@coup/table';
import { startService, type Harness } from './harness';
import { eventRows } from './http-helpers';
import { WsClient } from './ws-client';

jest.setTimeout(60_000);
// our own data folder: this test restarts the service on it (the harness removes only the folders it makes)
const dataDir = mkdtempSync(join(tmpdir(), 'coup-settled-'));
let h: Harness;
const dealer = () => ({ token: h.token('dealer') });
const supervisor = () => ({ token: h.token('supervisor') });

async function ok(method: string, path: string, options: Parameters<Harness['api']>[2] = {}) {
  const r = await h.api(method, path, options);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const chipsOf = (view: TableView, id: string) => view.players.find((p) => p.playerId === id)?.chips;

/** A live table whose round `roundNo` settled on a player natural 9 against banker 5+2, p1 on player, p2 on banker. */
async function settledRound(tableId: string, roundNo = 1): Promise<void> {
  if (roundNo === 1) {
    await ok('POST', '/api/tables', { body: { tableId, rules: { dealing: 'live' } } });
    for (const p of ['p1', 'p2'])
      await ok('POST', `/api/tables/${tableId}/players/${p}/buy-in`, { body: { amount: 100_000 } });
    await ok('POST', `/api/tables/${tableId}/shoes`, { ...dealer(), body: { firstCard: '5h' } });
  }
  await ok('POST', `/api/tables/${tableId}/rounds`, dealer());
  for (const [playerId, spot] of [
    ['p1', 'player'],
    ['p2', 'banker'],
  ])
    await ok('POST', `/api/tables/${tableId}/rounds/${roundNo}/bets`, {
      token: h.token('player', playerId),
      body: { playerId, spot, amount: 1000 },
    });
  await ok('POST', `/api/tables/${tableId}/rounds/${roundNo}/close`, dealer());
  for (const card of ['9d', '5d', 'Kd', '2d'])
    await ok('POST', `/api/tables/${tableId}/rounds/${roundNo}/cards`, { ...dealer(), body: { card } });
}

beforeAll(async () => {
  h = await startService({}, {}, dataDir);
});
afterAll(async () => {
  await h?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('corrects the deciding card of the coup just settled: settlement reversed, coup settled anew, pushed, retry-safe', async () => {
  await settledRound('SC1');
  const before = (await ok('GET', '/api/tables/SC1', dealer())) as TableView;
  const socket = await WsClient.open(`${h.url.replace('http', 'ws')}/ws?token=${h.token('player', 'p1')}`);
  socket.send({ type: 'subscribe', tableId: 'SC1' });
  await socket.until((f) => f.some((x) => x.type === 'view'), 'the view');

  const noReason = await h.api('PUT', '/api/tables/SC1/rounds/1/cards/3', {
    ...supervisor(),
    body: { card: '4d' },
  });
  expect([noReason.status, noReason.body.code]).toEqual([400, 'INVALID_REASON']);

  const key = { 'Idempotency-Key': 'fix-SC1-1' };
  const body = { card: '4d', reason: 'dealer typed 2d for 4d' };
  const fixed = await h.api('PUT', '/api/tables/SC1/rounds/1/cards/3', {
    ...supervisor(),
    body,
    headers: key,
  });
  expect(fixed.status).toBe(200);
  expect(fixed.body).toMatchObject({
    outcome: 'tie',
    correctedIndex: 3,
    oldCard: '2d',
    newCard: '4d',
    reason: 'dealer typed 2d for 4d',
    settlements: [
      { playerId: 'p1', spot: 'player', result: 'push', paid: 1000 },
      { playerId: 'p2', spot: 'banker', result: 'push', paid: 1000 },
    ],
  });
  const after = (await ok('GET', '/api/tables/SC1', dealer())) as TableView;
  expect(chipsOf(after, 'p1')).toBe(chipsOf(before, 'p1')! - 1000);
  expect(chipsOf(after, 'p2')).toBe(chipsOf(before, 'p2')! + 1000);
  expect(after.round?.cards.map((c) => c.card)).toEqual(['9d', '5d', 'Kd', '4d']);

  // the player's own correction reaches it live, with its own settlements only
  await socket.until((f) => f.some((x) => x.event?.type === 'SettledCoupCorrected'), 'the correction pushed');
  const pushed = socket.frames.find((x) => x.event?.type === 'SettledCoupCorrected')!.event!.data as {
    settlements: { playerId: string }[];
    reversed: { playerId: string }[];
  };
  expect([...pushed.settlements, ...pushed.reversed].every((s) => s.playerId === 'p1')).toBe(true);
  socket.close();

  // the same request again, after a restart: the first answer, nothing new recorded
  const rows = await eventRows(h);
  await h.close();
  h = await startService({}, {}, dataDir);
  const retried = await h.api('PUT', '/api/tables/SC1/rounds/1/cards/3', {
    ...supervisor(),
    body,
    headers: key,
  });
  expect([retried.status, retried.body]).toEqual([200, fixed.body]);
  expect(await eventRows(h)).toBe(rows);
});

it('voids the coup just settled: every stake returned, the settlement reversed', async () => {
  await settledRound('SC2');
  const before = (await ok('GET', '/api/tables/SC2', dealer())) as TableView;
  const voided = await h.api('POST', '/api/tables/SC2/rounds/1/void', {
    ...supervisor(),
    body: { reason: 'shoe found short a card' },
  });
  expect(voided.status).toBe(200);
  expect(voided.body).toMatchObject({
    roundNo: 1,
    returned: [
      { playerId: 'p1', amount: 1000 },
      { playerId: 'p2', amount: 1000 },
    ],
  });
  const after = (await ok('GET', '/api/tables/SC2', dealer())) as TableView;
  expect(chipsOf(after, 'p1')).toBe(chipsOf(before, 'p1')! - 1000); // the 2,000 paid taken back, 1,000 returned
  expect(chipsOf(after, 'p2')).toBe(chipsOf(before, 'p2')! + 1000);
  expect(after.round?.status).toBe('voided');
});

it('answers 409 CORRECTION_WINDOW_CLOSED once the next betting has opened; nothing recorded', async () => {
  await settledRound('SC3');
  await ok('POST', '/api/tables/SC3/rounds', dealer());
  const rows = await eventRows(h);
  const late = await h.api('PUT', '/api/tables/SC3/rounds/1/cards/3', {
    ...supervisor(),
    body: { card: '4d', reason: 'too late' },
  });
  expect([late.status, late.body.code]).toEqual([409, 'CORRECTION_WINDOW_CLOSED']);
  const lateVoid = await h.api('POST', '/api/tables/SC3/rounds/1/void', {
    ...supervisor(),
    body: { reason: 'too late' },
  });
  expect([lateVoid.status, lateVoid.body.code]).toEqual([409, 'CORRECTION_WINDOW_CLOSED']);
  expect(await eventRows(h)).toBe(rows);
});

it('settles on the dealer’s confirmation at a table with the rule confirmResult', async () => {
  await ok('POST', '/api/tables', {
    body: { tableId: 'SC4', rules: { dealing: 'live', confirmResult: true } },
  });
  await ok('POST', '/api/tables/SC4/players/p1/buy-in', { body: { amount: 10_000 } });
  await ok('POST', '/api/tables/SC4/shoes', { ...dealer(), body: { firstCard: '5h' } });
  await ok('POST', '/api/tables/SC4/rounds', dealer());
  await ok('POST', '/api/tables/SC4/rounds/1/bets', {
    token: h.token('player', 'p1'),
    body: { playerId: 'p1', spot: 'player', amount: 1000 },
  });
  await ok('POST', '/api/tables/SC4/rounds/1/close', dealer());
  let last: { next?: { to: string } } = {};
  for (const card of ['9d', '5d', 'Kd', '2d'])
    last = await ok('POST', '/api/tables/SC4/rounds/1/cards', { ...dealer(), body: { card } });
  expect(last).toMatchObject({ next: { to: 'complete' } }); // shown, not settled
  const confirmed = await h.api('POST', '/api/tables/SC4/rounds/1/confirm', dealer());
  expect(confirmed.status).toBe(200);
  expect(confirmed.body).toMatchObject({ outcome: 'player', settlements: [{ playerId: 'p1', paid: 2000 }] });
  const again = await h.api('POST', '/api/tables/SC4/rounds/1/confirm', dealer());
  expect([again.status, again.body.code]).toEqual([409, 'WRONG_PHASE']);
});
