import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { PROJECTIONS } from '../read-models';
import { dumpSqlite } from './compare';
import { foldCorpus, goldenCorpus } from './corpus';
import { copyReadModelsToPostgres } from './pg-copy';
import { startTestPostgres, type TestPostgres } from './postgres';
import { pgTypes } from '../sql/reader';

// folding the golden corpus through every read model and copying it takes seconds on a loaded machine
jest.setTimeout(60_000);

describe('copyReadModelsToPostgres', () => {
  let pg: TestPostgres;
  let pool: Pool;
  beforeAll(async () => {
    pg = await startTestPostgres();
    pool = new Pool({ connectionString: await pg.createDatabase(), types: pgTypes });
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await pg?.stop();
  });

  it('gives PostgreSQL the same rows as the SQLite file, table by table', async () => {
    const db = new Database(':memory:');
    foldCorpus(db, goldenCorpus());
    await copyReadModelsToPostgres(db, pool, PROJECTIONS);
    const fromSqlite = dumpSqlite(db, PROJECTIONS, { raw: true });
    for (const [table, rows] of Object.entries(fromSqlite)) {
      const copied = (await pool.query(`SELECT * FROM "${table}"`)).rows as typeof rows;
      expect({ table, n: copied.length }).toEqual({ table, n: rows.length });
      expect({ table, rows: new Set(copied.map((r) => JSON.stringify(r))) }).toEqual({
        table,
        rows: new Set(rows.map((r) => JSON.stringify(r))),
      });
    }
  });
});
