// The event-store benchmark: `npm run bench:store` (node tools/run-ts.mjs tools/bench/store.bench.ts [reps]).
// The SQLite adapter with its durability (WAL, synchronous = FULL, in a temp dir) against a bare better-sqlite3
// insert loop with the same pragmas and the same table and row shape (JSON text and a SHA-256 per row), side
// by side in one run, alternating, median of several repetitions:
// - single-event appends from 1 caller awaiting each (one commit per event on both sides);
// - single-event appends from 64 concurrent callers, each to its own stream, and all to one stream
//   (expected revision 'any'); the bare loop's equivalent is a transaction per 64 single-row inserts,
//   round-robin over 64 streams or into one;
// - appends of batches of 100 events (bare: a transaction per 100 rows);
// - readAll (bare: paging through the table with the same page size, parsing data and metadata).
import { createEventStore, type NewEvent, SQLITE_SCHEMA } from '@coup/event-store';
import Database from 'better-sqlite3';
import { hash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const REPS = Number(process.argv[2] ?? 5);
const SINGLE_EVENTS = 2_000;
const CALLERS = 64;
const CONCURRENT_EVENTS = 64 * 320; // 20,480
const BATCH = 100;
const BATCH_EVENTS = 50_000;
const SCHEMA_WITHOUT_ID_INDEX = SQLITE_SCHEMA.replace(/(\bid\s+TEXT\s+NOT NULL) UNIQUE/, '$1');
if (SCHEMA_WITHOUT_ID_INDEX === SQLITE_SCHEMA)
  throw new Error('the schema no longer has UNIQUE(id) where expected');
const dir = mkdtempSync(join(tmpdir(), 'coup-store-bench-'));
let fileNo = 0;
const freshFile = (): string => join(dir, `bench-${++fileNo}.sqlite`);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
};

/** A bet-sized event, like the table service writes. */
function betEvent(n: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'BetPlaced',
    data: {
      tableId: 'T1',
      roundNo: 1 + Math.floor(n / 500),
      playerId: `p${n % 1000}`,
      spot: 'banker',
      amount: 2500,
    },
    metadata: {
      schemaVersion: 1,
      commandId: randomUUID(),
      correlationId: randomUUID(),
      actor: `player:p${n % 1000}`,
    },
  };
}
const makeEvents = (count: number): NewEvent[] => Array.from({ length: count }, (_, n) => betEvent(n));

// ---- the SQLite adapter --------------------------------------------------------------------------------

async function adapterSingle(events: NewEvent[]): Promise<number> {
  const store = createEventStore({ kind: 'sqlite', file: freshFile() });
  const t = performance.now();
  for (const event of events) await store.appendToStream('table-T1', [event]);
  const seconds = (performance.now() - t) / 1000;
  await store.close();
  return events.length / seconds;
}

async function adapterConcurrent(events: NewEvent[], sharedStream: boolean): Promise<number> {
  const store = createEventStore({ kind: 'sqlite', file: freshFile() });
  const perCaller = events.length / CALLERS;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, c) => {
      const stream = sharedStream ? 'table-T1' : `table-T${c}`;
      for (const event of events.slice(c * perCaller, (c + 1) * perCaller))
        await store.appendToStream(stream, [event]);
    }),
  );
  const seconds = (performance.now() - t) / 1000;
  await store.close();
  return events.length / seconds;
}

async function adapterBatches(events: NewEvent[], file: string): Promise<number> {
  const store = createEventStore({ kind: 'sqlite', file });
  const t = performance.now();
  for (let i = 0; i < events.length; i += BATCH)
    await store.appendToStream('table-T1', events.slice(i, i + BATCH));
  const seconds = (performance.now() - t) / 1000;
  await store.close();
  return events.length / seconds;
}

async function adapterReadAll(file: string): Promise<number> {
  const store = createEventStore({ kind: 'sqlite', file });
  const t = performance.now();
  let count = 0;
  for await (const event of store.readAll()) if (event.globalPosition > 0n) count++;
  const seconds = (performance.now() - t) / 1000;
  await store.close();
  return count / seconds;
}

// ---- the bare better-sqlite3 loop ------------------------------------------------------------------------

/** Rows go round-robin to `streams` streams (64 for the own-streams workload), each with its own chain. */
function bareOpen(
  file: string,
  streams: number,
  schema: string,
): { db: Database.Database; insert: (event: NewEvent) => void } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(schema);
  const stmt = db.prepare(
    'INSERT INTO events (stream, revision, id, type, data, metadata, recorded_at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const revisions = new Array<number>(streams).fill(0);
  const prevHashes = new Array<string>(streams).fill('0'.repeat(64));
  let next = 0;
  const insert = (event: NewEvent): void => {
    const s = next++ % streams;
    const prevHash = prevHashes[s] ?? '';
    const revision = revisions[s] ?? 0;
    revisions[s] = revision + 1;
    const data = JSON.stringify(event.data);
    const metadata = JSON.stringify(event.metadata);
    const rowHash = hash('sha256', `${prevHash}${event.type}${data}${metadata}`, 'hex');
    stmt.run(
      `table-T${s}`,
      revision,
      event.id,
      event.type,
      data,
      metadata,
      new Date().toISOString(),
      prevHash,
      rowHash,
    );
    prevHashes[s] = rowHash;
  };
  return { db, insert };
}

function bareTransactions(
  events: NewEvent[],
  rowsPerTransaction: number,
  { streams = 1, file = freshFile(), schema = SQLITE_SCHEMA } = {},
): number {
  const { db, insert } = bareOpen(file, streams, schema);
  const write = db.transaction((rows: NewEvent[]) => {
    for (const row of rows) insert(row);
  });
  const t = performance.now();
  if (rowsPerTransaction === 1) for (const event of events) insert(event);
  else
    for (let i = 0; i < events.length; i += rowsPerTransaction)
      write(events.slice(i, i + rowsPerTransaction));
  const seconds = (performance.now() - t) / 1000;
  db.close();
  return events.length / seconds;
}

function bareReadAll(file: string): number {
  const db = new Database(file, { readonly: true });
  db.defaultSafeIntegers(true);
  const page = db.prepare(
    'SELECT * FROM events WHERE global_position > ? ORDER BY global_position LIMIT 512',
  );
  const t = performance.now();
  let count = 0;
  let after = 0n;
  for (let full = true; full;) {
    const rows = page.all(after) as Array<{ global_position: bigint; data: string; metadata: string }>;
    for (const row of rows) {
      JSON.parse(row.data);
      JSON.parse(row.metadata);
      after = row.global_position;
      count++;
    }
    full = rows.length === 512;
  }
  const seconds = (performance.now() - t) / 1000;
  db.close();
  return count / seconds;
}

// ---- run -------------------------------------------------------------------------------------------------

interface Workload {
  readonly name: string;
  readonly adapter: () => Promise<number>;
  readonly bare: () => number;
  readonly adapterRuns: number[];
  readonly bareRuns: number[];
}

async function main(): Promise<void> {
  const load = (): string =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  const sqliteVersion = (
    new Database(':memory:').prepare('SELECT sqlite_version() AS v').get() as { v: string }
  ).v;
  console.log(`# event-store benchmark, ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ` +
      `${Math.round(totalmem() / 2 ** 30)} GiB, SQLite ${sqliteVersion}, temp dir ${dir}`,
  );
  console.log(`load average at start: ${load()}; ${REPS} repetitions, median; events/s (higher is better)\n`);

  // Each repetition gets fresh events and files; the readAll pair reads what the batch pair wrote.
  let single: NewEvent[] = [];
  let concurrent: NewEvent[] = [];
  let batched: NewEvent[] = [];
  let adapterFile = '';
  let bareFile = '';
  const workload = (name: string, adapter: () => Promise<number>, bare: () => number): Workload => ({
    name,
    adapter,
    bare,
    adapterRuns: [],
    bareRuns: [],
  });
  const workloads = [
    workload(
      `single-event appends, 1 caller awaiting each (${SINGLE_EVENTS} events)`,
      () => adapterSingle(single),
      () => bareTransactions(single, 1),
    ),
    workload(
      `single-event appends, ${CALLERS} callers, own streams (${CONCURRENT_EVENTS} events)`,
      () => adapterConcurrent(concurrent, false),
      () => bareTransactions(concurrent, CALLERS, { streams: CALLERS }),
    ),
    workload(
      `single-event appends, ${CALLERS} callers, one stream, 'any' (${CONCURRENT_EVENTS} events)`,
      () => adapterConcurrent(concurrent, true),
      () => bareTransactions(concurrent, CALLERS),
    ),
    workload(
      `batches of ${BATCH} events (${BATCH_EVENTS} events)`,
      () => adapterBatches(batched, adapterFile),
      () => bareTransactions(batched, BATCH, { file: bareFile }),
    ),
    workload(
      `readAll (${BATCH_EVENTS} events)`,
      () => adapterReadAll(adapterFile),
      () => bareReadAll(bareFile),
    ),
  ];

  const withoutIdIndex: number[] = [];

  // Warm up both paths once (JIT, page cache).
  await adapterConcurrent(makeEvents(CALLERS * 20), false);
  bareTransactions(makeEvents(CALLERS * 20), CALLERS);

  for (let rep = 1; rep <= REPS; rep++) {
    single = makeEvents(SINGLE_EVENTS);
    concurrent = makeEvents(CONCURRENT_EVENTS);
    batched = makeEvents(BATCH_EVENTS);
    [adapterFile, bareFile] = [freshFile(), freshFile()];
    // Alternate which side goes first, so drift in the machine's load hits both alike.
    for (const w of workloads) {
      if (rep % 2 === 1) {
        w.adapterRuns.push(await w.adapter());
        w.bareRuns.push(w.bare());
      } else {
        w.bareRuns.push(w.bare());
        w.adapterRuns.push(await w.adapter());
      }
    }
    // What the UNIQUE(id) index (refusing an id already used in another stream) costs the bare loop.
    withoutIdIndex.push(
      bareTransactions(concurrent, CALLERS, { streams: CALLERS, schema: SCHEMA_WITHOUT_ID_INDEX }),
    );
    process.stderr.write(`repetition ${rep}/${REPS} done (load ${load()})\n`);
  }

  const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');
  console.log('| workload | SQLite adapter | bare better-sqlite3 | bare / adapter |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const w of workloads) {
    const [a, b] = [median(w.adapterRuns), median(w.bareRuns)];
    console.log(`| ${w.name} | ${fmt(a)} | ${fmt(b)} | ${(b / a).toFixed(2)} |`);
  }
  const ownStreamsBare = median(workloads[1]?.bareRuns ?? []);
  const noIdIndex = median(withoutIdIndex);
  console.log(
    `\nbare loop, ${CALLERS} callers' worth of own-stream rows per transaction, without the UNIQUE(id) index: ` +
      `${fmt(noIdIndex)} events/s (${(noIdIndex / ownStreamsBare).toFixed(2)}x the same loop with it)`,
  );
  console.log(`\nload average at end: ${load()}`);
  console.log('all repetitions (adapter / bare):');
  for (const w of workloads) {
    console.log(`- ${w.name}: ${w.adapterRuns.map(fmt).join(', ')} / ${w.bareRuns.map(fmt).join(', ')}`);
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
