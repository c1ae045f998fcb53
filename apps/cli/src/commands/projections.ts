import {
  PROJECTIONS,
  type ReadModelStorage,
  openReadModelStorage,
  rebuildProjections,
  selectProjections,
  statusOf,
} from '@coup/projections';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { table } from '../format';
import { EXIT, type CliIo, UsageError } from '../io';
import { runProjections } from './projections-run';
import { type ReadSide, closingAfter, openReadSide, progressBar, projectionsFromEnv } from './read-side';

const OPTIONS = { json: { type: 'boolean' }, writer: { type: 'string', default: 'thread' } } as const;
const RUN_OPTIONS = {
  once: { type: 'boolean' },
  'max-batch': { type: 'integer', min: 100, max: 100_000 },
  'commit-ms': { type: 'integer', min: 0, max: 10_000 },
  'progress-every': { type: 'integer', min: 0, max: 3_600, default: 10 },
  'health-port': { type: 'integer', min: 1, max: 65_535 },
} as const;
const WRITERS = ['thread', 'in-process'] as const;

/** An integer setting of the environment (the service's own names), or its default. */
function envInteger(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max))
    throw new UsageError(`${name} must be from ${min} to ${max}, not '${raw}'`, 'projections');
  return n;
}

function run(args: readonly string[], io: CliIo): Promise<number> {
  const { options } = parseArgs('projections', args, RUN_OPTIONS);
  return runProjections(
    {
      once: options.once,
      maxBatch: options['max-batch'] ?? envInteger('COUP_PROJECTION_MAX_BATCH', 10_000, 100, 100_000),
      commitMs: options['commit-ms'] ?? envInteger('COUP_PROJECTION_COMMIT_MS', 500, 0, 10_000),
      progressEvery: options['progress-every'],
      healthPort: options['health-port'],
    },
    io,
  );
}
const NAMES = PROJECTIONS.map((p) => p.name).join(', ');

/** Runs `use` over the store and the read-model storage, closing both after (an error closing hides none of `use`). */
function withStorage(use: (side: ReadSide, storage: ReadModelStorage) => Promise<number>): Promise<number> {
  const side = openReadSide('projections');
  return closingAfter(
    () => {
      const storage = openReadModelStorage(side.readModels);
      return closingAfter(
        () => use(side, storage),
        () => storage.close(),
      );
    },
    () => side.close(),
  );
}

async function rebuild(
  names: readonly string[],
  json: boolean,
  writer: (typeof WRITERS)[number],
  io: CliIo,
): Promise<number> {
  // the service's projections: the analysts' model refolded with its gaming day and shifts
  const catalogue = projectionsFromEnv('projections');
  try {
    selectProjections(names, catalogue);
  } catch (error) {
    throw new UsageError((error as Error).message, 'projections');
  }
  const bar = progressBar(io, 'events');
  return withStorage(async (side, storage) => {
    const head = await side.head();
    const total = head === null ? null : Number(head);
    const result = await rebuildProjections({
      storage,
      store: side.store,
      names,
      projections: catalogue,
      writer,
      onProgress: ({ position }) => bar.update(position, total),
    });
    bar.clear();
    const rate = result.seconds > 0 ? Math.round(result.events / result.seconds) : result.events;
    if (json) io.stdout.write(`${JSON.stringify({ ...result, eventsPerSecond: rate })}\n`);
    else {
      io.stdout.write(
        `rebuilt ${result.projections.join(', ')}: ${result.events.toLocaleString('en-US')} events to position ${result.position} ` +
          `in ${result.seconds.toFixed(2)} s (${rate.toLocaleString('en-US')} events/s); swapped in\n`,
      );
    }
    return EXIT.ok;
  }).finally(() => bar.clear());
}

async function status(json: boolean, io: CliIo): Promise<number> {
  return withStorage(async (side, storage) => {
    const head = await side.head();
    const rows = statusOf(await storage.checkpoints(), PROJECTIONS, {
      position: Number(head ?? 0),
      lowerBound: false,
    });
    if (json) {
      io.stdout.write(
        `${JSON.stringify({ head: head === null ? null : Number(head), projections: rows })}\n`,
      );
      return EXIT.ok;
    }
    io.stdout.write(`store head: ${head === null ? 'unknown (not a SQLite store)' : String(head)}\n`);
    io.stdout.write(
      table(
        [
          ['projection', 'version', 'checkpoint', 'lag', 'updated', 'rebuilt'],
          ...rows.map((r) => [
            r.name,
            r.storedVersion === null
              ? `${r.version} (not built)`
              : r.storedVersion === r.version
                ? String(r.version)
                : `${r.storedVersion} -> ${r.version}`,
            String(r.checkpoint),
            head === null ? '?' : String(r.lag),
            r.updatedAt ?? '-',
            r.rebuiltAt ?? '-',
          ]),
        ],
        [false, false, true, true, false, false],
      ) + '\n',
    );
    return EXIT.ok;
  });
}

/** `coup projections run|rebuild|status`. */
export const projections: Command = {
  name: 'projections',
  summary: 'fold the events into the read models as a process of its own, rebuild them, or show their lag',
  usage: [
    'coup projections run [--once] [--max-batch N] [--commit-ms MS] [--progress-every S] [--health-port PORT]',
    'coup projections rebuild [NAME...] [--writer thread|in-process] [--json]',
    'coup projections status [--json]',
    '',
    '  run       the projection process: folds the log into the read models COUP_READ_MODELS names (a SQLite file,',
    '            default <COUP_DATA_DIR>/read-models.sqlite, or a postgres:// URL) and follows it live, subscribing',
    '            again with backoff after a drop; service instances then run with COUP_PROJECTIONS=off. Each batch',
    '            is one transaction with its checkpoints. SIGTERM or SIGINT commits the batch in progress and exits 0',
    '            (a second one ends it at once). Logs JSON lines on stdout (start, progress, errors, stop)',
    '  --once    catch up to the head of the log, then exit',
    '  --max-batch       most events per transaction (default COUP_PROJECTION_MAX_BATCH, else 10000)',
    '  --commit-ms       live, at most one commit per this many ms (default COUP_PROJECTION_COMMIT_MS, else 500)',
    '  --progress-every  seconds between progress lines while the checkpoint moves (default 10; 0: none)',
    '  --health-port     answer GET /health on 127.0.0.1:PORT: 200 while folding without error, else 503',
    "            The analysts' model is folded with COUP_GAMING_DAY and COUP_SHIFTS, as the service does.",
    '',
    `  rebuild   refold projections (default: all; names: ${NAMES}) from position 0 into fresh tables, then swap`,
    '            them in with one transaction: a running service keeps answering from the old tables meanwhile',
    '            and resumes from the rebuilt checkpoint. A progress bar is drawn on stderr when it is a terminal.',
    "            The analysts' model is refolded with COUP_GAMING_DAY and COUP_SHIFTS, as the service does.",
    '  --writer  where the rebuild writes SQLite: thread (default: a worker thread beside the folds, faster when a',
    '            core is free) or in-process (this thread); the same tables either way',
    "  status    each projection's checkpoint (global position applied) and lag behind the store",
    '  --json    print JSON',
    '',
    '  Reads COUP_DATA_DIR (default ./data): events.sqlite (or COUP_EVENT_STORE=eventstoredb), and the read models',
    '  COUP_READ_MODELS names (default read-models.sqlite there; a postgres:// URL for PostgreSQL), for every subcommand.',
  ].join('\n'),
  async run(args, io) {
    if (args[0] === 'run') return run(args.slice(1), io);
    const { options, positionals } = parseArgs('projections', args, OPTIONS, true);
    const [sub, ...names] = positionals;
    if (sub === 'rebuild') {
      const writer = WRITERS.find((w) => w === options.writer);
      if (!writer)
        throw new UsageError(
          `--writer must be thread or in-process (got '${options.writer}')`,
          'projections',
        );
      return rebuild(names, options.json, writer, io);
    }
    if (sub === 'status') {
      if (names.length > 0) throw new UsageError(`unexpected argument '${names[0]}'`, 'projections');
      return status(options.json, io);
    }
    throw new UsageError(
      sub === undefined
        ? 'say run, rebuild or status'
        : `unknown subcommand '${sub}' (run, rebuild or status)`,
      'projections',
    );
  },
};
