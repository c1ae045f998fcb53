import { tableStream } from '@coup/table';
import type { StreamHead } from '@coup/event-store';
import { type Check, type HandVerification, type ReadModels, verifyHand } from '@coup/projections';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { type CliIo, EXIT, UsageError } from '../io';
import {
  type OpenReadModels,
  type ReadSide,
  closingAfter,
  openReadSide,
  progressBar,
  withReadModels,
} from './read-side';
import { handNotFolded, notFoldedYet, unfoldedRound, unfoldedTail } from './unfolded';

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
  coverage: Coverage,
  to: ToRound | null,
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
  if (coverage.unfolded)
    io.stdout.write(
      `read models folded to position ${coverage.foldedTo}; table ${tableId}'s events after it (to position ` +
        `${coverage.lastPosition}) are not folded yet: hands finished after it are not verified\n`,
    );
  if (to?.state === 'in play')
    io.stdout.write(
      `round ${to.roundNo} of table ${tableId} is in play (${to.status}): verified once it ends\n`,
    );
}

/** How far the read models cover the table: folded to a position, and the table's last event if it is after. */
interface Coverage {
  readonly foldedTo: number;
  readonly unfolded: boolean;
  readonly lastPosition: number | null;
}

interface Asked {
  readonly tableId: string;
  readonly from: number | undefined;
  readonly to: number | undefined;
  readonly json: boolean;
}

/** A table not in the read models: exit 1, or 3 (EXIT.notFoldedYet) when the store has events of it not folded yet. */
async function tableNotFolded(
  side: ReadSide,
  models: OpenReadModels,
  tableId: string,
  io: CliIo,
): Promise<number> {
  const last = await unfoldedTail(side.store, tableId, models.foldedTo);
  if (last === null) {
    io.stderr.write(`coup verify: no table ${tableId} in the read models\n`);
    return EXIT.failure;
  }
  io.stderr.write(
    `coup verify: table ${tableId} is not in the read models yet: they are folded to position ${models.foldedTo}, ` +
      `the table's last event is at position ${last}; retry once the projection process has folded it\n`,
  );
  return EXIT.notFoldedYet;
}

/** The --to round when the read models hold no finished hand of it, and the exit code that gives. */
interface ToRound {
  readonly roundNo: number;
  readonly state: 'in play' | 'not folded yet' | 'no such hand';
  /** In play: betting or dealing. */
  readonly status?: string;
  readonly exit: number;
}

/**
 * The --to round the read models hold no finished hand of: in play (exit 0, said so) when they hold it unfinished
 * and its end is not among the events they have not folded yet; else as `replay` answers a hand they do not hold:
 * not folded yet (3, said so) or no such hand (1, said so).
 */
async function toRound(
  side: ReadSide,
  models: OpenReadModels,
  tableId: string,
  roundNo: number,
  io: CliIo,
): Promise<ToRound> {
  const asked = { side, models, tableId, roundNo, command: 'verify', io };
  const hand = await models.readModels.hand(tableId, roundNo);
  if (hand !== null && (hand.status === 'betting' || hand.status === 'dealing')) {
    const { ended } = await unfoldedRound(side.store, tableId, roundNo, models.foldedTo);
    if (!ended) return { roundNo, state: 'in play', status: hand.status, exit: EXIT.ok };
    const exit = await notFoldedYet(asked, 'has ended in the store, not yet in the read models');
    return { roundNo, state: 'not folded yet', exit };
  }
  const exit = await handNotFolded(asked);
  return { roundNo, state: exit === EXIT.notFoldedYet ? 'not folded yet' : 'no such hand', exit };
}

/** Verifies the asked hands the read models hold; prints them; the exit code. */
async function verifyTable(side: ReadSide, models: OpenReadModels, asked: Asked, io: CliIo): Promise<number> {
  const { tableId } = asked;
  const read = models.readModels;
  if ((await read.table(tableId)) === null) return tableNotFolded(side, models, tableId, io);
  const rounds = await finishedRounds(read, tableId, asked.from, asked.to);
  const verified = await verifyRounds(side, read, tableId, rounds, io);
  const { results, failed, counts } = verified;
  const head = await side.store.streamHead(tableStream(tableId));
  const last = await unfoldedTail(side.store, tableId, models.foldedTo);
  const coverage = { foldedTo: models.foldedTo, unfolded: last !== null, lastPosition: last };
  const to =
    asked.to === undefined || rounds.includes(asked.to)
      ? null
      : await toRound(side, models, tableId, asked.to, io);
  if (asked.json) {
    const toJson =
      to === null ? {} : { toRound: { roundNo: to.roundNo, state: to.state, status: to.status } };
    io.stdout.write(
      `${JSON.stringify({ tableId, ok: failed.length === 0, hands: results.length, failed: failed.length, checks: counts, head: head ? { revision: Number(head.revision), hash: head.hash } : null, readModels: coverage, ...toJson, results })}\n`,
    );
  } else printText(io, tableId, rounds, verified, head, coverage, to);
  if (failed.length > 0) return EXIT.failure;
  return to?.exit ?? EXIT.ok;
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
    '  --to M      last round (default: the last the read models hold)',
    '  --json      print every verification as JSON (one object)',
    '',
    "  Each hand: its events' chain (hashes recomputed and linked), the coup re-resolved by the engine, each",
    "  settlement recomputed, and on rng tables once the shoe's seed is revealed, the commitment and the shuffle.",
    "  Prints the failures and the stream's head hash (note it outside the store). Exit 0 when every check passes",
    '  (pending and skipped are not failures), 1 when one fails. Reads the store directly (COUP_DATA_DIR, ./data)',
    '  and finds the hands in the read models COUP_READ_MODELS names: a SQLite file (the default) is caught up first;',
    '  a postgres:// URL is only read, as the projection process (coup projections run) left it (nothing is written',
    '  there; not built yet: exit 1). Hands it has not folded yet are not verified: a line (JSON: readModels) says to',
    "  which position it has folded and where the table's last event is. A --to round not verified is said so (JSON:",
    '  toRound): in play (betting or dealing) exits as the others do; not folded yet, while the store has events of',
    '  it (or of the table, when the table is not in the read models) that they have not folded: exit 3, retry once',
    "  they are folded; no such hand (missing at or below the table's last round, or beyond any round recorded):",
    '  exit 1.',
  ].join('\n'),
  async run(args, io) {
    const { options } = parseArgs('verify', args, OPTIONS);
    if (!options.table) throw new UsageError('--table is required', 'verify');
    if (options.from !== undefined && options.to !== undefined && options.from > options.to) {
      throw new UsageError('--from must not be after --to', 'verify');
    }
    const asked = { tableId: options.table, from: options.from, to: options.to, json: options.json };
    const side = openReadSide('verify');
    return closingAfter(
      () => withReadModels(side, io, 'verify', (models) => verifyTable(side, models, asked, io)),
      () => side.close(),
    );
  },
};
