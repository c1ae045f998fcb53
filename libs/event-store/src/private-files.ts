// Owner-only files for the SQLite databases Coup writes (events, read models, catalog): folders 0700, files 0600,
// whatever the process's umask. SQLite creates a database file with 0644 less the umask, and gives its companion
// files (-wal, -shm, -journal) the database file's mode when it creates them: so the database file is created
// here first, 0600, and the companions follow it.
import { chmodSync, closeSync, fchmodSync, fstatSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The files SQLite keeps beside a database file. */
const COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/**
 * Prepares a SQLite database file to be opened for writing: its folder created (0700) if missing, the file
 * created empty (0600) if missing, and the file and its existing companion files made 0600 if they were readable
 * by others (files an older version wrote). `:memory:` and `''` (temporary databases) are left alone. Throws when a
 * mode cannot be set (e.g. a file owned by another user).
 */
export function preparePrivateSqliteFile(file: string): void {
  if (file === ':memory:' || file === '') return;
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const fd = openSync(file, 'a', PRIVATE_FILE_MODE);
  try {
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
  for (const suffix of COMPANIONS) makePrivate(file + suffix);
}

/** Makes an existing file 0600 if others may read or write it; a missing file is fine. */
export function makePrivate(file: string): void {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if ((mode & 0o077) !== 0) chmodSync(file, PRIVATE_FILE_MODE);
}
