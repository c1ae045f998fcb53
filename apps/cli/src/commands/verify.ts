import { tableStream } from '@coup/table';
import type { StreamHead } from '@coup/event-store';
import { type Check, type HandVerification, type ReadModels, verifyHand } from '@coup/projections';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { type CliIo, EXIT, UsageError } from '../io';
import { type ReadSide, caughtUpReadModels, openReadSide, progressBar } from './read-side';

const OPTIONS = {
  table: { type: 'string' },
  from: { type: 'integer', min: 1 },
  to: { type: 'integer', min: 1 },
  json: { type: 'boolean' },
} as const;

interface Verified {
  readonly results: HandVerification[];
  readonly failed: HandVerification[];
  readonly counts: Record<Check['status'], number>;
}

/** The finished (resolved or voided) rounds of the table in the range, in order. */
async function finishedRounds(
  read: ReadModels,
  tableId: string,
  from?: number,
  to?: number,
): Promise<number[]> {
  const rounds: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await read.hands(
      tableId,
      { roundFrom: from, roundTo: to, order: 'asc' },
      { cursor, limit: 500 },
    );
    rounds.push(
      ...page.items.filter((h) => h.status === 'resolved' || h.status === 'voided').map((h) => h.roundNo),
    );
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return rounds;
}

/** Verifies each round, with a progress bar; counts the checks by status. */
async function verifyRounds(
  side: ReadSide,
  read: ReadModels,
  tableId: string,
  rounds: readonly number[],
  io: CliIo,
): Promise<Verified> {
  const bar = progressBar(io, 'hands');
  const results: HandVerification[] = [];
  const failed: HandVerification[] = [];
  const counts = { pass: 0, fail: 0, pending: 0, skipped: 0 };
  for (const round of rounds) {
    const v = await verifyHand({ store: side.store, readModels: read, raw: side.raw }, tableId, round);
    results.push(v);
    for (const c of v.checks) counts[c.status] += 1;
    if (!v.ok) failed.push(v);
    bar.update(results.length, rounds.length);
  }
  bar.clear();
  return { results, failed, counts };
}

/** The failures, one line per failed check, then the summary and the stream's head. */
function printText(
  io: CliIo,
  tableId: string,
  rounds: readonly number[],
  { results, failed, counts }: Verified,
  head: StreamHead | null,
): void {
  for (const v of failed) {
    for (const c of v.checks.filter((x) => x.status === 'fail')) {
      const at = c.event
        ? ` [${c.event.type} revision ${c.event.revision}, position ${c.event.position}]`
        : '';
      io.stdout.write(`round ${v.roundNo}: FAIL ${c.name}: ${c.detail}${at}\n`);
    }
  }
  const range = rounds.length
    ? `rounds ${rounds[0]}-${rounds[rounds.length - 1]}`
    : 'no finished hands in that range';
  io.stdout.write(
    `table ${tableId}: ${results.length} hands verified (${range}): ${failed.length === 0 ? 'all OK' : `${failed.length} FAILED`}; ` +
      `checks ${counts.pass} pass, ${counts.fail} fail, ${counts.pending} pending (seed not yet revealed), ${counts.skipped} skipped\n`,
  );
  if (head)
    io.stdout.write(
      `stream head: revision ${head.revision}, hash ${head.hash} (keep it outside the store)\n`,
    );
}

/** `coup verify --table T [--from N --to M]`: verifies hands; exits 1 if any check fails. */
export const verify: Command = {
  name: 'verify',
  summary: "verify a table's hands (chain, coup, settlements, seed); exits non-zero on any failure",
  usage: [
    'coup verify --table T [--from N] [--to M] [--json]',
    '',
    '  --table T   the table id',
    '  --from N    first round (default: the first)',
    '  --to M      last round (default: the last)',
    '  --json      print every verification as JSON (one object)',
    '',
    "  Each hand: its events' chain (hashes recomputed and linked), the coup re-resolved by the engine, each",
    "  settlement recomputed, and on rng tables once the shoe's seed is revealed, the commitment and the shuffle.",
    "  Prints the failures and the stream's head hash (note it outside the store). Exit 0 when every check passes",
    '  (pending and skipped are not failures), 1 otherwise. Reads the store directly (COUP_DATA_DIR, default ./data);',
    '  the read models (COUP_READ_MODELS: a SQLite file or a postgres:// URL) are caught up first.',
  ].join('\n'),
  async run(args, io) {
    const { options } = parseArgs('verify', args, OPTIONS);
    if (!options.table) throw new UsageError('--table is required', 'verify');
    if (options.from !== undefined && options.to !== undefined && options.from > options.to) {
      throw new UsageError('--from must not be after --to', 'verify');
    }
    const tableId = options.table;
    const side = openReadSide('verify');
    try {
      const models = await caughtUpReadModels(side, io, 'verify');
      try {
        const read = models.readModels;
        if ((await read.table(tableId)) === null) {
          io.stderr.write(`coup verify: no table ${tableId} in the read models\n`);
          return EXIT.failure;
        }
        const rounds = await finishedRounds(read, tableId, options.from, options.to);
        const verified = await verifyRounds(side, read, tableId, rounds, io);
        const { results, failed, counts } = verified;
        const head = await side.store.streamHead(tableStream(tableId));
        if (options.json) {
          io.stdout.write(
            `${JSON.stringify({ tableId, ok: failed.length === 0, hands: results.length, failed: failed.length, checks: counts, head: head ? { revision: Number(head.revision), hash: head.hash } : null, results })}\n`,
          );
        } else printText(io, tableId, rounds, verified, head);
        return failed.length === 0 ? EXIT.ok : EXIT.failure;
      } finally {
        await models.close();
      }
    } finally {
      await side.close();
    }
  },
};
