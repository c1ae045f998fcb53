/** Where the read models live (COUP_READ_MODELS): the SQLite file (the default) or a PostgreSQL database. */
import { join, resolve } from 'node:path';
import { isPostgresUrl } from '@coup/projections';
import { ConfigError, integer } from './config';

export type ReadModelsConfig =
  | { readonly kind: 'sqlite'; readonly file: string }
  | {
      readonly kind: 'postgres';
      readonly url: string;
      /** COUP_READ_MODELS_TIMEOUT_MS: a query not answered within this is answered 503 READ_MODELS_UNAVAILABLE. */
      readonly timeoutMs: number;
    };

/** The service configuration's part that says where the read models are. */
export interface ReadModelsSetting {
  /** COUP_READ_MODELS: the SQLite file the projections fold into and the queries read, or PostgreSQL's URL. */
  readonly readModels: ReadModelsConfig;
}

/**
 * COUP_READ_MODELS: unset, `<COUP_DATA_DIR>/read-models.sqlite`; a path, that SQLite file; a `postgres://` or
 * `postgresql://` URL, that database. Either way the queries read it and, unless COUP_PROJECTIONS is `off` (another
 * process keeps it: `coup projections run`), the service's projections fold into it. Messages never repeat the URL
 * (it may hold a password).
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
    return {
      kind: 'postgres',
      url: value,
      timeoutMs: integer(env, 'COUP_READ_MODELS_TIMEOUT_MS', 10_000, 100, 600_000),
    };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError('COUP_READ_MODELS must be a SQLite file path or a postgres:// URL');
  }
  return { kind: 'sqlite', file: resolve(cwd, value) };
}
