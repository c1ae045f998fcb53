import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preparePrivateSqliteFile } from './private-files';
import { SqliteEventStore } from './sqlite';
import { events } from './testing/contract';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const modesIn = (dir: string) => Object.fromEntries(readdirSync(dir).map((f) => [f, mode(join(dir, f))]));

let root: string;
let umask: number;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'coup-private-'));
  // the most permissive umask: every mode below is the code's, none the umask's
  umask = process.umask(0o000);
});
afterEach(() => {
  process.umask(umask);
  rmSync(root, { recursive: true, force: true });
});

describe.each(['inline', 'worker'] as const)(
  'the SQLite store (%s writer) keeps its files owner-only',
  (writer) => {
    it('a new store: its folder 0700, the file, its WAL and shared memory 0600', async () => {
      const dir = join(root, 'a', 'data');
      const store = new SqliteEventStore({ file: join(dir, 'events.sqlite'), writer });
      await store.appendToStream('s-1', events(3));
      expect(mode(dir)).toBe('700');
      expect(mode(join(root, 'a'))).toBe('700');
      expect(modesIn(dir)).toEqual({
        'events.sqlite': '600',
        'events.sqlite-wal': '600',
        'events.sqlite-shm': '600',
      });
      await store.close();
      for (const m of Object.values(modesIn(dir))) expect(m).toBe('600');
    });

    it('files an older version left readable by others are made 0600 when opened', async () => {
      const file = join(root, 'events.sqlite');
      const first = new SqliteEventStore({ file, writer });
      await first.appendToStream('s-1', events(1));
      await first.close();
      chmodSync(file, 0o644);
      writeFileSync(`${file}-wal`, '');
      chmodSync(`${file}-wal`, 0o666);
      const again = new SqliteEventStore({ file, writer });
      await again.appendToStream('s-1', events(1));
      expect(modesIn(root)).toEqual({
        'events.sqlite': '600',
        'events.sqlite-wal': '600',
        'events.sqlite-shm': '600',
      });
      await again.close();
    });
  },
);

it('preparePrivateSqliteFile leaves in-memory and temporary databases alone', () => {
  preparePrivateSqliteFile(':memory:');
  preparePrivateSqliteFile('');
  expect(readdirSync(root)).toEqual([]);
});
