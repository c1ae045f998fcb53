/**
 * The read side of a settled coup put right, over HTTP (issue 16): a supervisor corrects a card of the coup just
 * settled and voids another; then the hand history (the original, the correction and the void, with who and why,
 * and the audit CSV), the ledger (reversals and new settlements as entries of their own), the roads, the
 * statistics and verify answer accordingly, and each answer equals what a rebuild of the read models from the
 * store answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ReadModels,
  openReadModelDb,
  rebuildProjections,
  sqliteRawReader,
  verifyHand,
} from '@coup/projections';
import type { TableView } from '@coup/table';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { type Harness, startService } from './harness';

jest.setTimeout(60_000);

let h: Harness;
const T = 'SR1';
const dealer = () => ({ token: h.token('dealer') });
const supervisor = () => ({ token: h.token('supervisor', 'super-1') });
const compliance = () => ({ token: h.token('compliance') });

async function ok(method: string, path: string, options: Parameters<Harness['api']>[2] = {}) {
  const r = await h.api(method, path, options);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A round at the live table: p1 on player and p2 on banker, 1,000 each, these cards dealt; it settles. */
async function round(roundNo: number, cards: readonly string[]): Promise<void> {
  await ok('POST', `/api/tables/${T}/rounds`, dealer());
  for (const [playerId, spot] of [
    ['p1', 'player'],
    ['p2', 'banker'],
  ])
    await ok('POST', `/api/tables/${T}/rounds/${roundNo}/bets`, {
      token: h.token('player', playerId),
      body: { playerId, spot, amount: 1000 },
    });
  await ok('POST', `/api/tables/${T}/rounds/${roundNo}/close`, dealer());
  for (const card of cards)
    await ok('POST', `/api/tables/${T}/rounds/${roundNo}/cards`, { ...dealer(), body: { card } });
}

/** Waits until every read model has folded the store's last event (bounded). */
async function readSideCaughtUp(): Promise<void> {
  const head = Number((await h.app.get(EventStoreHandle).store.headPosition()) ?? -1n);
  for (let i = 0; i < 400; i++) {
    const status = (await ok('GET', '/api/projections', compliance())) as {
      projections: { checkpoint: number }[];
    };
    if (status.projections.every((p) => p.checkpoint >= head)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the read side did not reach position ${head}`);
}

const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

beforeAll(async () => {
  h = await startService();
  await ok('POST', '/api/tables', { body: { tableId: T, rules: { dealing: 'live', commission: 'box' } } });
  for (const p of ['p1', 'p2'])
    await ok('POST', `/api/tables/${T}/players/${p}/buy-in`, { body: { amount: 10_000 } });
  await ok('POST', `/api/tables/${T}/shoes`, { ...dealer(), body: { firstCard: '5h' } });
  // round 1: player 9+K natural against banker 5+2; the banker's 2d was a 4d: a tie 9-9
  await round(1, ['9d', '5d', 'Kd', '2d']);
  await ok('PUT', `/api/tables/${T}/rounds/1/cards/3`, {
    ...supervisor(),
    body: { card: '4d', reason: 'dealer typed 2d for 4d' },
  });
  // round 2: banker 9+K natural against player 5+2, voided after it settled
  await round(2, ['5d', '9d', '2d', 'Kd']);
  await ok('POST', `/api/tables/${T}/rounds/2/void`, {
    ...supervisor(),
    body: { reason: 'shoe found short' },
  });
  // round 3: a banker win that stands
  await round(3, ['2c', '9c', '3c', 'Tc']);
  await readSideCaughtUp();
});
afterAll(async () => {
  await h?.close();
});

test('the hand history shows the original, the correction and the void, with who and why; the audit CSV too', async () => {
  const one = await ok('GET', `/api/tables/${T}/hands/1`, compliance());
  expect(one).toMatchObject({
    status: 'resolved',
    outcome: 'tie',
    bankerCards: ['5d', '4d'],
    amended: true,
    original: { outcome: 'player', bankerCards: ['5d', '2d'], bankerTotal: 7 },
    amendments: [
      {
        kind: 'correction',
        index: 3,
        oldCard: '2d',
        newCard: '4d',
        outcome: 'tie',
        reason: 'dealer typed 2d for 4d',
        by: 'super-1',
        role: 'supervisor',
      },
    ],
  });
  expect(one.amendments[0].reversed).toEqual(one.original.settlements);
  const two = await ok('GET', `/api/tables/${T}/hands/2`, compliance());
  expect(two).toMatchObject({
    status: 'voided',
    outcome: null,
    voidReason: 'shoe found short',
    voidedBy: 'super-1',
    original: { outcome: 'banker' },
    amendments: [{ kind: 'void', reason: 'shoe found short', by: 'super-1' }],
    returned: [
      { playerId: 'p1', amount: 1000 },
      { playerId: 'p2', amount: 1000 },
    ],
  });
  const voids = await ok('GET', `/api/tables/${T}/hands?outcome=void`, compliance());
  expect(voids.items.map((x: { roundNo: number }) => x.roundNo)).toEqual([2]);

  const csv = await h.api('GET', `/api/tables/${T}/hands/1`, {
    ...compliance(),
    headers: { accept: 'text/csv' },
  });
  const lines = (csv.body as string).trim().split('\r\n');
  const kinds = lines.slice(1).map((l) => l.split(',')[2]);
  // the settlements as first made, then at the correction: each reversed, the card, the new settlements
  expect(kinds.slice(-7)).toEqual([
    'settlement',
    'settlement',
    'reversal',
    'reversal',
    'correction',
    'settlement',
    'settlement',
  ]);
  expect(lines.find((l) => l.includes(',correction,'))).toContain(
    '2d -> 4d after the coup settled: dealer typed 2d for 4d',
  );
});

test('the ledger: the reversal and the new settlement as entries of their own, with who and why; counters as corrected', async () => {
  const view = (await ok('GET', `/api/tables/${T}`, dealer())) as TableView;
  const ledger = await ok('GET', `/api/players/p1/ledger?tableId=${T}`, compliance());
  const entries = ledger.entries.map((e: Record<string, unknown>) => [
    e['kind'],
    e['roundNo'],
    e['chipsDelta'],
    e['by'],
    e['reason'],
  ]);
  expect(entries).toEqual([
    ['buy-in', null, 10_000, 'admin-1', null],
    ['bet', 1, -1000, 'p1', null],
    ['settlement', 1, 2000, null, null],
    ['reversal', 1, -2000, 'super-1', 'dealer typed 2d for 4d'],
    ['settlement', 1, 1000, 'super-1', 'dealer typed 2d for 4d'],
    ['bet', 2, -1000, 'p1', null],
    ['settlement', 2, 0, null, null],
    ['reversal', 2, 0, 'super-1', 'shoe found short'],
    ['void-return', 2, 1000, 'super-1', 'shoe found short'],
    ['bet', 3, -1000, 'p1', null],
    ['settlement', 3, 0, null, null],
  ]);
  const [account] = ledger.accounts;
  expect(account).toMatchObject({
    bets: 3,
    staked: 3000,
    voidedReturned: 1000,
    wins: 0,
    pushes: 1,
    losses: 1,
    paid: 1000,
    netResult: -1000,
    chips: view.players.find((p) => p.playerId === 'p1')!.chips,
  });
  // p2: the tie pushed its banker bet, round 3's banker win owes 5% to the box (counted against the result)
  const p2 = (await ok('GET', `/api/players/p2/ledger?tableId=${T}`, compliance())).accounts[0];
  expect(p2).toMatchObject({ pushes: 1, wins: 1, paid: 3000, commissionOwed: 50, netResult: 950 });
});

test('roads, statistics and verify follow the correction and the void', async () => {
  const roads = await ok('GET', `/api/tables/${T}/roads`, compliance());
  expect(roads).toMatchObject({ outcomes: 'TB', coups: 2 });
  expect(roads.beadPlate.map((b: { roundNo: number }) => b.roundNo)).toEqual([1, 3]);
  const stats = await ok('GET', `/api/stats?tableId=${T}`, compliance());
  expect(stats.overall).toMatchObject({ coups: 2, voids: 1, outcomes: { player: 0, banker: 1, tie: 1 } });
  const one = await ok('GET', `/api/tables/${T}/hands/1/verify`, compliance());
  expect(one.ok).toBe(true);
  expect(one.checks.find((c: { name: string }) => c.name === 'coup').detail).toContain(
    'card 3 corrected after it settled, 2d to 4d, by super-1 (dealer typed 2d for 4d)',
  );
  const two = await ok('GET', `/api/tables/${T}/hands/2/verify`, compliance());
  expect(two.ok).toBe(true);
  expect(two.checks.find((c: { name: string }) => c.name === 'coup').detail).toContain(
    'voided after it settled by super-1 (shoe found short)',
  );
});

test('every answer equals what read models rebuilt from the store answer', async () => {
  const store = h.app.get(EventStoreHandle).store;
  const dir = mkdtempSync(join(tmpdir(), 'coup-settled-rebuild-'));
  const db = openReadModelDb(join(dir, 'rebuilt.sqlite'));
  try {
    await rebuildProjections({ store, db });
    const rebuilt = ReadModels.sqlite(db);
    const get = (path: string) => ok('GET', path, compliance());
    for (const roundNo of [1, 2, 3]) {
      expect(await get(`/api/tables/${T}/hands/${roundNo}`)).toEqual(json(await rebuilt.hand(T, roundNo)));
      const verify = await get(`/api/tables/${T}/hands/${roundNo}/verify`);
      const raw =
        h.config.eventStore.kind === 'sqlite' ? sqliteRawReader(h.config.eventStore.file) : undefined;
      const again = await verifyHand({ store, readModels: rebuilt, ...(raw ? { raw } : {}) }, T, roundNo);
      expect(verify).toEqual(json(again));
    }
    expect(await get(`/api/tables/${T}/hands?order=asc`)).toEqual(
      json(await rebuilt.hands(T, { order: 'asc' })),
    );
    for (const p of ['p1', 'p2'])
      expect(await get(`/api/players/${p}/ledger`)).toEqual(json(await rebuilt.ledger(p)));
    expect(await get(`/api/tables/${T}/roads`)).toEqual(json(await rebuilt.roads(T)));
    expect(await get(`/api/stats?tableId=${T}`)).toEqual(json(await rebuilt.stats({ tableId: T })));
    expect(await get(`/api/stats/bets?tableId=${T}`)).toEqual(json(await rebuilt.betStats({ tableId: T })));
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
