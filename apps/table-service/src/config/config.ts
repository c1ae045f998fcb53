import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { makePrivate, parseSealKeys, PRIVATE_DIR_MODE, SealKeys } from '@coup/event-store';
import { analyticsOf, type AnalyticsSetting } from './analytics-config';
import { readModelsOf, type ReadModelsSetting } from './read-models-config';
import { staffConfigOf, type StaffConfig } from './staff-config';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The service's configuration, read once from the environment at start and validated. */
export interface ServiceConfig extends ReadModelsSetting, AnalyticsSetting {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly eventStore:
    | {
        readonly kind: 'sqlite';
        readonly file: string;
        /** Where group commits run: `worker` (default, a thread), `adaptive` (by the load) or `inline`. */
        readonly writer: 'worker' | 'inline' | 'adaptive';
      }
    | { readonly kind: 'eventstoredb'; readonly connectionString: string }
    | { readonly kind: 'memory' };
  readonly jwtSecret: string;
  /** True when the secret was generated into the data folder because none was configured (local use only). */
  readonly jwtSecretGenerated: boolean;
  /**
   * The keys that seal unrevealed shuffle seeds at rest (COUP_SEED_KEY or COUP_SEED_KEY_FILE, kept outside the data
   * folder): the first seals, every one opens. The memory store, which keeps nothing, gets a key of its own.
   */
  readonly seedKeys: SealKeys;
  /** Seconds a token's `nbf` and `iat` may be ahead of this clock (COUP_TOKEN_CLOCK_SKEW_S); `exp` gets none. */
  readonly tokenClockSkewSeconds: number;
  readonly logLevel: LogLevel;
  /** Largest accepted request body, in bytes. */
  readonly bodyLimit: number;
  /** How many events a table may gain before the service writes a snapshot of its state. */
  readonly snapshotEvery: number;
  /** Where the runner folds: `worker` (default: a thread of the built service), `in-process`, or `off` (elsewhere). */
  readonly projections: 'worker' | 'in-process' | 'off';
  /** Live, the read models commit at most once per this many ms (a quiet event at once); 0: whenever at hand. */
  readonly projectionCommitMs: number;
  /** How often the worker thread looks for new commits in a SQLite store (no commit wakes its own connection). */
  readonly projectionPollMs: number;
  /**
   * Most events in one read-model commit of the worker thread's runner. Sized so that under load the interval above
   * decides when a commit happens (the default holds about a second of a busy table's bets); a catch-up commits every
   * this many events. The in-process runner keeps 2,000: there a commit holds the request thread up.
   */
  readonly projectionMaxBatch: number;
  /** A key's first accepted answer is returned for at least this many days (COUP_IDEMPOTENCY_DAYS). */
  readonly idempotencyDays: number;
  /** Most table sessions held in memory; idle ones beyond are evicted (COUP_TABLE_SESSIONS_MAX). */
  readonly tableSessionsMax: number;
  /** A table session unused this long is evicted, and reloads from its snapshot (COUP_TABLE_SESSION_IDLE_MS). */
  readonly tableSessionIdleMs: number;
  /** Largest WebSocket message the live push reads, in bytes (COUP_WS_MAX_FRAME_BYTES); larger: close 1009. */
  readonly wsMaxFrameBytes: number;
  /** Live sockets one token subject may hold open at once (COUP_WS_MAX_SOCKETS_PER_PRINCIPAL). */
  readonly wsMaxSocketsPerPrincipal: number;
  /** A live resume further behind than this many events gets a fresh view (COUP_WS_MAX_RESUME_EVENTS). */
  readonly wsMaxResumeEvents: number;
  /** Messages a live socket may send per second, after a burst of twice as many (COUP_WS_MESSAGES_PER_SECOND). */
  readonly wsMessagesPerSecond: number;
  /** Other players' bets reach a live watcher as one totals frame per this many ms at most (COUP_WS_COALESCE_MS). */
  readonly wsCoalesceMs: number;
  /** A live socket whose unsent frames pass this many bytes is dropped and resumes (COUP_WS_MAX_BUFFERED_BYTES). */
  readonly wsMaxBufferedBytes: number;
  /** A log follower (live push, table list) that lost its subscription retries after this (COUP_FOLLOW_RETRY_MS). */
  readonly followRetryMs: number;
  /** The wait doubles with each failure in a row, jittered, up to this (COUP_FOLLOW_RETRY_MAX_MS). */
  readonly followRetryMaxMs: number;
  /** Serve the interactive OpenAPI page at /docs (the JSON document at /docs/openapi.json is always served). */
  readonly docsUi: boolean;
  /** Serve the dealer console's built files from this folder, if it exists. */
  readonly consoleDir: string | null;
  /** The HTTP edge's limits, proxy trust and metrics exposure (see {@link HttpEdgeConfig}). */
  readonly http: HttpEdgeConfig;
  readonly staff: StaffConfig;
}

/** A configuration the service refuses to start with. The message names the variable and what it expects. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not '${raw}'`);
  return Number(raw);
}

/**
 * Reads and validates the configuration. Creates the data folder (owner-only), and a local JWT secret in it if none
 * is set; reads the seed keys.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServiceConfig {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = bindAddress(env['HOST']);
  const dataDir = resolve(cwd, env['COUP_DATA_DIR'] || 'data');
  const kind = env['COUP_EVENT_STORE'] || 'sqlite';
  const logLevel = logLevelOf(env);
  const eventStore = eventStoreOf(env, kind, dataDir);
  privateDataFolder(dataDir);
  const { jwtSecret, jwtSecretGenerated } = jwtSecretOf(env, dataDir);

  const consoleDir = resolve(
    env['COUP_CONSOLE_DIR'] || join(__dirname, '..', '..', '..', 'dealer-console', 'dist'),
  );
  return {
    port,
    host,
    dataDir,
    eventStore,
    jwtSecret,
    jwtSecretGenerated,
    tokenClockSkewSeconds: integer(env, 'COUP_TOKEN_CLOCK_SKEW_S', 30, 0, 300),
    logLevel,
    bodyLimit: integer(env, 'COUP_BODY_LIMIT', 64 * 1024, 1024, 16 * 1024 * 1024),
    snapshotEvery: integer(env, 'COUP_SNAPSHOT_EVERY', 500, 10, 1_000_000),
    idempotencyDays: integer(env, 'COUP_IDEMPOTENCY_DAYS', 7, 1, 3_650),
    tableSessionsMax: integer(env, 'COUP_TABLE_SESSIONS_MAX', 10_000, 10, 1_000_000),
    tableSessionIdleMs: integer(env, 'COUP_TABLE_SESSION_IDLE_MS', 600_000, 1_000, 86_400_000),
    wsMaxFrameBytes: integer(env, 'COUP_WS_MAX_FRAME_BYTES', 4096, 256, 1024 * 1024),
    wsMaxSocketsPerPrincipal: integer(env, 'COUP_WS_MAX_SOCKETS_PER_PRINCIPAL', 20, 1, 100_000),
    wsMaxResumeEvents: integer(env, 'COUP_WS_MAX_RESUME_EVENTS', 2000, 0, 100_000),
    wsMessagesPerSecond: integer(env, 'COUP_WS_MESSAGES_PER_SECOND', 20, 1, 10_000),
    wsCoalesceMs: integer(env, 'COUP_WS_COALESCE_MS', 250, 10, 10_000),
    wsMaxBufferedBytes: integer(env, 'COUP_WS_MAX_BUFFERED_BYTES', 1024 * 1024, 64 * 1024, 64 * 1024 * 1024),
    ...followRetryOf(env),
    docsUi: env['COUP_DOCS_UI'] !== 'false',
    projections: projectionsMode(env['COUP_PROJECTIONS']),
    readModels: readModelsOf(env, dataDir, cwd),
    projectionCommitMs: integer(env, 'COUP_PROJECTION_COMMIT_MS', 500, 0, 10_000),
    projectionMaxBatch: integer(env, 'COUP_PROJECTION_MAX_BATCH', 10_000, 100, 100_000),
    projectionPollMs: integer(env, 'COUP_PROJECTION_POLL_MS', 50, 10, 10_000),
    consoleDir: existsSync(join(consoleDir, 'index.html')) ? consoleDir : null,
    http: httpEdgeConfig(env),
    seedKeys: seedKeysOf(env, kind, dataDir, cwd),
    staff: staffConfigOf(env),
    ...analyticsOf(env),
  };
}

/** The followers' backoff: COUP_FOLLOW_RETRY_MS, then up to COUP_FOLLOW_RETRY_MAX_MS (not below the first). */
function followRetryOf(env: NodeJS.ProcessEnv): Pick<ServiceConfig, 'followRetryMs' | 'followRetryMaxMs'> {
  const first = integer(env, 'COUP_FOLLOW_RETRY_MS', 200, 10, 60_000);
  const max = integer(env, 'COUP_FOLLOW_RETRY_MAX_MS', Math.max(5_000, first), first, 600_000);
  return { followRetryMs: first, followRetryMaxMs: max };
}

function logLevelOf(env: NodeJS.ProcessEnv): LogLevel {
  const logLevel = (env['LOG_LEVEL'] || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not '${logLevel}'`);
  return logLevel;
}

/** The event store of COUP_EVENT_STORE (`kind`), with its own settings. */
function eventStoreOf(env: NodeJS.ProcessEnv, kind: string, dataDir: string): ServiceConfig['eventStore'] {
  if (kind === 'sqlite') {
    const writer = env['COUP_SQLITE_WRITER'] || 'worker';
    if (writer !== 'worker' && writer !== 'inline' && writer !== 'adaptive')
      throw new ConfigError(`COUP_SQLITE_WRITER must be worker (default), adaptive or inline: '${writer}'`);
    return { kind: 'sqlite', file: join(dataDir, 'events.sqlite'), writer };
  }
  if (kind === 'eventstoredb') {
    const connectionString = env['EVENTSTORE_CONNECTION_STRING'];
    if (!connectionString) {
      throw new ConfigError(
        'COUP_EVENT_STORE=eventstoredb needs EVENTSTORE_CONNECTION_STRING (e.g. esdb://localhost:2113?tls=false)',
      );
    }
    if (!/^(esdb|esdb\+discover|kurrentdb|kurrent|kdb)(\+discover)?:\/\//.test(connectionString)) {
      throw new ConfigError(
        `EVENTSTORE_CONNECTION_STRING must be an esdb:// connection string, not '${connectionString}'`,
      );
    }
    return { kind: 'eventstoredb', connectionString };
  }
  if (kind === 'memory') return { kind: 'memory' };
  throw new ConfigError(`COUP_EVENT_STORE must be 'sqlite' (the default) or 'eventstoredb', not '${kind}'`);
}

/** COUP_JWT_SECRET, or (none set) a secret generated once into the data folder, for local use only. */
function jwtSecretOf(
  env: NodeJS.ProcessEnv,
  dataDir: string,
): { readonly jwtSecret: string; readonly jwtSecretGenerated: boolean } {
  const jwtSecret = env['COUP_JWT_SECRET'] ?? '';
  if (jwtSecret === '') {
    const file = join(dataDir, 'jwt-secret.local');
    if (!existsSync(file)) {
      writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600 });
      chmodSync(file, 0o600);
    }
    return { jwtSecret: readFileSync(file, 'utf8').trim(), jwtSecretGenerated: true };
  }
  if (jwtSecret.length < 32) throw new ConfigError('COUP_JWT_SECRET must be at least 32 characters');
  return { jwtSecret, jwtSecretGenerated: false };
}

/**
 * The data folder, owner-only whatever the umask: created 0700 (an existing one made 0700), and any file in it that
 * others could read made 0600 (the stores create theirs 0600). Refuses a folder whose mode cannot be set.
 */
function privateDataFolder(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    if ((statSync(dataDir).mode & 0o077) !== 0) chmodSync(dataDir, PRIVATE_DIR_MODE);
    for (const entry of readdirSync(dataDir, { withFileTypes: true }))
      if (entry.isFile()) makePrivate(join(dataDir, entry.name));
  } catch (error) {
    throw new ConfigError(
      `COUP_DATA_DIR (${dataDir}) must be a folder only the service may read (0700, its files 0600): ${(error as Error).message}`,
    );
  }
}

/**
 * COUP_SEED_KEY (the keys) or COUP_SEED_KEY_FILE (a file holding them, outside the data folder): 64 hex characters
 * or base64 of 32 bytes each, separated by commas or lines; the first seals. Required with a store that outlives
 * the process: without the key, a copy of the data folder (or of EventStoreDB) holds no unrevealed seed.
 */
function seedKeysOf(env: NodeJS.ProcessEnv, kind: string, dataDir: string, cwd: string): SealKeys {
  const inline = env['COUP_SEED_KEY'] ?? '';
  const fileName = env['COUP_SEED_KEY_FILE'] ?? '';
  if (inline !== '' && fileName !== '')
    throw new ConfigError('set COUP_SEED_KEY or COUP_SEED_KEY_FILE, not both');
  if (inline === '' && fileName === '') {
    if (kind === 'memory') return SealKeys.ephemeral();
    throw new ConfigError(
      'COUP_SEED_KEY or COUP_SEED_KEY_FILE is required: unrevealed shuffle seeds are encrypted at rest with this key, ' +
        'kept outside the data folder (make one with `openssl rand -hex 32`; `npm start` makes ./seed-key.local)',
    );
  }
  const keys = (name: string, text: string): SealKeys => {
    try {
      return new SealKeys(parseSealKeys(text), name);
    } catch (error) {
      throw new ConfigError(`${name}: ${(error as Error).message}`);
    }
  };
  if (inline !== '') return keys('COUP_SEED_KEY', inline);
  const file = resolve(cwd, fileName);
  if (isInside(dataDir, file))
    throw new ConfigError(
      `COUP_SEED_KEY_FILE (${file}) must be outside the data folder ${dataDir}: a copy of the folder must not carry the key`,
    );
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`COUP_SEED_KEY_FILE (${file}) cannot be read: ${(error as Error).message}`);
  }
  return keys(`COUP_SEED_KEY_FILE (${file})`, text);
}

/** Is `path` the folder `dir` or inside it (symbolic links resolved where they exist)? */
function isInside(dir: string, path: string): boolean {
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const rel = relative(real(dir), real(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function projectionsMode(value: string | undefined): ServiceConfig['projections'] {
  if (value === undefined || value === '' || value === 'worker' || value === 'on') return 'worker';
  if (value === 'in-process' || value === 'off') return value;
  throw new ConfigError(`COUP_PROJECTIONS must be worker (the default), in-process or off, not '${value}'`);
}

/** Where the local JWT secret lives when none is configured (the CLI's `token` command reads it too). */
export function localSecretFile(dataDir: string): string {
  return join(dataDir, 'jwt-secret.local');
}

/**
 * The HTTP edge: what a client may send and how often, how long it may take, and who sees the metrics. Each limit
 * is per minute and per client address (`request.ip`: the socket's peer, or the forwarded client when
 * COUP_TRUST_PROXY trusts the proxy) or per principal (a token's role and subject). 0 turns a limit off.
 */
export interface HttpEdgeConfig {
  /** Deepest JSON body accepted, in nested arrays and objects (the body itself is level 1); deeper is 400. */
  readonly jsonMaxDepth: number;
  /** A request's headers and body must arrive within this many ms (408 otherwise). */
  readonly requestTimeoutMs: number;
  /** A request's headers must arrive within this many ms (408 otherwise); at most requestTimeoutMs. */
  readonly headersTimeoutMs: number;
  /** Open connections one client address may hold (more are closed at once); 0: no cap. */
  readonly maxConnectionsPerIp: number;
  /** Commands (POST, PUT, DELETE under /api) one principal may send per minute (429 beyond); 0: no limit. */
  readonly commandsPerMinute: number;
  /** Commands one client address may send per minute, all its principals together (429 beyond); 0: no limit. */
  readonly commandsPerMinutePerIp: number;
  /** Failed authentications one client address may make per minute; beyond, its bad tokens get 429; 0: no limit. */
  readonly authFailuresPerMinute: number;
  /** Fastify's trustProxy: false (default: X-Forwarded-For is ignored), true, a hop count, or trusted addresses. */
  readonly trustProxy: boolean | number | readonly string[];
  /** When set, /metrics answers only `Authorization: Bearer <this>`. */
  readonly metricsToken: string | null;
  /** When set, /metrics is served on this port (on HOST) and no longer on the API's port; 0: a free port. */
  readonly metricsPort: number | null;
}

/** HOST: an IP address or a host name; 127.0.0.1 by default (local use: containers set 0.0.0.0). */
function bindAddress(value: string | undefined): string {
  if (value === undefined || value === '') return '127.0.0.1';
  if (isIP(value) === 0 && !/^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(value))
    throw new ConfigError(
      `HOST must be an IP address or a host name (e.g. 127.0.0.1, 0.0.0.0), not '${value}'`,
    );
  return value;
}

const PROXY_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * COUP_TRUST_PROXY: unset or `false` (default), `true` (every hop: only when no client can reach the service
 * except through the proxy), a hop count (1 to 10), or a comma-separated list of proxy addresses, CIDR ranges and
 * the names loopback, linklocal, uniquelocal.
 */
function trustProxy(value: string | undefined): HttpEdgeConfig['trustProxy'] {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 10)
      throw new ConfigError(`COUP_TRUST_PROXY as a hop count must be 1 to 10, not '${value}'`);
    return hops;
  }
  const entries = value.split(',').map((e) => e.trim());
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const prefixOk =
      prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!PROXY_NAMES.has(entry) && (family === 0 || !prefixOk || extra !== undefined)) {
      throw new ConfigError(
        `COUP_TRUST_PROXY must be false, true, a hop count, or addresses, CIDR ranges and loopback|linklocal|uniquelocal separated by commas; '${entry}' is none of these`,
      );
    }
  }
  return entries;
}

function httpEdgeConfig(env: NodeJS.ProcessEnv): HttpEdgeConfig {
  const requestTimeoutMs = integer(env, 'COUP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  const headersTimeoutMs = integer(
    env,
    'COUP_HEADERS_TIMEOUT_MS',
    Math.min(10_000, requestTimeoutMs),
    100,
    3_600_000,
  );
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError(
      `COUP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed COUP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  const metricsToken = env['COUP_METRICS_TOKEN'] || null;
  if (metricsToken !== null && !/^[\x21-\x7e]{16,256}$/.test(metricsToken))
    throw new ConfigError('COUP_METRICS_TOKEN must be 16 to 256 visible ASCII characters');
  const metricsPort = env['COUP_METRICS_PORT'] ? integer(env, 'COUP_METRICS_PORT', 0, 0, 65535) : null;
  return {
    jsonMaxDepth: integer(env, 'COUP_JSON_MAX_DEPTH', 32, 2, 256),
    requestTimeoutMs,
    headersTimeoutMs,
    maxConnectionsPerIp: integer(env, 'COUP_MAX_CONNECTIONS_PER_IP', 512, 0, 1_000_000),
    commandsPerMinute: integer(env, 'COUP_RATE_LIMIT_PER_MINUTE', 600, 0, 100_000_000),
    commandsPerMinutePerIp: integer(env, 'COUP_RATE_LIMIT_PER_IP_PER_MINUTE', 6_000, 0, 100_000_000),
    authFailuresPerMinute: integer(env, 'COUP_AUTH_FAILURES_PER_MINUTE', 30, 0, 100_000_000),
    trustProxy: trustProxy(env['COUP_TRUST_PROXY']),
    metricsToken,
    metricsPort,
  };
}
