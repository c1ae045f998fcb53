import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadModelDb } from './db';
import { WriterThread } from './writer-thread';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coup-writer-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the rebuild writer thread', () => {
  test('runs the statements in order in its transactions; after a failed write it commits nothing and names the error', async () => {
    const file = join(dir, 'rm.sqlite');
    const db = openReadModelDb(file);
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    const w = new WriterThread(file);
    try {
      await w.exec('BEGIN IMMEDIATE');
      for (let k = 1; k <= 3; k++) w.sink('INSERT INTO t (k, v) VALUES (?, ?)', [k, `v${k}`]);
      w.sink('UPDATE t SET v = ? WHERE k = ?', ['two', 2]);
      await w.exec('COMMIT');
      expect(db.prepare('SELECT k, v FROM t ORDER BY k').all()).toEqual([
        { k: 1, v: 'v1' },
        { k: 2, v: 'two' },
        { k: 3, v: 'v3' },
      ]);

      await w.exec('BEGIN IMMEDIATE');
      w.sink('INSERT INTO t (k, v) VALUES (?, ?)', [4, 'v4']);
      w.sink('INSERT INTO t (k, v) VALUES (?, ?)', [5, null]); // NOT NULL: fails
      w.sink('INSERT INTO t (k, v) VALUES (?, ?)', [6, 'v6']);
      const failure = await w.exec('COMMIT').then(
        () => null,
        (e: unknown) => e,
      );
      expect(failure).toMatchObject({ code: 'REBUILD_WRITE_FAILED' });
      expect((failure as Error).message).toMatch(/NOT NULL/);
      await w.exec('ROLLBACK').catch(() => undefined);
      expect(db.prepare('SELECT max(k) AS m FROM t').get()).toEqual({ m: 3 });
    } finally {
      await w.close();
      db.close();
    }
  });
});
