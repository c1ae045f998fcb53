/** The edge monitor's queries over the SQLite read models, folded by the runner from a store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore, createEventStore } from '@coup/event-store';
import type { Actor, Spot, TableEvent } from '@coup/table';
import { QueryError } from '../../read/query-kit';
import { ReadModels } from '../../read/read-models';
import { ProjectionRunner } from '../../runner/runner';
import { TableDriver } from '../../testing/driver';
import { appendTable } from '../../testing/store';
import { EZ_ONE_DECK } from '../../testing/coups';

jest.setTimeout(30_000);

let dir: string;
let store: EventStore;
let runner: ProjectionRunner;
let rm: ReadModels;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coup-edge-'));
  store = createEventStore({ kind: 'memory' });
  runner = new ProjectionRunner({ store, readModels: join(dir, 'rm.sqlite') });
  rm = ReadModels.sqlite(runner.db);
});
afterEach(async () => {
  await runner.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens the table, plays a round, opens round 2 and has p1 and p2 stake on Dragon 7 (and p1 on banker). */
async function alertedRound(tableId = 'T1'): Promise<TableDriver> {
  const d = new TableDriver({ tableId, players: 2, seed: 4, rules: EZ_ONE_DECK });
  await appendTable(store, tableId, [...d.open(), ...d.playRound(), ...d.execute('OpenBetting', {})]);
  const bet = (playerId: string, spot: Spot, amount: number): TableEvent[] => {
    const actor: Actor = { id: playerId, role: 'player' };
    return d.execute('PlaceBet', { roundNo: 2, playerId, spot, amount }, actor);
  };
  await appendTable(store, tableId, [
    ...bet('p1', 'banker', 1_000),
    ...bet('p1', 'dragon7', 500),
    ...bet('p2', 'tie', 100),
    ...bet('p2', 'dragon7', 100),
  ]);
  await runner.catchUp();
  return d;
}

describe('favourable now', () => {
  test('lists the monitored tables where a bet favours the player, with every value; one table whatever its values', async () => {
    const d = await alertedRound();
    const quiet = new TableDriver({ tableId: 'E2', players: 1, seed: 3, rules: EZ_ONE_DECK });
    await appendTable(store, 'E2', [...quiet.open(), ...quiet.startShoe()]);
    await runner.catchUp();
    const now = await rm.edgeNow();
    expect(now.tables.map((t) => t.tableId)).toEqual(['T1']);
    const t1 = now.tables[0]!;
    expect(t1).toMatchObject({ shoeNo: 1, roundNo: 2, coupInShoe: 1, cardsLeft: expect.any(Number) });
    expect(t1.favourable.map((v) => v.spot)).toEqual(['dragon7']);
    expect(t1.values.map((v) => v.spot)).toEqual([
      'player',
      'banker',
      'tie',
      'playerPair',
      'dragon7',
      'panda8',
    ]);
    expect((await rm.edgeNow('E2')).tables).toEqual([
      expect.objectContaining({ tableId: 'E2', favourable: [] }),
    ]);
    expect((await rm.edgeNow('nope')).tables).toEqual([]);
    // the round is dealt: Dragon 7 no longer favours the player after it
    await appendTable(store, 'T1', [...d.execute('CloseBetting', { roundNo: 2 }), ...d.dealLiveShoe(2)]);
    await runner.catchUp();
    expect((await rm.edgeNow('T1')).tables[0]!.roundNo).toBe(3);
  });
});

describe('the analyst report', () => {
  test('each alert with what every player staked on it and won; totals and players over the filter', async () => {
    const d = await alertedRound();
    await appendTable(store, 'T1', [...d.execute('CloseBetting', { roundNo: 2 }), ...d.dealLiveShoe(2)]);
    await runner.catchUp();
    const report = await rm.edgeReport({ tableId: 'T1' });
    const alert = report.alerts.find((a) => a.roundNo === 2)!;
    expect(alert).toMatchObject({
      tableId: 'T1',
      shoeNo: 1,
      coupInShoe: 1,
      spot: 'dragon7',
      paytable: '40-to-1',
    });
    expect(alert.ev).toBeGreaterThan(0);
    expect(alert.players.map((p) => [p.playerId, p.staked])).toEqual([
      ['p1', 500],
      ['p2', 100],
    ]);
    const paid = alert.players.reduce((a, p) => a + p.paid, 0);
    expect(alert.wagered).toEqual({ bets: 2, staked: 600, paid, net: paid - 600 });
    expect(report.totals).toMatchObject({ alerts: report.alerts.length, staked: 600, paid });
    expect(report.players.map((p) => [p.playerId, p.staked, p.alerts])).toEqual([
      ['p1', 500, 1],
      ['p2', 100, 1],
    ]);
    expect(
      (await rm.edgeReport({ tableId: 'T1', spot: 'panda8' })).alerts.every((a) => a.spot === 'panda8'),
    ).toBe(true);
    expect((await rm.edgeReport({ from: '2025-01-02' })).alerts).toEqual([]);
  });

  test('pages oldest first with a cursor; the totals cover the whole filter', async () => {
    const d = new TableDriver({ tableId: 'T1', players: 2, seed: 4, rules: EZ_ONE_DECK });
    const events = d.open();
    do events.push(...d.playRound());
    while (d.state.phase !== 'idle');
    await appendTable(store, 'T1', events);
    await runner.catchUp();
    const all = await rm.edgeReport({}, { limit: 500 });
    expect(all.alerts.length).toBeGreaterThan(3);
    const first = await rm.edgeReport({}, { limit: 2 });
    const second = await rm.edgeReport({}, { limit: 2, cursor: first.nextCursor! });
    expect([...first.alerts, ...second.alerts]).toEqual(all.alerts.slice(0, 4));
    expect(first.totals).toEqual(all.totals);
    const positions = all.alerts.map((a) => a.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  test.each([
    [{ spot: 'dragon' }, 'spot'],
    [{ from: '2025-1-1' }, 'from'],
    [{ tableId: '' }, 'tableId'],
  ])('refuses a bad filter %j naming %s', async (filter, field) => {
    await expect(rm.edgeReport(filter)).rejects.toThrow(QueryError);
    await expect(rm.edgeReport(filter)).rejects.toThrow(expect.objectContaining({ field }));
  });
});
