import Database from 'better-sqlite3';
import { Pool } from 'pg';
import { startTestPostgres, type TestPostgres } from '../testing/postgres';
import type { TableDef } from '../read-models/kernel/types';
import { createTableStatements, numberedPlaceholders } from './dialect';
import { pgTypes, postgresReader, type SqlReader, sqliteReader } from './reader';

const def: TableDef = {
  name: 't_things',
  doc: 'test',
  primaryKey: ['id'],
  withoutRowid: true,
  indexes: [{ name: 'by_cents', columns: ['cents'] }],
  columns: [
    { name: 'id', type: 'TEXT', doc: '' },
    { name: 'cents', type: 'INTEGER', doc: '' },
    { name: 'ratio', type: 'REAL', doc: '' },
    { name: 'position', type: 'INTEGER', doc: 'a word PostgreSQL reserves elsewhere' },
  ],
};

describe('numbered placeholders', () => {
  it('numbers every ? outside quotes', () => {
    expect(numberedPlaceholders(`SELECT '?' AS "a?", x FROM t WHERE a = ? AND b IN (?, ?)`)).toBe(
      `SELECT '?' AS "a?", x FROM t WHERE a = $1 AND b IN ($2, $3)`,
    );
  });
});

describe('one query, two dialects', () => {
  let pg: TestPostgres;
  let pool: Pool;
  let readers: [string, SqlReader][];
  const rows: [string, number, number, number][] = [
    ['a', 9_007_199_254_740_000, 0.5, 1],
    ['b', -250, 1.25, 2],
    ['c', 0, 0, 3],
  ];

  beforeAll(async () => {
    pg = await startTestPostgres();
    pool = new Pool({ connectionString: await pg.createDatabase(), types: pgTypes });
    const db = new Database(':memory:');
    for (const sql of createTableStatements(def, def.name, 'g1', 'sqlite')) db.exec(sql);
    for (const sql of createTableStatements(def, def.name, 'g1', 'postgres')) await pool.query(sql);
    for (const r of rows) {
      db.prepare('INSERT INTO t_things VALUES (?, ?, ?, ?)').run(...r);
      await pool.query('INSERT INTO t_things VALUES ($1, $2, $3, $4)', r);
    }
    readers = [
      ['sqlite', sqliteReader(db)],
      ['postgres', postgresReader(pool)],
    ];
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await pg?.stop();
  });

  it('answers equal rows, numbers as numbers (BIGINT, sums, counts)', async () => {
    const answers = await Promise.all(
      readers.map(([, r]) =>
        r.all(
          `SELECT id, cents, ratio, "position" FROM t_things WHERE cents <= ? ORDER BY id`,
          [9_007_199_254_740_000],
        ),
      ),
    );
    expect(answers[0]).toEqual(rows.map(([id, cents, ratio, position]) => ({ id, cents, ratio, position })));
    expect(answers[1]).toEqual(answers[0]);
    const sums = await Promise.all(
      readers.map(([, r]) => r.get(`SELECT SUM(cents) AS s, COUNT(*) AS n FROM t_things WHERE id <> ?`, ['a'])),
    );
    expect(sums).toEqual([
      { s: -250, n: 2 },
      { s: -250, n: 2 },
    ]);
  });
});
