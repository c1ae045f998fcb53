/** Where the read models live (COUP_READ_MODELS): the SQLite file (the default) or a PostgreSQL database. */
import { ReadModelsSettingError, readModelsTarget } from '@coup/projections';
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
 * `postgresql://` URL, that database; any other `scheme://` refused (`readModelsTarget`, as the `coup` CLI reads
 * it). Either way the queries read it and, unless COUP_PROJECTIONS is `off` (another process keeps it: `coup
 * projections run`), the service's projections fold into it. Messages never repeat the URL (it may hold a password).
 */
export function readModelsOf(env: NodeJS.ProcessEnv, dataDir: string, cwd: string): ReadModelsConfig {
  let target;
  try {
    target = readModelsTarget(env['COUP_READ_MODELS'], dataDir, cwd);
  } catch (error) {
    if (error instanceof ReadModelsSettingError) throw new ConfigError(error.message);
    throw error;
  }
  if (target.kind === 'sqlite') return target;
  return {
    ...target,
    timeoutMs: integer(env, 'COUP_READ_MODELS_TIMEOUT_MS', 10_000, 100, 600_000),
  };
}
