import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadModelDb } from './db';

it('the read-model file and its WAL are owner-only (0600) in a new folder (0700), whatever the umask', () => {
  const root = mkdtempSync(join(tmpdir(), 'coup-rm-modes-'));
  const umask = process.umask(0o000);
  try {
    const dir = join(root, 'data');
    const db = openReadModelDb(join(dir, 'read-models.sqlite'));
    db.exec('CREATE TABLE t (x INTEGER)');
    db.exec('INSERT INTO t VALUES (1)');
    const mode = (f: string) => (statSync(join(dir, f)).mode & 0o777).toString(8);
    expect((statSync(dir).mode & 0o777).toString(8)).toBe('700');
    expect(Object.fromEntries(readdirSync(dir).map((f) => [f, mode(f)]))).toEqual({
      'read-models.sqlite': '600',
      'read-models.sqlite-wal': '600',
      'read-models.sqlite-shm': '600',
    });
    db.close();
  } finally {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  }
});
