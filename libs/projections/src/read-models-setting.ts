/**
 * COUP_READ_MODELS, read one way by the service and the `coup` CLI: unset, the data folder's `read-models.sqlite`;
 * a `postgres://` or `postgresql://` URL, that PostgreSQL database; any other `scheme://` value refused (a typo such
 * as `postgress://` would otherwise name a SQLite file under the current directory); anything else, a SQLite file
 * path.
 */
import { join, resolve } from 'node:path';
import { isPostgresUrl } from './read/read-models';

/** The read-model file's name in the data folder. */
export const READ_MODELS_FILE = 'read-models.sqlite';

export type ReadModelsTarget =
  { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string };

/** A COUP_READ_MODELS value that names nothing the read side can open. Its message never repeats the value. */
export class ReadModelsSettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadModelsSettingError';
  }
}

/**
 * Where `value` (COUP_READ_MODELS) puts the read models: unset or empty, `<dataDir>/read-models.sqlite`; a
 * PostgreSQL URL with a host, that database; a path, that file resolved against `cwd`. Throws
 * ReadModelsSettingError for a PostgreSQL URL without a host and for any other `scheme://` value.
 */
export function readModelsTarget(value: string | undefined, dataDir: string, cwd: string): ReadModelsTarget {
  if (value === undefined || value === '') return { kind: 'sqlite', file: join(dataDir, READ_MODELS_FILE) };
  if (isPostgresUrl(value)) {
    let host = '';
    try {
      host = new URL(value).hostname;
    } catch {
      // refused below
    }
    if (host === '')
      throw new ReadModelsSettingError(
        'COUP_READ_MODELS is not a valid URL: postgres://user:password@host:5432/database',
      );
    return { kind: 'postgres', url: value };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value))
    throw new ReadModelsSettingError('COUP_READ_MODELS must be a SQLite file path or a postgres:// URL');
  return { kind: 'sqlite', file: resolve(cwd, value) };
}
