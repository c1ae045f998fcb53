/**
 * The hand history's SQLite storage (handHistoryStorage): an open hand with more than INLINE_CHUNKS x 64 bets
 * keeps its bets in hh_open_bets (a row per 64, written once) instead of rewriting all of them in its hh_hands
 * row and its hh_state once per batch. What the query API returns must be byte-identical to the whole rows
 * (the projection without the storage), after every batch, across a restart, from a state stored whole by the
 * older code, and from a rebuild.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEventStore, type RecordedEvent } from '@coup/event-store';
import type { TableEvent } from '@coup/table';
import { HH_HANDS, HH_OPEN_BETS, INLINE_CHUNKS, PROJECTIONS, handHistoryProjection } from '../..';
import type { AnyProjection } from '../../kernel/types';
import { ReadModels } from '../../../read';
import { dumpMemory, dumpSqlite } from '../../../testing/compare';
import { TableDriver } from '../../../testing/driver';
import { appendTable, allEvents } from '../../../testing/store';
import { type Db, ensureProjection, openReadModelDb, stateTable } from '../../../runner/db';
import { ProjectionEngine } from '../../../runner/engine';
import { rebuildProjections } from '../../../runner/rebuild';

/** The hand history as it was before the storage: whole rows and whole states, once per batch. */
const WHOLE: AnyProjection = { ...handHistoryProjection, storage: undefined };
const WITH_WHOLE = PROJECTIONS.map((p) => (p === handHistoryProjection ? WHOLE : p));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coup-hh-storage-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const all = allEvents;

/** Bets and clears of 40 players in the open round (every 37th a clear). */
function bets(d: TableDriver, from: number, count: number): TableEvent[] {
  return d.betsAndClears(from, count, TableDriver.MIXED_BETS);
}

function open(name: string, projections: readonly AnyProjection[]): Db {
  const db = openReadModelDb(join(dir, name));
  for (const p of projections) ensureProjection(db, p);
  return db;
}

/** What the query API answers about a table's hands: the list and every hand's record, as JSON text. */
async function api(db: Db, tableId: string): Promise<string> {
  const rm = ReadModels.sqlite(db);
  const list = await rm.hands(tableId, {}, { limit: 500 });
  const records = [];
  for (const h of list.items) records.push(await rm.hand(tableId, h.roundNo));
  return JSON.stringify({ list, records });
}

const openBetRows = (db: Db): number =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${HH_OPEN_BETS}`).get() as { n: number }).n;

const storedHand = (db: Db): { betLog: { inRows?: number; chunks: unknown[]; tail: unknown[] } } | null =>
  (
    JSON.parse(
      (db.prepare(`SELECT state FROM ${stateTable('hh')} WHERE key = 'T1'`).get() as { state: string }).state,
    ) as { hand: { betLog: { inRows?: number; chunks: unknown[]; tail: unknown[] } } | null }
  ).hand;

const LIMIT = INLINE_CHUNKS * 64;

/** A table of 40 players whose open round has taken `count` bets and clears (after a first coup, if `played`). */
async function openHand(seed: number, count: number, played: boolean) {
  const store = new MemoryEventStore();
  const d = new TableDriver({ tableId: 'T1', players: 40, seed });
  await appendTable(store, 'T1', [
    ...d.open(10_000_000),
    ...d.execute('StartShoe', { seed: d.nextSeed() }),
    ...(played ? d.playRound() : []),
    ...d.execute('OpenBetting', {}),
    ...bets(d, 0, count),
  ]);
  return { store, d, roundNo: d.state.roundNo };
}

/**
 * Ends the open hand (after `more` events), applies the whole log once more, and checks the tables against the pure
 * folds, with no open-bet rows left.
 */
async function dealAndCompare(
  t: { store: MemoryEventStore; d: TableDriver; roundNo: number; engine: ProjectionEngine; db: Db },
  more: TableEvent[] = [],
): Promise<void> {
  await appendTable(t.store, 'T1', [
    ...more,
    ...t.d.execute('CloseBetting', { roundNo: t.roundNo }),
    ...t.d.execute('Deal', { roundNo: t.roundNo }),
  ]);
  const final = await all(t.store);
  t.engine.applyBatch(final);
  expect(dumpSqlite(t.db, PROJECTIONS)).toEqual(dumpMemory(final, PROJECTIONS));
  expect(openBetRows(t.db)).toBe(0);
}

describe('hand history storage: an open hand with many bets', () => {
  test('given a round of 3,000 bets and clears committed in batches of every size, when the API reads it after each batch and after the deal, then it answers byte for byte as with whole rows, and the rows move to hh_open_bets past the limit and go when the hand ends', async () => {
    const store = new MemoryEventStore();
    const d = new TableDriver({ tableId: 'T1', players: 40, seed: 5 });
    await appendTable(store, 'T1', [
      ...d.open(10_000_000),
      ...d.execute('StartShoe', { seed: d.nextSeed() }),
      ...d.playRound(),
      ...d.execute('OpenBetting', {}),
    ]);
    const roundNo = d.state.roundNo;
    const parts = bets(d, 0, 3_000);
    const split = new Db2(open('split.sqlite', PROJECTIONS), PROJECTIONS);
    const whole = new Db2(open('whole.sqlite', WITH_WHOLE), WITH_WHOLE);
    const sizes = [1, 63, 64, 65, 1, 200, 7, 500, 129, 2, 333];
    let at = 0;
    let batches = 0;
    let spilled = 0;
    await split.catchUp(store);
    await whole.catchUp(store);
    for (let k = 0; at < parts.length; k++) {
      const n = sizes[k % sizes.length]!;
      await appendTable(store, 'T1', parts.slice(at, at + n));
      at = Math.min(at + n, parts.length);
      await split.catchUp(store);
      await whole.catchUp(store);
      expect(await api(split.db, 'T1')).toBe(await api(whole.db, 'T1'));
      const hand = storedHand(split.db)!;
      if (at > LIMIT + 64) {
        spilled += 1;
        // the state holds how many chunks are in rows, not the bets; the row has no bets_json
        expect(hand.betLog.inRows).toBe(Math.floor(at / 64));
        expect(hand.betLog.chunks).toEqual([]);
        expect(openBetRows(split.db)).toBe(Math.floor(at / 64) + 1);
        const row = split.db
          .prepare(`SELECT bets_json FROM ${HH_HANDS} WHERE table_id = 'T1' AND round_no = ?`)
          .get(roundNo) as { bets_json: string | null };
        expect(row.bets_json).toBeNull();
      } else if (at < LIMIT) {
        expect(hand.betLog.inRows).toBeUndefined();
        expect(openBetRows(split.db)).toBe(0);
      }
      batches += 1;
    }
    expect(batches).toBeGreaterThan(15);
    expect(spilled).toBeGreaterThan(5);
    await appendTable(store, 'T1', [
      ...d.execute('CloseBetting', { roundNo }),
      ...d.execute('Deal', { roundNo }),
    ]);
    await split.catchUp(store);
    await whole.catchUp(store);
    expect(await api(split.db, 'T1')).toBe(await api(whole.db, 'T1'));
    expect(openBetRows(split.db)).toBe(0);
    expect(storedHand(split.db)).toBeNull();
    // the stored tables themselves: the same as whole rows once no hand is open
    expect(dumpSqlite(split.db, PROJECTIONS, { raw: true })).toEqual(dumpSqlite(whole.db, WITH_WHOLE));
    expect(dumpSqlite(split.db, PROJECTIONS)).toEqual(dumpMemory(await all(store), PROJECTIONS));
    split.db.close();
    whole.db.close();
  });

  test('given an open hand past the limit, when a new process resumes from the file (each event delivered twice), then it loads the bets from hh_open_bets and the tables end those of a fold from the start', async () => {
    const { store, d, roundNo } = await openHand(6, LIMIT + 300, false);
    const first = new Db2(open('rm.sqlite', PROJECTIONS), PROJECTIONS);
    await first.catchUp(store);
    expect(openBetRows(first.db)).toBeGreaterThan(INLINE_CHUNKS);
    const file = first.db.name;
    first.db.close();

    await appendTable(store, 'T1', bets(d, LIMIT + 300, 150));
    const reopened = openReadModelDb(file);
    const engine = new ProjectionEngine({ db: reopened, projections: PROJECTIONS });
    const events = await all(store);
    // every event of the store delivered again (the first part was applied already): nothing changes twice
    engine.applyBatch(events);
    engine.applyBatch(events);
    expect(dumpSqlite(reopened, PROJECTIONS)).toEqual(dumpMemory(events, PROJECTIONS));
    expect(storedHand(reopened)!.betLog.inRows).toBe(Math.floor((LIMIT + 450) / 64));

    await appendTable(store, 'T1', [
      ...d.execute('CloseBetting', { roundNo }),
      ...d.execute('Deal', { roundNo }),
      ...d.playRound(),
    ]);
    const final = await all(store);
    engine.applyBatch(final);
    engine.applyBatch(final);
    expect(dumpSqlite(reopened, PROJECTIONS)).toEqual(dumpMemory(final, PROJECTIONS));
    expect(openBetRows(reopened)).toBe(0);
    reopened.close();
  });

  test('given an open hand past the limit stored whole by the older code, when the new code resumes, then it writes the bets to hh_open_bets once and answers as before', async () => {
    const { store, d, roundNo } = await openHand(7, LIMIT + 200, false);
    const old = new Db2(open('rm.sqlite', WITH_WHOLE), WITH_WHOLE);
    await old.catchUp(store);
    expect(storedHand(old.db)!.betLog.chunks.length).toBeGreaterThan(INLINE_CHUNKS);
    const before = await api(old.db, 'T1');
    const file = old.db.name;
    old.db.close();

    const db = openReadModelDb(file);
    for (const p of PROJECTIONS) ensureProjection(db, p); // as the runner does: creates hh_open_bets
    expect(await api(db, 'T1')).toBe(before);
    const engine = new ProjectionEngine({ db, projections: PROJECTIONS });
    await appendTable(store, 'T1', bets(d, LIMIT + 200, 10));
    const events = await all(store);
    engine.applyBatch(events);
    expect(openBetRows(db)).toBe(Math.floor((LIMIT + 210) / 64) + 1);
    expect(dumpSqlite(db, PROJECTIONS)).toEqual(dumpMemory(events, PROJECTIONS));
    await dealAndCompare({ store, d, roundNo, engine, db });
    db.close();
  });

  test.each(['in-process', 'thread'] as const)(
    'given a history ending in an open hand past the limit, when rebuilt (writes %s), then the tables equal the pure folds and the live engine carries on from them',
    async (writer) => {
      const { store, d, roundNo } = await openHand(8, LIMIT + 500, true);
      const db = open('rm.sqlite', PROJECTIONS);
      // small folds and commits: the open hand is flushed (rows written) several times before the end
      await rebuildProjections({ store, db, page: 100, commitEvery: 300, writer });
      const events = await all(store);
      expect(dumpSqlite(db, PROJECTIONS)).toEqual(dumpMemory(events, PROJECTIONS));
      expect(openBetRows(db)).toBe(Math.floor((LIMIT + 500) / 64) + 1);
      const engine = new ProjectionEngine({ db, projections: PROJECTIONS });
      await dealAndCompare({ store, d, roundNo, engine, db }, bets(d, LIMIT + 500, 100));
      db.close();
    },
  );
});

/** A read-model file and an engine that commits whatever the store has beyond its checkpoints. */
class Db2 {
  private readonly engine: ProjectionEngine;
  constructor(
    readonly db: Db,
    projections: readonly AnyProjection[],
  ) {
    this.engine = new ProjectionEngine({ db, projections });
  }
  async catchUp(store: MemoryEventStore): Promise<void> {
    const from = BigInt(this.engine.minCheckpoint());
    const batch: RecordedEvent[] = [];
    for await (const e of store.readAll({ fromPosition: from })) batch.push(e);
    this.engine.applyBatch(batch);
  }
}
