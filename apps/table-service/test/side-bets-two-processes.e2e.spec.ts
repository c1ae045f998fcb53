/**
 * Side bets with two service processes on one data folder (issue 15): a table opened on A with a game mode and side
 * bets is served by B with the same rules; side bets placed through either process settle once, in exact cents,
 * on a coup dealt through A; B's view and B's live push show that settlement; a side bet's Idempotency-Key retried
 * on the other process gets the first answer and records nothing new. Runs the built service (build first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { createEventStore, type RecordedEvent } from '@coup/event-store';
import type { Settlement } from '@coup/table';
import { request } from './chaos/http';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';
import { WsClient } from './ws-client';

jest.setTimeout(90_000);

const admin = signToken(SECRET, { sub: 'admin-1', role: 'admin' });
const dealer = signToken(SECRET, { sub: 'dealer-1', role: 'dealer' });
const playerToken = (p: string) => signToken(SECRET, { sub: p, role: 'player' });

let dataDir: string;
const services: ServiceProcess[] = [];
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'coup-side-two-'));
});
afterAll(async () => {
  for (const s of services) await s.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function ok(url: string, method: string, path: string, token: string, body?: unknown) {
  const r = await request(url, method, path, token, body === undefined ? {} : { body });
  if (!r || r.status >= 300) throw new Error(`${method} ${path}: ${r?.status} ${JSON.stringify(r?.body)}`);
  return r.body;
}

async function tableEvents(): Promise<RecordedEvent[]> {
  const store = createEventStore({ kind: 'sqlite', file: join(dataDir, 'events.sqlite'), readonly: true });
  const events: RecordedEvent[] = [];
  for await (const e of store.readStream('table-NC2')) events.push(e);
  await store.close();
  return events;
}

it('a no-commission side-bet table opened on A is served by B: bets through both settle once, in exact cents, seen on B', async () => {
  const a = await spawnService(dataDir);
  services.push(a);
  const b = await spawnService(dataDir, { COUP_PROJECTIONS: 'off' });
  services.push(b);

  const rules = {
    dealing: 'live',
    game: 'no-commission',
    chips: [25, 100, 500],
    sideBets: { super6: { paytable: '12-to-1', min: 100, max: 5000 }, big: {}, bankerPair: {} },
  };
  await ok(a.url, 'POST', '/api/tables', admin, { tableId: 'NC2', rules });
  for (const p of ['p1', 'p2'])
    await ok(a.url, 'POST', `/api/tables/NC2/players/${p}/buy-in`, admin, { amount: 50_000 });
  await ok(a.url, 'POST', '/api/tables/NC2/shoes', dealer, { firstCard: '5h' });
  await ok(a.url, 'POST', '/api/tables/NC2/rounds', dealer);

  // B serves the table with A's rules, and pushes what A records.
  const viewOnB = await ok(b.url, 'GET', '/api/tables/NC2', dealer);
  expect(viewOnB.rules).toMatchObject({
    game: 'no-commission',
    sideBets: { super6: { paytable: '12-to-1' } },
  });
  const socket = await WsClient.open(`${b.url.replace('http', 'ws')}/ws?token=${dealer}`);
  socket.send({ type: 'subscribe', tableId: 'NC2' });
  await socket.until((f) => f.some((x) => x.type === 'view'), 'the view on B');

  const bet = (url: string, playerId: string, spot: string, amount: number, key: string) =>
    request(url, 'POST', '/api/tables/NC2/rounds/1/bets', playerToken(playerId), {
      body: { playerId, spot, amount },
      key,
    });
  expect((await bet(a.url, 'p1', 'banker', 1125, 'p1-banker'))?.status).toBe(201);
  const super6 = await bet(b.url, 'p1', 'super6', 200, 'p1-super6');
  expect(super6?.status).toBe(201);
  // A side bet goes with a main bet (MAIN_BET_REQUIRED otherwise), on either process.
  expect((await bet(b.url, 'p2', 'big', 125, 'p2-big-alone'))?.body?.code).toBe('MAIN_BET_REQUIRED');
  expect((await bet(a.url, 'p2', 'tie', 100, 'p2-tie'))?.status).toBe(201);
  expect((await bet(b.url, 'p2', 'big', 125, 'p2-big'))?.status).toBe(201);
  expect((await bet(a.url, 'p2', 'bankerPair', 100, 'p2-pair'))?.status).toBe(201);
  // The side bet's key retried on the other process: the first answer, nothing recorded.
  const before = (await tableEvents()).length;
  expect(await bet(a.url, 'p1', 'super6', 200, 'p1-super6')).toEqual(super6);
  expect((await tableEvents()).length).toBe(before);
  // A side bet B's table does not offer is refused by B as by A.
  expect((await bet(b.url, 'p2', 'dragon7', 100, 'p2-dragon'))?.body?.code).toBe('SPOT_NOT_OFFERED');

  await ok(a.url, 'POST', '/api/tables/NC2/rounds/1/close', dealer);
  // Player 2c 3c = 5 draws Kc (5); banker 3d 3h = 6 stands: a banker 6 on five cards.
  for (const card of ['2c', '3d', '3c', '3h', 'Kc'])
    await ok(a.url, 'POST', '/api/tables/NC2/rounds/1/cards', dealer, { card });

  const expected = [
    { playerId: 'p1', spot: 'banker', amount: 1125, result: 'win', paid: 1687 }, // 1:2, 562.5 rounded down
    { playerId: 'p1', spot: 'super6', amount: 200, result: 'win', paid: 2600, paytable: '12-to-1' },
    { playerId: 'p2', spot: 'bankerPair', amount: 100, result: 'win', paid: 1200, paytable: '11-to-1' },
    { playerId: 'p2', spot: 'big', amount: 125, result: 'win', paid: 192, paytable: '0.54-to-1' }, // 67.5 down
    { playerId: 'p2', spot: 'tie', amount: 100, result: 'lose', paid: 0 },
  ];
  const sorted = (s: readonly Settlement[]) =>
    [...s]
      .map(({ commission: _, ...rest }) => rest)
      .sort((x, y) => (x.playerId + x.spot).localeCompare(y.playerId + y.spot));
  const resolved = (await tableEvents()).filter((e) => e.type === 'CoupResolved');
  expect(resolved).toHaveLength(1);
  expect(sorted((resolved[0]!.data as unknown as { settlements: Settlement[] }).settlements)).toEqual(
    expected,
  );

  await socket.until((f) => f.some((x) => x.event?.type === 'CoupResolved'), 'the coup pushed by B');
  const pushed = socket.frames.find((x) => x.event?.type === 'CoupResolved')!.event!.data as unknown as {
    settlements: Settlement[];
  };
  expect(sorted(pushed.settlements)).toEqual(expected);
  socket.close();
  const chips = async (url: string) =>
    Object.fromEntries(
      (
        (await ok(url, 'GET', '/api/tables/NC2', dealer)).players as { playerId: string; chips: number }[]
      ).map((p) => [p.playerId, p.chips]),
    );
  const want = { p1: 50_000 - 1325 + 1687 + 2600, p2: 50_000 - 325 + 1200 + 192 };
  expect(await chips(a.url)).toEqual(want);
  expect(await chips(b.url)).toEqual(want);
});
