/**
 * The report views in the live read models, on SQLite and PostgreSQL: a runner's read models have them once
 * opened, a rebuild's swap makes them again with the rebuilt tables, and the analysts' model at a new version
 * (its tables dropped and made again) keeps them; each view answers, for a gaming day, what the REST report
 * answers for that filter. On PostgreSQL, readers querying a view all through a rebuild never miss it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEventStore } from '@coup/event-store';
import { gamingDayConfig } from '../read-models/analyst';
import { projectionsFor } from '../read-models';
import { REPORT_VIEWS, anomalyReport, betTypeReport, holdReport, paceReport, ratingReport } from '../reports';
import { reportsHistory } from '../reports/testing/corpus';
import { type Row, camel, rowDifference } from '../reports/testing/same-rows';
import type { SqlReader } from '../sql/reader';
import { startTestPostgres, type TestPostgres } from '../testing/postgres';
import { appendTable } from '../testing/store';
import { CHECKPOINTS } from './db';
import { rebuildProjections } from './rebuild';
import { ProjectionRunner } from './runner';
import type { ReadModelStorage } from './storage';

jest.setTimeout(60_000);

const PROJECTIONS = projectionsFor(
  gamingDayConfig({ gamingDay: '06:00 Europe/London', shifts: 'day=06:00,swing=14:00,grave=22:00' }),
);
const DAY = '2026-03-29';
const VIEWS = REPORT_VIEWS.map((v) => v.name).sort();

let pg: TestPostgres;
let dir: string;
const store = new MemoryEventStore();

beforeAll(async () => {
  pg = await startTestPostgres();
  dir = mkdtempSync(join(tmpdir(), 'coup-report-views-'));
  for (const piece of reportsHistory()) await appendTable(store, piece.tableId, piece.events);
});

afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const TARGETS = {
  sqlite: async () => join(dir, `read-models-${Date.now()}.sqlite`),
  postgres: () => pg.createDatabase(),
};

/** The report views the read models hold. */
async function views(reader: SqlReader): Promise<string[]> {
  const sql =
    reader.dialect === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name"
      : 'SELECT viewname AS name FROM pg_views WHERE schemaname = current_schema() ORDER BY viewname';
  return (await reader.all<{ name: string }>(sql)).map((r) => r.name);
}

/** Each view, read for DAY, against the REST report filtered by that gaming day. */
async function expectViewsAnswerAsReports(reader: SqlReader): Promise<void> {
  const filter = { gamingDay: DAY };
  const rest: Record<string, Row[]> = {
    an_report_hold: (await holdReport(reader, { filter })).rows as unknown as Row[],
    an_report_bet_types: (await betTypeReport(reader, { filter })).rows as unknown as Row[],
    an_report_dealer_pace: (await paceReport(reader, { filter })).rows as unknown as Row[],
    an_report_player_rating: (await ratingReport(reader, { filter })).rows as unknown as Row[],
    an_report_anomalies: (await anomalyReport(reader, { filter, threshold: 3 })).rows.map((r) => {
      const { flagged: _flagged, ...rest } = r;
      return rest as Row;
    }),
  };
  for (const view of VIEWS) {
    const rows = (await reader.all<Row>(`SELECT * FROM ${view} WHERE gaming_day = ?`, [DAY])).map(camel);
    expect(rows.length).toBeGreaterThan(0);
    expect({ view, difference: rowDifference(rest[view] ?? [], rows) }).toEqual({ view, difference: null });
  }
}

async function runner(readModels: string, projections = PROJECTIONS): Promise<ProjectionRunner> {
  const r = new ProjectionRunner({ store, readModels, projections });
  await r.catchUp();
  return r;
}

/** Runs `sql` on the storage's own connection (a write the reader cannot make). */
async function exec(storage: ReadModelStorage, sql: string): Promise<void> {
  if (storage.dialect === 'sqlite') (storage as unknown as { db: { exec(s: string): void } }).db.exec(sql);
  else await (storage as unknown as { pool: { query(s: string): Promise<unknown> } }).pool.query(sql);
}

/** The analysts' model stored at another version: the next runner makes its tables again and refolds it. */
const olderAnalystVersion = (storage: ReadModelStorage): Promise<void> =>
  exec(storage, `UPDATE ${CHECKPOINTS} SET version = version + 1000 WHERE name = 'analyst'`);

describe.each(Object.keys(TARGETS) as (keyof typeof TARGETS)[])('%s', (backend) => {
  test('the views are there once opened, after a rebuild and after a new version of the model, answering as the REST reports', async () => {
    const target = await TARGETS[backend]();
    const first = await runner(target);
    expect(await views(first.storage.reader)).toEqual(VIEWS);
    await expectViewsAnswerAsReports(first.storage.reader);

    await rebuildProjections({ store, storage: first.storage, projections: PROJECTIONS, names: ['analyst'] });
    expect(await views(first.storage.reader)).toEqual(VIEWS);
    await expectViewsAnswerAsReports(first.storage.reader);
    await rebuildProjections({ store, storage: first.storage, projections: PROJECTIONS, names: ['stats'] });
    expect(await views(first.storage.reader)).toEqual(VIEWS);

    await olderAnalystVersion(first.storage);
    await first.close();
    const second = await runner(target);
    try {
      expect(await views(second.storage.reader)).toEqual(VIEWS);
      await expectViewsAnswerAsReports(second.storage.reader);
      // a rebuild of a new version's model too (its ensure drops the tables the views read)
      await olderAnalystVersion(second.storage);
      await rebuildProjections({
        store,
        storage: second.storage,
        projections: PROJECTIONS,
        names: ['analyst'],
      });
      expect(await views(second.storage.reader)).toEqual(VIEWS);
      await expectViewsAnswerAsReports(second.storage.reader);
    } finally {
      await second.close();
    }
  });
});

describe.each(Object.keys(TARGETS) as (keyof typeof TARGETS)[])('%s', (backend) => {
  test("an older release's report view (a name no longer made) blocks neither a new version nor a swap, and goes", async () => {
    const target = await TARGETS[backend]();
    const first = await runner(target);
    const retire = () => exec(first.storage, 'CREATE VIEW an_report_retired AS SELECT * FROM an_fact_coups');
    await retire();
    expect(await views(first.storage.reader)).toEqual([...VIEWS, 'an_report_retired'].sort());
    // a rebuild's swap
    await rebuildProjections({ store, storage: first.storage, projections: PROJECTIONS, names: ['analyst'] });
    expect(await views(first.storage.reader)).toEqual(VIEWS);
    // a new version of the model, made again by the next runner
    await retire();
    await olderAnalystVersion(first.storage);
    await first.close();
    const second = await runner(target);
    try {
      expect(await views(second.storage.reader)).toEqual(VIEWS);
      await expectViewsAnswerAsReports(second.storage.reader);
    } finally {
      await second.close();
    }
  });
});

test('PostgreSQL: readers of a view through a rebuild never find it missing', async () => {
  const r = await runner(
    await pg.createDatabase(),
    PROJECTIONS.filter((p) => p.name === 'analyst'),
  );
  try {
    let done = false;
    let reads = 0;
    const reader = async () => {
      while (!done) {
        await r.storage.reader.all('SELECT count(*) AS n FROM an_report_hold');
        reads++;
      }
    };
    const readers = [reader(), reader()];
    await rebuildProjections({ store, storage: r.storage, projections: PROJECTIONS, names: ['analyst'] });
    done = true;
    await Promise.all(readers);
    expect(reads).toBeGreaterThan(2);
  } finally {
    await r.close();
  }
});

/** The store, but its log cannot be read: a rebuild fails after its start. */
const unreadable = new Proxy(store, {
  get(target, property) {
    if (property === 'readAll')
      return () =>
        (async function* () {
          yield* [];
          throw new Error('the store went away');
        })();
    const value: unknown = Reflect.get(target, property);
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
  },
});

test('postgres: a rebuild of a new version of the model that fails leaves the views in place', async () => {
  const r = await runner(await pg.createDatabase());
  try {
    await olderAnalystVersion(r.storage);
    await expect(
      rebuildProjections({
        store: unreadable,
        storage: r.storage,
        projections: PROJECTIONS,
        names: ['analyst'],
      }),
    ).rejects.toThrow('the store went away');
    expect(await views(r.storage.reader)).toEqual(VIEWS);
  } finally {
    await r.close();
  }
});
