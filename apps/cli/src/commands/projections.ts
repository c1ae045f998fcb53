import {
  PROJECTIONS,
  openReadModelDb,
  readStatus,
  rebuildProjections,
  selectProjections,
} from '@coup/projections';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { table } from '../format';
import { EXIT, type CliIo, UsageError } from '../io';
import { openReadSide, progressBar } from './read-side';

const OPTIONS = { json: { type: 'boolean' }, writer: { type: 'string', default: 'thread' } } as const;
const WRITERS = ['thread', 'in-process'] as const;
const NAMES = PROJECTIONS.map((p) => p.name).join(', ');

async function rebuild(
  names: readonly string[],
  json: boolean,
  writer: (typeof WRITERS)[number],
  io: CliIo,
): Promise<number> {
  try {
    selectProjections(names);
  } catch (error) {
    throw new UsageError((error as Error).message, 'projections');
  }
  const side = openReadSide('projections');
  const db = openReadModelDb(side.readModelFile);
  const bar = progressBar(io, 'events');
  try {
    const head = await side.head();
    const total = head === null ? null : Number(head);
    const result = await rebuildProjections({
      store: side.store,
      db,
      names,
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
  } finally {
    bar.clear();
    db.close();
    await side.close();
  }
}

async function status(json: boolean, io: CliIo): Promise<number> {
  const side = openReadSide('projections');
  const db = openReadModelDb(side.readModelFile);
  try {
    const head = await side.head();
    const rows = readStatus(db, PROJECTIONS, { position: Number(head ?? 0), lowerBound: false });
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
  } finally {
    db.close();
    await side.close();
  }
}

/** `coup projections rebuild|status`. */
export const projections: Command = {
  name: 'projections',
  summary: 'rebuild the read models from the events, or show their checkpoints and lag',
  usage: [
    'coup projections rebuild [NAME...] [--writer thread|in-process] [--json]',
    'coup projections status [--json]',
    '',
    `  rebuild   refold projections (default: all; names: ${NAMES}) from position 0 into fresh tables, then swap`,
    '            them in with one transaction: a running service keeps answering from the old tables meanwhile',
    '            and resumes from the rebuilt checkpoint. A progress bar is drawn on stderr when it is a terminal.',
    '  --writer  where the rebuild writes SQLite: thread (default: a worker thread beside the folds, faster when a',
    '            core is free) or in-process (this thread); the same tables either way',
    "  status    each projection's checkpoint (global position applied) and lag behind the store",
    '  --json    print JSON',
    '',
    '  Reads COUP_DATA_DIR (default ./data): events.sqlite (or COUP_EVENT_STORE=eventstoredb), read-models.sqlite.',
  ].join('\n'),
  async run(args, io) {
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
      sub === undefined ? 'say rebuild or status' : `unknown subcommand '${sub}' (rebuild or status)`,
      'projections',
    );
  },
};
