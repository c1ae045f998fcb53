/**
 * A read-model file whose `hh_state` holds an open hand stored by the hand-history fold before bets were chunked
 * (bets as one flat list) still loads and folds: the runner resumes from it and the
 * tables end up those of a fold of every event from the start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEventStore } from '@coup/event-store';
import type { TableEvent } from '@coup/table';
import { PROJECTIONS } from '../..';
import { dumpMemory, dumpSqlite } from '../../../testing/compare';
import { TableDriver } from '../../../testing/driver';
import { appendTable, allEvents } from '../../../testing/store';
import { ensureProjection, openReadModelDb, stateTable } from '../../../runner/db';
import { ProjectionEngine } from '../../../runner/engine';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coup-hh-state-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const all = allEvents;

function bets(d: TableDriver, from: number, count: number): TableEvent[] {
  return d.betsAndClears(from, count, { players: 10, clearEvery: 23, spot: () => 'banker' });
}

test('given hh_state with an open hand in the old shape (flat bets), when the runner resumes, then the tables equal a fold from the start', async () => {
  const store = new MemoryEventStore();
  const d = new TableDriver({ tableId: 'T1', players: 10, seed: 9 });
  await appendTable(store, 'T1', [
    ...d.open(1_000_000),
    ...d.execute('StartShoe', { seed: d.nextSeed() }),
    ...d.execute('OpenBetting', {}),
    ...bets(d, 0, 150),
  ]);
  const file = join(dir, 'rm.sqlite');
  const db = openReadModelDb(file);
  for (const p of PROJECTIONS) ensureProjection(db, p);
  new ProjectionEngine({ db, projections: PROJECTIONS }).applyBatch(await all(store));

  // rewrite the stored state as the first version stored it: `bets: [...]` instead of the chunked log
  const table = stateTable('hh');
  const row = db.prepare(`SELECT state FROM ${table} WHERE key = 'T1'`).get() as { state: string };
  const state = JSON.parse(row.state) as {
    hand: { betLog?: { chunks: unknown[][]; tail: unknown[] }; bets?: unknown[] };
  };
  const log = state.hand.betLog!;
  const flat = [...log.chunks.flat(), ...log.tail];
  expect(flat).toHaveLength(150);
  delete state.hand.betLog;
  state.hand.bets = flat;
  const old = JSON.stringify(state);
  expect(old).not.toContain('betLog');
  db.prepare(`UPDATE ${table} SET state = ? WHERE key = 'T1'`).run(old);
  db.close();

  // a new process: the engine loads the old state from the file
  const roundNo = d.state.roundNo;
  await appendTable(store, 'T1', bets(d, 150, 100));
  const reopened = openReadModelDb(file);
  const engine = new ProjectionEngine({ db: reopened, projections: PROJECTIONS });
  const events = await all(store);
  engine.applyBatch(events);
  const resumed = (reopened.prepare(`SELECT state FROM ${table} WHERE key = 'T1'`).get() as { state: string })
    .state;
  expect(JSON.parse(resumed)).toMatchObject({ hand: { betLog: { tail: expect.any(Array) } } });
  expect(JSON.parse(resumed).hand.bets).toBeUndefined();
  expect(dumpSqlite(reopened, PROJECTIONS)).toEqual(dumpMemory(events, PROJECTIONS));

  await appendTable(store, 'T1', [
    ...d.execute('CloseBetting', { roundNo }),
    ...d.execute('Deal', { roundNo }),
    ...d.playRound(),
  ]);
  const final = await all(store);
  engine.applyBatch(final);
  expect(dumpSqlite(reopened, PROJECTIONS)).toEqual(dumpMemory(final, PROJECTIONS));
  reopened.close();
  await store.close();
});
