/** The statistics per bet type over the SQLite read models, folded by the runner from a store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore, createEventStore } from '@coup/event-store';
import type { TableEvent } from '@coup/table';
import { QueryError } from '../../read/query-kit';
import { ReadModels } from '../../read/read-models';
import { ProjectionRunner } from '../../runner/runner';
import { TableDriver } from '../../testing/driver';
import { appendTable } from '../../testing/store';

jest.setTimeout(60_000);

let dir: string;
let store: EventStore;
let runner: ProjectionRunner;
let rm: ReadModels;
const events = new Map<string, TableEvent[]>();

/** A table of these rules played `rounds` rounds (its events kept), then folded. */
async function played(tableId: string, rules: Record<string, unknown>, rounds: number): Promise<void> {
  const d = new TableDriver({ tableId, players: 4, seed: 7, rules });
  const all = d.open();
  for (let i = 0; i < rounds; i++) {
    if (i === 10) d.setTime('2025-01-02T09:00:00.000Z');
    all.push(...d.playRound());
  }
  events.set(tableId, all);
  await appendTable(store, tableId, all);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coup-bet-stats-'));
  store = createEventStore({ kind: 'memory' });
  runner = new ProjectionRunner({ store, readModels: join(dir, 'rm.sqlite') });
  rm = ReadModels.sqlite(runner.db);
  await played(
    'C1',
    { sideBets: { playerPair: {}, perfectPair: { paytable: '25-or-200-to-1' }, big: {} } },
    20,
  );
  await played('N1', { game: 'no-commission', decks: 6, sideBets: { super6: { paytable: '15-to-1' } } }, 20);
  await runner.catchUp();
});
afterAll(async () => {
  await runner.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Stakes and payouts settled on each spot, from the table's CoupResolved events. */
function settled(tableId: string): Map<string, { handle: number; paid: number; bets: number }> {
  const out = new Map<string, { handle: number; paid: number; bets: number }>();
  for (const e of events.get(tableId) ?? []) {
    if (e.type !== 'CoupResolved') continue;
    for (const s of e.data.settlements) {
      const t = out.get(s.spot) ?? { handle: 0, paid: 0, bets: 0 };
      out.set(s.spot, { handle: t.handle + s.amount, paid: t.paid + s.paid, bets: t.bets + 1 });
    }
  }
  return out;
}

describe('statistics per bet type', () => {
  test('per table: every offered bet, each result beside its exact probability with a Wilson 95% interval, stakes as settled', async () => {
    const view = await rm.betStats({ tableId: 'C1' });
    expect(view.confidence).toBe('wilson-95');
    const table = view.tables[0]!;
    expect(table).toMatchObject({ tableId: 'C1', decks: 8, game: 'commission', tiePays: 8 });
    expect(table.bets.map((b) => [b.spot, b.variant])).toEqual([
      ['player', '1-to-1'],
      ['banker', 'commission'],
      ['tie', '8-to-1'],
      ['playerPair', '11-to-1'],
      ['perfectPair', '25-or-200-to-1'],
      ['big', '0.54-to-1'],
    ]);
    const coups = (events.get('C1') ?? []).filter((e) => e.type === 'CoupResolved').length;
    const money = settled('C1');
    for (const b of table.bets) {
      expect([b.spot, b.coups]).toEqual([b.spot, coups]);
      expect(b.results.reduce((a, r) => a + r.count, 0)).toBe(coups);
      expect(b.results.reduce((a, r) => a + (r.expected ?? 0), 0)).toBeCloseTo(1, 12);
      for (const r of b.results) {
        expect(r.frequency).toBe(r.count / coups);
        expect(r.ci95!.low).toBeLessThanOrEqual(r.frequency!);
        expect(r.ci95!.high).toBeGreaterThanOrEqual(r.frequency!);
      }
      const m = money.get(b.spot) ?? { handle: 0, paid: 0, bets: 0 };
      expect([b.spot, b.handle, b.paid, b.bets]).toEqual([b.spot, m.handle, m.paid, m.bets]);
      if (b.handle > 0) expect(b.holdPercent).toBeCloseTo(((b.handle - b.paid) / b.handle) * 100, 10);
    }
    expect(table.bets.find((b) => b.spot === 'perfectPair')!.results.map((r) => r.pays)).toEqual([
      '200:1',
      '25:1',
      null,
    ]);
    expect(table.total.handle).toBe([...money.values()].reduce((a, m) => a + m.handle, 0));
  });

  test("overall: the banker bet of each game mode apart, its edge the mode's; totals of every bet together", async () => {
    const view = await rm.betStats();
    const bankers = view.overall.bets.filter((b) => b.spot === 'banker');
    expect(bankers.map((b) => b.variant)).toEqual(['commission', 'no-commission']);
    expect(bankers[0]!.theoreticalEdgePercent).toBeCloseTo(1.0579, 3);
    expect(bankers[1]!.theoreticalEdgePercent).toBeCloseTo(1.458, 2);
    expect(bankers[1]!.results.find((r) => r.key === 'win:1/2')).toMatchObject({ pays: '1:2' });
    expect(view.overall.bets.find((b) => b.spot === 'super6')).toMatchObject({ variant: '15-to-1' });
    expect(view.tables.map((t) => t.tableId)).toEqual(['C1', 'N1']);
    expect(view.overall.total.handle).toBe(view.tables.reduce((a, t) => a + t.total.handle, 0));
    expect(view.days.map((d) => d.day)).toEqual(['2025-01-01', '2025-01-02']);
    const day2 = await rm.betStats({ from: '2025-01-02', to: '2025-01-02' });
    expect(day2.days.map((d) => d.day)).toEqual(['2025-01-02']);
    expect(day2.overall.bets.find((b) => b.spot === 'player')!.coups).toBe(20);
  });

  test('a bad filter is refused naming its field', async () => {
    await expect(rm.betStats({ from: 'yesterday' })).rejects.toThrow(QueryError);
    await expect(rm.betStats({ tableId: 'x'.repeat(65) })).rejects.toThrow(
      expect.objectContaining({ field: 'tableId' }),
    );
  });
});
