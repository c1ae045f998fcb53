/** Where the read models live (COUP_READ_MODELS): the SQLite file (the default) or a PostgreSQL database. */
import { join, resolve } from 'node:path';
import { isPostgresUrl } from '@coup/projections';
import { ConfigError } from './config';

export type ReadModelsConfig =
  { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string };

/** The service configuration's part that says where the read models are. */
export interface ReadModelsSetting {
  /** COUP_READ_MODELS: the SQLite file the projections fold into and the queries read, or PostgreSQL's URL. */
  readonly readModels: ReadModelsConfig;
}

/**
 * COUP_READ_MODELS: unset, `<COUP_DATA_DIR>/read-models.sqlite`; a path, that SQLite file (the projections fold
 * into it and the queries read it); a `postgres://` or `postgresql://` URL, the queries read that database, which
 * another process keeps (`coup projections run`): the service then folds nothing itself, so COUP_PROJECTIONS must
 * be `off`. Messages never repeat the URL (it may hold a password).
 */
export function readModelsOf(env: NodeJS.ProcessEnv, dataDir: string, cwd: string): ReadModelsConfig {
  const value = env['COUP_READ_MODELS'];
  if (value === undefined || value === '')
    return { kind: 'sqlite', file: join(dataDir, 'read-models.sqlite') };
  if (isPostgresUrl(value)) {
    let host = '';
    try {
      host = new URL(value).hostname;
    } catch {
      // refused below
    }
    if (host === '')
      throw new ConfigError(
        'COUP_READ_MODELS is not a valid URL: postgres://user:password@host:5432/database',
      );
    if (env['COUP_PROJECTIONS'] !== 'off') {
      throw new ConfigError(
        'COUP_READ_MODELS names a PostgreSQL database, which the service reads but does not fold into: set COUP_PROJECTIONS=off (the projection process keeps it)',
      );
    }
    return { kind: 'postgres', url: value };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError('COUP_READ_MODELS must be a SQLite file path or a postgres:// URL');
  }
  return { kind: 'sqlite', file: resolve(cwd, value) };
}
