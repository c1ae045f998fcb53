/**
 * Direct, read-only access to a SQLite event store file (its `events` table, see @coup/event-store's
 * SQLITE_SCHEMA), for what the store port does not offer: the last global position (lag without scanning), and
 * the stored bytes of a span of events (so verification checks the exact stored text, not a re-encoding of it,
 * and is not fooled by upcasting).
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

/** An event exactly as stored. */
export interface RawEvent {
  readonly revision: number;
  readonly position: number;
  readonly type: string;
  readonly dataJson: string;
  readonly metadataJson: string;
  readonly prevHash: string;
  readonly hash: string;
}

/** Reads `count` stored events of `stream` from `fromRevision`. */
export type RawEventReader = (stream: string, fromRevision: number, count: number) => Promise<RawEvent[]>;

function opener(eventsFile: string): () => Database.Database | null {
  let db: Database.Database | null = null;
  return () => {
    if (db === null) {
      if (!existsSync(eventsFile)) return null;
      db = new Database(eventsFile, { readonly: true, fileMustExist: true });
      db.pragma('busy_timeout = 5000');
    }
    return db;
  };
}

/** The last global position of the store file (null when empty or missing). */
export function sqliteHeadPosition(eventsFile: string): () => Promise<bigint | null> {
  const open = opener(eventsFile);
  return async () => {
    const db = open();
    if (db === null) return null;
    const row = db.prepare('SELECT max(global_position) AS head FROM events').safeIntegers(true).get() as {
      head: bigint | null;
    };
    return row.head;
  };
}

/** Reads stored events by stream revision, as stored. */
export function sqliteRawReader(eventsFile: string): RawEventReader {
  const open = opener(eventsFile);
  return async (stream, fromRevision, count) => {
    const db = open();
    if (db === null) return [];
    return db
      .prepare(
        `SELECT revision, global_position AS position, type, data AS dataJson, metadata AS metadataJson, prev_hash AS prevHash, hash
         FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
      )
      .all(stream, fromRevision, count) as RawEvent[];
  };
}
