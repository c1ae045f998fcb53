/**
 * What the read-side commands (`projections`, `replay`, `verify`) share: they open the event store and the read
 * models directly (so they work with the service stopped), from COUP_DATA_DIR (default ./data): events in
 * `events.sqlite` (or EventStoreDB with COUP_EVENT_STORE=eventstoredb), read models where COUP_READ_MODELS names
 * them (a SQLite file or a `postgres://` URL; any other `scheme://` refused), by default `read-models.sqlite`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type EventStore, createEventStore, eventStoreConfigFromEnv } from '@coup/event-store';
import {
  type AnyProjection,
  CHECKPOINTS,
  GamingDayConfigError,
  ProjectionRunner,
  type ProjectionRunnerOptions,
  type RawEventReader,
  ReadModels,
  type SqlReader,
  SqliteReadModelStorage,
  gamingDayConfig,
  handHistoryProjection,
  openReadModelStorage,
  projectionsFor,
  readModelsTarget,
  sqliteHeadPosition,
  sqliteRawReader,
  tableViewProjection,
} from '@coup/projections';
import type { CliIo } from '../io';
import { EXIT, UsageError } from '../io';

export interface ReadSide {
  readonly store: EventStore;
  /** Which store: positions count events in SQLite, they are byte offsets in EventStoreDB. */
  readonly kind: 'sqlite' | 'eventstoredb';
  /** COUP_READ_MODELS as the service reads it: a `postgres://` URL or a SQLite file (default: the data folder's). */
  readonly readModels: string;
  /** Which the read models are: a SQLite file (the CLI may fold into it) or a shared PostgreSQL (only read). */
  readonly readModelsIn: 'sqlite' | 'postgres';
  /** The store's last position (SQLite: read directly; otherwise null). */
  readonly head: () => Promise<bigint | null>;
  /** SQLite: the stored bytes, so verify checks exactly what is stored. */
  readonly raw: RawEventReader | undefined;
  close(): Promise<void>;
}

/** Opens the configured store and names the read-model file. */
export function openReadSide(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): ReadSide {
  const dataDir = resolve(cwd, env['COUP_DATA_DIR'] || 'data');
  let config;
  let target;
  try {
    target = readModelsTarget(env['COUP_READ_MODELS'], dataDir, cwd);
    config = eventStoreConfigFromEnv({ ...env, COUP_DATA_DIR: dataDir });
  } catch (error) {
    throw new UsageError((error as Error).message, command);
  }
  if (config.kind === 'sqlite' && !existsSync(config.file)) {
    throw new UsageError(
      `no event store at ${config.file} (set COUP_DATA_DIR to the service's data folder)`,
      command,
    );
  }
  if (config.kind === 'memory')
    throw new UsageError('the memory store is not shared: nothing to read', command);
  const store = createEventStore(config);
  const head = config.kind === 'sqlite' ? sqliteHeadPosition(config.file) : async () => null;
  return {
    store,
    kind: config.kind,
    readModels: target.kind === 'postgres' ? target.url : target.file,
    readModelsIn: target.kind,
    head,
    raw: config.kind === 'sqlite' ? sqliteRawReader(config.file) : undefined,
    close: () => store.close(),
  };
}

/**
 * The projections as the service makes them: the analysts' model folded with COUP_GAMING_DAY and COUP_SHIFTS, read
 * as the service reads them (a bad setting is a usage error of `command`). Whatever folds or rebuilds the shared
 * read models uses these, or its an_ rows would place facts by the default gaming day.
 */
export function projectionsFromEnv(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
): readonly AnyProjection[] {
  try {
    return projectionsFor(gamingDayConfig({ gamingDay: env['COUP_GAMING_DAY'], shifts: env['COUP_SHIFTS'] }));
  } catch (error) {
    if (error instanceof GamingDayConfigError)
      throw new UsageError(
        `${error.field === 'gamingDay' ? 'COUP_GAMING_DAY' : 'COUP_SHIFTS'}: ${error.message}`,
        command,
      );
    throw error;
  }
}

/** The read models a command reads, and how far they are folded. */
export interface OpenReadModels {
  readonly readModels: ReadModels;
  /** The position the table view and hand history are folded to (the lower of their checkpoints). */
  readonly foldedTo: number;
  close(): Promise<void>;
}

/** The read models are not built in PostgreSQL: nothing to read until the projection process makes them. */
export class ReadModelsNotBuiltError extends Error {
  constructor() {
    super(
      'the read models in PostgreSQL are not built yet: the projection process (coup projections run) makes them',
    );
    this.name = 'ReadModelsNotBuiltError';
  }
}

/** The projections `replay` and `verify` read. */
const READ = [tableViewProjection.name, handHistoryProjection.name];

/** The lower checkpoint of the projections `replay` and `verify` read, or null when they are not built. */
async function foldedTo(sql: SqlReader): Promise<number | null> {
  let rows: { position: number }[];
  try {
    rows = await sql.all<{ position: number }>(
      `SELECT position FROM ${CHECKPOINTS} WHERE name IN (?, ?)`,
      READ,
    );
  } catch (error) {
    if ((error as { code?: unknown }).code === '42P01') return null; // no checkpoints table
    throw error;
  }
  return rows.length < READ.length ? null : Math.min(...rows.map((r) => Number(r.position)));
}

/**
 * PostgreSQL: the shared read models as the projection process left them, opened read-only as the service's queries
 * open them with COUP_PROJECTIONS=off. No runner: a runner would make or remake tables and report views (whenever a
 * projection's version differs, e.g. another COUP_GAMING_DAY or COUP_SHIFTS) and move the checkpoints, racing the
 * projection process.
 */
async function postgresAsFolded(side: ReadSide): Promise<OpenReadModels> {
  const readModels = await ReadModels.open(side.readModels, { maxConnections: 2 });
  try {
    const position = await foldedTo(readModels.sql);
    if (position === null) throw new ReadModelsNotBuiltError();
    return { readModels, foldedTo: position, close: () => readModels.close() };
  } catch (error) {
    await readModels.close().catch(() => undefined); // the first error is the one to see
    throw error;
  }
}

/** A runner over read-model storage opened for it, and how to close both. */
export interface OwnRunner {
  readonly runner: ProjectionRunner;
  close(): Promise<void>;
}

/**
 * A runner over the read models COUP_READ_MODELS names, their storage opened here and given to it: a constructor
 * that throws (e.g. a checkpoints table of another shape) leaves no connection open, its error going on.
 */
export async function runnerOver(
  side: ReadSide,
  options: Omit<ProjectionRunnerOptions, 'store' | 'storage' | 'readModels' | 'headPosition'>,
): Promise<OwnRunner> {
  const storage = openReadModelStorage(side.readModels);
  try {
    // a commit's statement journals in memory, as the runner has it on a SQLite file it opens itself
    if (storage instanceof SqliteReadModelStorage) storage.db.pragma('temp_store = MEMORY');
    const runner = new ProjectionRunner({
      ...options,
      store: side.store,
      storage,
      ...(side.kind === 'sqlite' ? { headPosition: side.head } : {}),
    });
    const close = () =>
      closingAfter(
        () => runner.close(),
        () => storage.close(),
      );
    return { runner, close };
  } catch (error) {
    await storage.close().catch(() => undefined); // the first error is the one to see
    throw error;
  }
}

/**
 * SQLite (a local file, the embedded default): the projections replay and verify read brought up to the store by a
 * runner, as the service and `coup projections run` fold them (checkpoints keep a running service's runner and this
 * one from applying anything twice). Only those: the file may be a running service's, whose analysts' model folded
 * with its COUP_GAMING_DAY and COUP_SHIFTS would be made again by a runner of this shell's.
 */
async function sqliteCaughtUp(side: ReadSide, io: CliIo, command: string): Promise<OpenReadModels> {
  const read = projectionsFromEnv(command).filter((p) => READ.includes(p.name));
  const { runner, close } = await runnerOver(side, { projections: read });
  try {
    const { events } = await runner.catchUp();
    if (events > 0) io.stderr.write(`read models caught up with ${events} new events\n`);
    const readModels = new ReadModels(runner.storage.reader);
    return { readModels, foldedTo: (await foldedTo(readModels.sql)) ?? 0, close };
  } catch (error) {
    await close().catch(() => undefined); // the first error is the one to see
    throw error;
  }
}

/**
 * Runs `use` over the read models COUP_READ_MODELS names, then closes them: a SQLite file caught up first; a
 * PostgreSQL database read as it is (read models not built there: a message, exit 1). An error closing them does
 * not hide one of `use`.
 */
export async function withReadModels(
  side: ReadSide,
  io: CliIo,
  command: string,
  use: (models: OpenReadModels) => Promise<number>,
): Promise<number> {
  let models: OpenReadModels;
  try {
    models =
      side.readModelsIn === 'postgres'
        ? await postgresAsFolded(side)
        : await sqliteCaughtUp(side, io, command);
  } catch (error) {
    if (!(error instanceof ReadModelsNotBuiltError)) throw error;
    io.stderr.write(`coup ${command}: ${error.message}\n`);
    return EXIT.failure;
  }
  return closingAfter(
    () => use(models),
    () => models.close(),
  );
}

/** `use`'s result, after `close`; an error of `use` is thrown whatever `close` does (its own error then dropped). */
export async function closingAfter<T>(use: () => Promise<T>, close: () => Promise<void>): Promise<T> {
  let result: T;
  try {
    result = await use();
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  await close();
  return result;
}

const BAR_WIDTH = 30;

/** A progress bar on stderr (drawn only on a terminal), redrawn when the percentage changes. */
export function progressBar(
  io: CliIo,
  unit: string,
): { update(done: number, total: number | null): void; clear(): void } {
  let shown = '';
  return {
    update(done, total) {
      if (!io.isTTY) return;
      let text: string;
      if (total === null || total <= 0) text = `${done.toLocaleString('en-US')} ${unit}`;
      else {
        const pct = Math.min(100, Math.floor((100 * done) / total));
        const filled = Math.round((BAR_WIDTH * Math.min(done, total)) / total);
        text = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${pct}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${unit}`;
      }
      if (text === shown) return;
      shown = text;
      io.stderr.write(`\r${text}`);
    },
    clear() {
      if (shown !== '') io.stderr.write('\r\x1b[K');
    },
  };
}

/** Cents as money: 2500 -> "25.00". */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}
