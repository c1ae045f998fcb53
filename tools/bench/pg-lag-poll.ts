/**
 * bench:pg-lag's checkpoint poller, a process of its own (so the load generator's event loop does not delay it):
 * every `everyMs` it reads the lowest projection checkpoint in the read models (a PostgreSQL URL or a SQLite
 * file) and, each time it moved, prints `<Date.now()> <position>`: every event at or below that position is in
 * the rows from then on (a batch's rows commit with its checkpoints). It prints `polling` once it reads, and
 * ends when its standard input closes.
 * Usage: node --import tsx tools/bench/pg-lag-poll.ts <read models> <everyMs>
 */
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { CHECKPOINTS } from '@coup/projections';

const [location, every] = process.argv.slice(2);
if (location === undefined) throw new Error('usage: pg-lag-poll.ts <read models> <everyMs>');
const everyMs = Number(every ?? 10);
const sql = `SELECT min(position) AS p FROM ${CHECKPOINTS}`;

async function reader(): Promise<{ read: () => Promise<number>; close: () => Promise<void> }> {
  if (/^postgres(ql)?:\/\//.test(location!)) {
    const client = new Client({ connectionString: location });
    await client.connect();
    return {
      read: async () => Number((await client.query<{ p: string | null }>(sql)).rows[0]?.p ?? 0),
      close: () => client.end(),
    };
  }
  const db = new Database(location, { readonly: true, fileMustExist: true });
  const statement = db.prepare(sql);
  return {
    read: async () => Number((statement.get() as { p: number | null }).p ?? 0),
    close: async () => void db.close(),
  };
}

async function main(): Promise<void> {
  const { read, close } = await reader();
  let stopped = false;
  process.stdin.on('end', () => (stopped = true)).resume();
  let last = await read();
  process.stdout.write(`polling\n${Date.now()} ${last}\n`);
  while (!stopped) {
    await sleep(everyMs);
    const position = await read();
    if (position !== last) process.stdout.write(`${Date.now()} ${(last = position)}\n`);
  }
  await close();
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
