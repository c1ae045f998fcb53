/** Opens the read-model storage a setting names: a `postgres://` (or `postgresql://`) URL, or a SQLite file. */
import type { Db } from './db';
import { PostgresReadModelStorage, type PostgresStorageOptions } from './postgres/storage';
import { SqliteReadModelStorage } from './sqlite-storage';
import type { ReadModelStorage } from './storage';

/** True for a PostgreSQL connection string. */
function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

/**
 * The storage at `target`: PostgreSQL for a `postgres://user:password@host:port/database` URL (a pool of its own;
 * the tables in the connection's schema), else the SQLite file at that path (created owner-only), or an open
 * SQLite connection. `close()` ends what it opened.
 */
export function openReadModelStorage(
  target: string | Db,
  options: PostgresStorageOptions = {},
): ReadModelStorage {
  if (typeof target === 'string' && isPostgresUrl(target))
    return new PostgresReadModelStorage(target, options);
  return new SqliteReadModelStorage(target);
}
