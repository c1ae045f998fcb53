/**
 * What the read-side commands (`projections`, `replay`, `verify`) share: they open the event store and the read
 * models directly (so they work with the service stopped), from COUP_DATA_DIR (default ./data): events in
 * `events.sqlite` (or EventStoreDB with COUP_EVENT_STORE=eventstoredb), read models where COUP_READ_MODELS names
 * them (a SQLite file or a `postgres://` URL), by default `read-models.sqlite`.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type EventStore, createEventStore, eventStoreConfigFromEnv } from '@coup/event-store';
import {
  type AnyProjection,
  GamingDayConfigError,
  ProjectionRunner,
  type RawEventReader,
  ReadModels,
  gamingDayConfig,
  isPostgresUrl,
  projectionsFor,
  sqliteHeadPosition,
  sqliteRawReader,
} from '@coup/projections';
import type { CliIo } from '../io';
import { UsageError } from '../io';

/** The read-model file's name in the data folder (the service uses the same). */
export const READ_MODELS_FILE = 'read-models.sqlite';

export interface ReadSide {
  readonly store: EventStore;
  /** Which store: positions count events in SQLite, they are byte offsets in EventStoreDB. */
  readonly kind: 'sqlite' | 'eventstoredb';
  readonly readModelFile: string;
  /** COUP_READ_MODELS as the service reads it: a `postgres://` URL or a SQLite file (default: readModelFile). */
  readonly readModels: string;
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
  try {
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
  const readModelFile = join(dataDir, READ_MODELS_FILE);
  const named = env['COUP_READ_MODELS'];
  return {
    store,
    kind: config.kind,
    readModelFile,
    readModels: !named ? readModelFile : isPostgresUrl(named) ? named : resolve(cwd, named),
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

/**
 * Brings the read models COUP_READ_MODELS names (a SQLite file or PostgreSQL, through the storage port the service
 * and `coup projections run` fold with) up to the store, then returns queries over them. A service or projection
 * process that is running does the same; the checkpoints keep them from applying anything twice.
 */
export async function caughtUpReadModels(
  side: ReadSide,
  io: CliIo,
  command: string,
): Promise<{ readModels: ReadModels; close(): Promise<void> }> {
  const runner = new ProjectionRunner({
    store: side.store,
    readModels: side.readModels,
    projections: projectionsFromEnv(command),
    ...(side.kind === 'sqlite' ? { headPosition: side.head } : {}),
  });
  try {
    const { events } = await runner.catchUp();
    if (events > 0) io.stderr.write(`read models caught up with ${events} new events\n`);
  } catch (error) {
    await runner.close();
    throw error;
  }
  return { readModels: new ReadModels(runner.storage.reader), close: () => runner.close() };
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
