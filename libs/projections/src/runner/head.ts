import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * The last global position of a SQLite event store file (its `events` table, see @coup/event-store's
 * SQLITE_SCHEMA), read through a read-only connection: for the runner's lag without scanning events.
 */
export function sqliteHeadPosition(eventsFile: string): () => Promise<bigint | null> {
  let db: Database.Database | null = null;
  return async () => {
    if (db === null) {
      if (!existsSync(eventsFile)) return null;
      db = new Database(eventsFile, { readonly: true, fileMustExist: true });
      db.pragma('busy_timeout = 5000');
    }
    const row = db.prepare('SELECT max(global_position) AS head FROM events').safeIntegers(true).get() as {
      head: bigint | null;
    };
    return row.head;
  };
}
