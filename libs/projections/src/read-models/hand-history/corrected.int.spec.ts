/**
 * The hand history's `corrected` filter on both dialects: the golden corpus (cards corrected while dealt, and
 * after the coup settled) folded into SQLite and copied into a real PostgreSQL; `corrected: true` answers exactly
 * the hands the log has a CardCorrected or SettledCoupCorrected for, `false` every other hand.
 */
import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { tableStream } from '@coup/table';
import { PROJECTIONS } from '../index';
import { ReadModels } from '../../read/read-models';
import { pgTypes } from '../../sql/reader';
import { foldCorpus, goldenCorpus } from '../../testing/corpus';
import { copyReadModelsToPostgres } from '../../testing/pg-copy';
import { startTestPostgres, type TestPostgres } from '../../testing/postgres';
import type { HandFilter } from './wire';

jest.setTimeout(60_000);

let pg: TestPostgres;
let sqlite: ReadModels;
let postgres: ReadModels;
/** Per table: the rounds the log corrected a card of. */
const corrected = new Map<string, Set<number>>();
const rounds = new Map<string, Set<number>>();
const kinds = new Set<string>();

beforeAll(async () => {
  const starting = startTestPostgres();
  const events = goldenCorpus();
  for (const e of events) {
    kinds.add(e.type);
    const tableId = e.streamName.slice(tableStream('').length);
    const roundNo = (e.data as { roundNo?: unknown }).roundNo;
    if (typeof roundNo !== 'number') continue;
    if (e.type === 'BettingOpened') rounds.set(tableId, (rounds.get(tableId) ?? new Set()).add(roundNo));
    if (e.type === 'CardCorrected' || e.type === 'SettledCoupCorrected')
      corrected.set(tableId, (corrected.get(tableId) ?? new Set()).add(roundNo));
  }
  const db = new Database(':memory:');
  foldCorpus(db, events);
  sqlite = ReadModels.sqlite(db);
  pg = await starting;
  const url = await pg.createDatabase('coup_corrected');
  const pool = new Pool({ connectionString: url, types: pgTypes });
  try {
    await copyReadModelsToPostgres(db, pool, PROJECTIONS);
  } finally {
    await pool.end();
  }
  postgres = await ReadModels.open(url);
});

afterAll(async () => {
  await postgres?.close();
  await pg?.stop();
});

/** Every round a filter answers at a table (all pages). */
async function roundsOf(rm: ReadModels, tableId: string, filter: HandFilter): Promise<number[]> {
  const out: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await rm.hands(tableId, { ...filter, order: 'asc' }, { cursor, limit: 500 });
    out.push(...page.items.map((h) => h.roundNo));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return out;
}

test('the corpus corrects cards both while dealt and after the coup settled', () => {
  expect(kinds.has('CardCorrected') && kinds.has('SettledCoupCorrected')).toBe(true);
  expect([...corrected.values()].reduce((n, s) => n + s.size, 0)).toBeGreaterThan(1);
});

test.each(['sqlite', 'postgres'])(
  '%s: corrected true and false split each table’s hands by the log',
  async (which) => {
    const rm = which === 'sqlite' ? sqlite : postgres;
    for (const [tableId, all] of rounds) {
      const want = [...(corrected.get(tableId) ?? [])].sort((a, b) => a - b);
      expect({ tableId, rounds: await roundsOf(rm, tableId, { corrected: true }) }).toEqual({
        tableId,
        rounds: want,
      });
      const rest = [...all].filter((r) => !want.includes(r)).sort((a, b) => a - b);
      expect({ tableId, rounds: await roundsOf(rm, tableId, { corrected: false }) }).toEqual({
        tableId,
        rounds: rest,
      });
    }
  },
);

test('anything but a boolean is refused, naming the field', async () => {
  await expect(sqlite.hands('T1', { corrected: 'yes' as unknown as boolean })).rejects.toMatchObject({
    code: 'INVALID_QUERY',
    field: 'corrected',
  });
});
