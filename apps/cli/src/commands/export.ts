/**
 * `coup export`: the analysts' fact tables of one gaming day, or of each day of a range, as CSV or Parquet files
 * for a warehouse, one file per table and day (`coups-2026-12-01.parquet`). It reads the read models where the
 * service does (COUP_READ_MODELS: a SQLite file or PostgreSQL; default `<COUP_DATA_DIR>/read-models.sqlite`),
 * as they are, writing nothing there: the service or `coup projections run` keeps them. Each file is written
 * beside its name and renamed once complete, so a file of that name is always whole.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  EXPORT_FORMATS,
  EXPORT_TABLE_NAMES,
  type ExportFormat,
  type ExportTable,
  ExportUnavailableError,
  PARQUET_COMPRESSIONS,
  type ParquetCompression,
  QueryError,
  ReadModels,
  exportFacts,
  exportFileName,
  gamingDaysBetween,
  isExportTable,
  readModelsTarget,
} from '@coup/projections';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { EXIT, type CliIo, UsageError } from '../io';

const OPTIONS = {
  'gaming-day': { type: 'string' },
  to: { type: 'string' },
  format: { type: 'string', default: 'parquet' },
  tables: { type: 'string', default: 'coups,bets' },
  out: { type: 'string', default: '.' },
  compression: { type: 'string', default: 'snappy' },
} as const;

interface Plan {
  readonly days: readonly string[];
  readonly tables: readonly ExportTable[];
  readonly format: ExportFormat;
  readonly compression: ParquetCompression;
  readonly out: string;
}

function oneOf<T extends string>(name: string, value: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be ${choices.join(' or ')}, not '${value}'`, 'export');
  return value as T;
}

function planOf(args: readonly string[], cwd: string): Plan {
  const { options } = parseArgs('export', args, OPTIONS);
  const first = options['gaming-day'];
  if (first === undefined) throw new UsageError('--gaming-day YYYY-MM-DD is required', 'export');
  let days: string[];
  try {
    days = gamingDaysBetween(first, options.to ?? first);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    const option = error.field === 'from' ? '--gaming-day' : '--to';
    throw new UsageError(error.message.replace(/^(from|to)\b/, option), 'export');
  }
  const tables = options.tables.split(',').map((t) => t.trim());
  for (const t of tables)
    if (!isExportTable(t))
      throw new UsageError(`--tables: '${t}' is not one of ${EXPORT_TABLE_NAMES.join(', ')}`, 'export');
  if (new Set(tables).size !== tables.length) throw new UsageError('--tables names a table twice', 'export');
  return {
    days,
    tables: tables as ExportTable[],
    format: oneOf('format', options.format, EXPORT_FORMATS),
    compression: oneOf('compression', options.compression, PARQUET_COMPRESSIONS),
    out: resolve(cwd, options.out),
  };
}

/** COUP_READ_MODELS as the service reads it: a PostgreSQL URL, a SQLite file, or the data folder's file. */
function readModelsTargetOf(env: NodeJS.ProcessEnv, cwd: string): string {
  let target;
  try {
    target = readModelsTarget(env['COUP_READ_MODELS'], resolve(cwd, env['COUP_DATA_DIR'] || 'data'), cwd);
  } catch (error) {
    throw new UsageError((error as Error).message, 'export');
  }
  if (target.kind === 'postgres') return target.url;
  if (!existsSync(target.file))
    throw new UsageError(
      `no read models at ${target.file} (set COUP_DATA_DIR to the service's data folder, or COUP_READ_MODELS)`,
      'export',
    );
  return target.file;
}

/** Writes one table's day to its file (whole, or not at all); answers the rows written. */
async function writeOne(read: ReadModels, plan: Plan, table: ExportTable, day: string): Promise<number> {
  const file = join(plan.out, exportFileName(table, day, plan.format));
  // A fresh, unguessable name, created here or not at all (never a file or link already there), readable by its
  // owner only: the rows name players and their bets.
  const partial = `${file}.${randomBytes(8).toString('hex')}.partial`;
  const facts = exportFacts(read.sql, {
    table,
    gamingDay: day,
    format: plan.format,
    compression: plan.compression,
  });
  try {
    await pipeline(Readable.from(facts), createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return facts.rows;
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const plan = planOf(args, process.cwd());
  const target = readModelsTargetOf(process.env, process.cwd());
  mkdirSync(plan.out, { recursive: true, mode: 0o700 });
  const read = await ReadModels.open(target);
  try {
    for (const day of plan.days) {
      for (const table of plan.tables) {
        const rows = await writeOne(read, plan, table, day);
        const file = join(plan.out, exportFileName(table, day, plan.format));
        io.stdout.write(`${file}\t${rows} rows\t${statSync(file).size} bytes\n`);
      }
    }
  } catch (error) {
    if (!(error instanceof ExportUnavailableError)) throw error;
    io.stderr.write(`coup export: ${error.message} (coup projections rebuild, or the service, builds it)\n`);
    return EXIT.failure;
  } finally {
    await read.close();
  }
  return EXIT.ok;
}

export const exportCommand: Command = {
  name: 'export',
  summary:
    "export gaming days of the analysts' facts (coups, bets, cash, amendments) as Parquet or CSV files",
  usage: `coup export --gaming-day YYYY-MM-DD [--to YYYY-MM-DD] [--format parquet|csv] [--tables coups,bets] [--out dir]

Writes <table>-<gaming day>.<format> in --out for each table and gaming day, from the read models
(COUP_READ_MODELS: a SQLite file or a postgres:// URL; default <COUP_DATA_DIR>/read-models.sqlite).
Each file holds the table's rows of that gaming day in key order, columns as in docs/analyst-schema.md:
money in integer cents; Parquet columns typed (INT64, DOUBLE, UTF-8 strings; NULLs kept); CSV per RFC 4180
with a header row, NULL an empty field and an empty text "".

Options:
  --gaming-day YYYY-MM-DD   the (first) gaming day (required)
  --to YYYY-MM-DD           the last gaming day, inclusive (at most 366 days; default: --gaming-day)
  --format parquet|csv      default parquet
  --tables LIST             of coups, bets, cash, amendments, separated by commas (default coups,bets)
  --out DIR                 the folder to write in, created if missing (default .)
  --compression NAME        Parquet: snappy, gzip or none (default snappy)`,
  run,
};
