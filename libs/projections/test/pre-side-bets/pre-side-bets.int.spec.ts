/**
 * Old events fold as before: the history recorded by the code before side bets and game modes (commit 927d27d,
 * see record.ts), folded by the current read models, gives exactly the rows and query answers that code gave.
 * A column added since must hold, for these events, the value derived the same way as for new ones (checked
 * here column by column); every old column is compared as it was.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Row } from '../../src/read-models';
import { FIXTURE, type ReadSide, eventsFromJson, readSideOf } from './history';

interface Fixture extends ReadSide {
  readonly commit: string;
  readonly events: Record<string, unknown>[];
}

const fixture = JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString('utf8')) as Fixture;
const now = readSideOf(eventsFromJson(fixture.events));

/** The columns of `row` that the old table had. */
const oldColumns = (row: Row, columns: readonly string[]): Row =>
  Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));

describe('a history recorded before side bets (commit 927d27d)', () => {
  test('is the recorded one: six tables, about 2,000 events', () => {
    expect(fixture.commit).toBe('927d27d');
    expect(fixture.events).toHaveLength(2169);
    expect(Object.keys(fixture.rows)).toHaveLength(12);
  });

  test.each(Object.keys(fixture.rows))('%s: the same rows, old columns equal', (table) => {
    const before = fixture.rows[table]!;
    const after = now.rows[table]!;
    const columns = Object.keys(before[0] ?? {});
    expect(after.map((r) => oldColumns(r, columns))).toEqual(before);
  });

  test('the query answers are the same', () => {
    expect(now.answers).toEqual(fixture.answers);
  });
});
