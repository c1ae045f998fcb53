/**
 * Read models as comparable data, and a rebuild to compare them with: every table of every projection (fold states
 * included; the checkpoints, which say when each was written, left out), rows sorted, from a SQLite file or a
 * PostgreSQL database alike; and the log folded from scratch into fresh read models in one catch-up.
 */
import type { EventStore } from '@coup/event-store';
import { PROJECTIONS, ProjectionRunner, ReadModels, projectionTables } from '@coup/projections';

export type Dump = Record<string, string[]>;

/** Every projection table at `target` (a file or a `postgres://` URL), each row as JSON, sorted. */
export async function dumpReadModels(target: string): Promise<Dump> {
  const read = await ReadModels.open(target);
  try {
    const out: Dump = {};
    for (const p of PROJECTIONS)
      for (const def of projectionTables(p)) {
        const rows = await read.sql.all(`SELECT * FROM "${def.name}"`);
        out[def.name] = rows.map((r) => JSON.stringify(r)).sort();
      }
    return out;
  } finally {
    await read.close();
  }
}

/** Folds everything in `store` into the empty read models at `target`, in one catch-up; answers the position. */
export async function rebuildInto(store: EventStore, target: string): Promise<number> {
  const runner = new ProjectionRunner({ store, readModels: target, catchUpPage: 100_000 });
  try {
    return (await runner.catchUp()).position;
  } finally {
    await runner.close();
  }
}
