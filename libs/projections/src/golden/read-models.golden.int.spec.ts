/**
 * Golden test of the read models: the fixed corpus (testing/corpus.ts) folded as the runner folds it, every
 * table of every read model hashed, and what the queries answer from them, compared with the hashes committed
 * in `read-models.golden.json`. A change of any row, or of any answer, fails it. `UPDATE_GOLDEN=1` rewrites the
 * file (only in a commit that means to change the read models, with its own test of that change).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadModelDb } from '../runner/db';
import { dumpHashes, foldCorpus, goldenCorpus } from '../testing/corpus';
import { queryHashes } from '../testing/query-answers';

const GOLDEN = join(__dirname, 'read-models.golden.json');

jest.setTimeout(120_000);

test('the read models of the golden corpus are byte for byte the recorded ones', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'coup-golden-'));
  try {
    const events = goldenCorpus();
    const db = openReadModelDb(join(dir, 'rm.sqlite'));
    foldCorpus(db, events);
    const actual = {
      events: events.length,
      tables: new Set(events.map((e) => e.streamName)).size,
      hashes: dumpHashes(db),
      queries: await queryHashes(db, [...new Set(events.map((e) => e.streamName.slice('table-'.length)))]),
    };
    db.close();
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(GOLDEN, `${JSON.stringify(actual, null, 2)}\n`);
    const expected = JSON.parse(readFileSync(GOLDEN, 'utf8')) as typeof actual;
    expect(actual).toEqual(expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
