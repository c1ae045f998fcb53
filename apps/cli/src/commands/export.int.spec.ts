/**
 * `coup export` on a data folder: a live table with side bets, voids and corrections across two gaming days (the
 * default cut-over, 06:00 UTC), folded by `coup projections rebuild`, exported per table and day as Parquet and
 * CSV: the files are named by table and day, hold the library's export of those rows (Parquet read back by
 * hyparquet: the day's rows, typed), and bad calls exit 2 naming the bad option.
 */
import { spawnSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { createEventStore } from '@coup/event-store';
import { type ExportRequest, ReadModels, exportFacts } from '@coup/projections';
import * as testing from '@coup/projections/testing';
import { runCli } from '../cli';
import { fakeIo } from '../testing';
import { exportCommand } from './export';
import { projections } from './projections';

jest.setTimeout(60_000);

const root = resolve(__dirname, '../../../..');
let dir: string;
let out: string;
let read: ReadModels;
const saved = process.env['COUP_DATA_DIR'];
const DAYS = ['2026-11-30', '2026-12-01'];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coup-cli-export-'));
  out = join(dir, 'out');
  process.env['COUP_DATA_DIR'] = dir;
  const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  const d = new testing.TableDriver({
    tableId: 'T1',
    players: 3,
    seed: 5,
    start: '2026-12-01T05:30:00.000Z',
    stepMs: 30_000,
    rules: { dealing: 'live', sideBets: { playerPair: {}, bankerPair: {} } },
    voidRate: 0.1,
    correctionRate: 0.2,
    settledCorrectionRate: 0.1,
  });
  await testing.appendTable(store, 'T1', d.open());
  for (let i = 0; i < 16; i++) await testing.appendTable(store, 'T1', d.playRound());
  await store.close();
  expect(await projections.run(['rebuild'], fakeIo())).toBe(0);
  read = ReadModels.sqlite(join(dir, 'read-models.sqlite'));
});

afterAll(async () => {
  await read?.close();
  if (saved === undefined) delete process.env['COUP_DATA_DIR'];
  else process.env['COUP_DATA_DIR'] = saved;
  rmSync(dir, { recursive: true, force: true });
});

async function libraryBytes(request: ExportRequest): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of exportFacts(read.sql, request)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

test('Parquet: a file per table and gaming day, each the day’s rows, typed', async () => {
  const io = fakeIo();
  const args = [
    '--gaming-day',
    DAYS[0]!,
    '--to',
    DAYS[1]!,
    '--tables',
    'coups,bets,amendments',
    '--out',
    out,
  ];
  expect(await exportCommand.run(args, io)).toBe(0);
  const names = DAYS.flatMap((d) => ['coups', 'bets', 'amendments'].map((t) => `${t}-${d}.parquet`));
  expect(readdirSync(out).sort()).toEqual([...names].sort());
  expect(io.out().trim().split('\n')).toHaveLength(6);
  for (const day of DAYS) {
    const count = await read.sql.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM an_fact_bets WHERE gaming_day = ?`,
      [day],
    );
    expect(count?.n).toBeGreaterThan(0);
    const bytes = readFileSync(join(out, `bets-${day}.parquet`));
    expect(io.out()).toContain(`bets-${day}.parquet\t${count?.n} rows\t${bytes.length} bytes`);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
    const rows = await parquetReadObjects({ file });
    expect(rows).toHaveLength(count!.n);
    expect(rows.every((r) => r['gaming_day'] === day && typeof r['stake'] === 'bigint')).toBe(true);
    for (const table of ['coups', 'bets', 'amendments'] as const) {
      const expected = await libraryBytes({ table, gamingDay: day, format: 'parquet' });
      expect(readFileSync(join(out, `${table}-${day}.parquet`)).equals(expected)).toBe(true);
    }
  }
});

test('CSV of coups and bets by default, the library’s bytes', async () => {
  const csvOut = join(dir, 'csv');
  expect(
    await exportCommand.run(['--gaming-day', DAYS[1]!, '--format', 'csv', '--out', csvOut], fakeIo()),
  ).toBe(0);
  expect(readdirSync(csvOut).sort()).toEqual([`bets-${DAYS[1]}.csv`, `coups-${DAYS[1]}.csv`]);
  for (const table of ['coups', 'bets'] as const) {
    const expected = await libraryBytes({ table, gamingDay: DAYS[1]!, format: 'csv' });
    expect(readFileSync(join(csvOut, `${table}-${DAYS[1]}.csv`)).equals(expected)).toBe(true);
  }
});

test("the files are its owner's alone, and a link planted at the old temporary name is neither followed nor kept", async () => {
  const safeOut = join(dir, 'safe');
  mkdirSync(safeOut);
  const victim = join(dir, 'victim.txt');
  writeFileSync(victim, 'untouched');
  symlinkSync(victim, join(safeOut, `coups-${DAYS[1]}.csv.partial`));
  expect(
    await exportCommand.run(
      ['--gaming-day', DAYS[1]!, '--format', 'csv', '--tables', 'coups', '--out', safeOut],
      fakeIo(),
    ),
  ).toBe(0);
  expect(readFileSync(victim, 'utf8')).toBe('untouched');
  const file = join(safeOut, `coups-${DAYS[1]}.csv`);
  expect(lstatSync(file).isFile()).toBe(true);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const fresh = join(dir, 'fresh-out');
  expect(
    await exportCommand.run(
      ['--gaming-day', DAYS[1]!, '--format', 'csv', '--tables', 'bets', '--out', fresh],
      fakeIo(),
    ),
  ).toBe(0);
  expect(statSync(fresh).mode & 0o777).toBe(0o700);
});

test.each([
  [[], '--gaming-day YYYY-MM-DD is required'],
  [['--gaming-day', '2026-02-30'], "--gaming-day must be a gaming day, YYYY-MM-DD (got '2026-02-30')"],
  [['--gaming-day', '2026-12-01', '--to', '2026-11-30'], '--to (2026-11-30) is before the first day'],
  [['--gaming-day', '2026-01-01', '--to', '2027-01-02'], 'at most 366 gaming days at once'],
  [['--gaming-day', '2026-12-01', '--format', 'xlsx'], "--format must be csv or parquet, not 'xlsx'"],
  [['--gaming-day', '2026-12-01', '--tables', 'coups,hands'], "--tables: 'hands' is not one of coups, bets"],
  [['--gaming-day', '2026-12-01', '--compression', 'zstd'], '--compression must be snappy or gzip or none'],
])('coup export %j exits 2: %s', async (args, message) => {
  const io = fakeIo();
  expect(await runCli(['export', ...args], io)).toBe(2);
  expect(io.err()).toContain(message);
  expect(io.out()).toBe('');
});

test('no read models in the data folder: exit 2, naming the file', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'coup-cli-export-empty-'));
  process.env['COUP_DATA_DIR'] = empty;
  try {
    const io = fakeIo();
    expect(await runCli(['export', '--gaming-day', '2026-12-01', '--out', empty], io)).toBe(2);
    expect(io.err()).toContain(`no read models at ${join(empty, 'read-models.sqlite')}`);
  } finally {
    process.env['COUP_DATA_DIR'] = dir;
    rmSync(empty, { recursive: true, force: true });
  }
});

test('COUP_READ_MODELS with a scheme other than postgres://: exit 2, the value not repeated', async () => {
  process.env['COUP_READ_MODELS'] = 'postgress://u:secret@db/coup';
  try {
    const io = fakeIo();
    expect(await runCli(['export', '--gaming-day', '2026-12-01', '--out', dir], io)).toBe(2);
    expect(io.err()).toContain('COUP_READ_MODELS must be a SQLite file path or a postgres:// URL');
    expect(io.err()).not.toContain('secret');
  } finally {
    delete process.env['COUP_READ_MODELS'];
  }
});

test('the coup command (tools/coup.mjs) writes the same file as a process of its own', () => {
  const procOut = join(dir, 'process');
  const r = spawnSync(
    process.execPath,
    ['tools/coup.mjs', 'export', '--gaming-day', DAYS[1]!, '--tables', 'bets', '--out', procOut],
    { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, COUP_DATA_DIR: dir } },
  );
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(readFileSync(join(procOut, `bets-${DAYS[1]}.parquet`))).toEqual(
    readFileSync(join(out, `bets-${DAYS[1]}.parquet`)),
  );
});
