import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FieldSealer } from '@coup/event-store';
import { JsonLogger } from '../common/logger';
import { ConfigError, loadConfig } from './config';

const dir = () => mkdtempSync(join(tmpdir(), 'coup-config-'));
/** A seed key (required with a store that outlives the process; see the seed key tests). */
const KEY = { COUP_SEED_KEY: '5e'.repeat(32) };

describe('configuration is validated at start', () => {
  it('defaults: port 3000, sqlite in the data folder, a generated local secret', () => {
    const d = dir();
    const c = loadConfig({ ...KEY, COUP_DATA_DIR: d });
    expect(c).toMatchObject({
      port: 3000,
      eventStore: { kind: 'sqlite', file: join(d, 'events.sqlite'), writer: 'worker' },
      jwtSecretGenerated: true,
      logLevel: 'info',
      projectionCommitMs: 500,
      projectionMaxBatch: 10_000,
      projectionPollMs: 50,
      tokenClockSkewSeconds: 30,
    });
    expect(loadConfig({ ...KEY, COUP_DATA_DIR: d }).jwtSecret).toBe(c.jwtSecret);
  });
  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ COUP_EVENT_STORE: 'postgres' }, /COUP_EVENT_STORE/],
    [{ COUP_EVENT_STORE: 'eventstoredb' }, /EVENTSTORE_CONNECTION_STRING/],
    [{ COUP_EVENT_STORE: 'eventstoredb', EVENTSTORE_CONNECTION_STRING: 'http://x' }, /esdb:\/\//],
    [{ COUP_JWT_SECRET: 'short' }, /COUP_JWT_SECRET/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ COUP_PROJECTIONS: 'maybe' }, /COUP_PROJECTIONS/],
    [{ COUP_SQLITE_WRITER: 'thread' }, /COUP_SQLITE_WRITER/],
    [{ COUP_PROJECTION_COMMIT_MS: 'soon' }, /COUP_PROJECTION_COMMIT_MS/],
    [{ COUP_PROJECTION_COMMIT_MS: '20000' }, /COUP_PROJECTION_COMMIT_MS/],
    [{ COUP_PROJECTION_MAX_BATCH: '0' }, /COUP_PROJECTION_MAX_BATCH/],
    [{ COUP_PROJECTION_MAX_BATCH: 'many' }, /COUP_PROJECTION_MAX_BATCH/],
    [{ COUP_PROJECTION_MAX_BATCH: '100001' }, /COUP_PROJECTION_MAX_BATCH/],
    [{ COUP_PROJECTION_POLL_MS: '5' }, /COUP_PROJECTION_POLL_MS/],
    [{ COUP_PROJECTION_POLL_MS: 'often' }, /COUP_PROJECTION_POLL_MS/],
    [{ COUP_IDEMPOTENCY_DAYS: '0' }, /COUP_IDEMPOTENCY_DAYS/],
    [{ COUP_IDEMPOTENCY_DAYS: 'week' }, /COUP_IDEMPOTENCY_DAYS/],
    [{ COUP_TABLE_SESSIONS_MAX: '9' }, /COUP_TABLE_SESSIONS_MAX/],
    [{ COUP_TABLE_SESSION_IDLE_MS: '999' }, /COUP_TABLE_SESSION_IDLE_MS/],
    [{ COUP_TOKEN_CLOCK_SKEW_S: '-1' }, /COUP_TOKEN_CLOCK_SKEW_S/],
    [{ COUP_TOKEN_CLOCK_SKEW_S: '301' }, /COUP_TOKEN_CLOCK_SKEW_S/],
    [{ COUP_TOKEN_CLOCK_SKEW_S: '1m' }, /COUP_TOKEN_CLOCK_SKEW_S/],
    [{ HOST: 'not a host' }, /HOST/],
    [{ HOST: '-x' }, /HOST/],
    [{ COUP_TRUST_PROXY: 'yes' }, /COUP_TRUST_PROXY/],
    [{ COUP_TRUST_PROXY: '0' }, /COUP_TRUST_PROXY/],
    [{ COUP_TRUST_PROXY: '11' }, /COUP_TRUST_PROXY/],
    [{ COUP_TRUST_PROXY: '10.0.0.0/33' }, /COUP_TRUST_PROXY/],
    [{ COUP_TRUST_PROXY: '10.0.0.1,' }, /COUP_TRUST_PROXY/],
    [{ COUP_JSON_MAX_DEPTH: '1' }, /COUP_JSON_MAX_DEPTH/],
    [{ COUP_JSON_MAX_DEPTH: '257' }, /COUP_JSON_MAX_DEPTH/],
    [{ COUP_REQUEST_TIMEOUT_MS: '99' }, /COUP_REQUEST_TIMEOUT_MS/],
    [{ COUP_REQUEST_TIMEOUT_MS: 'soon' }, /COUP_REQUEST_TIMEOUT_MS/],
    [
      { COUP_HEADERS_TIMEOUT_MS: '40000' },
      /COUP_HEADERS_TIMEOUT_MS .* must not exceed COUP_REQUEST_TIMEOUT_MS/,
    ],
    [{ COUP_MAX_CONNECTIONS_PER_IP: '-1' }, /COUP_MAX_CONNECTIONS_PER_IP/],
    [{ COUP_RATE_LIMIT_PER_MINUTE: '1.5' }, /COUP_RATE_LIMIT_PER_MINUTE/],
    [{ COUP_RATE_LIMIT_PER_IP_PER_MINUTE: 'lots' }, /COUP_RATE_LIMIT_PER_IP_PER_MINUTE/],
    [{ COUP_AUTH_FAILURES_PER_MINUTE: '1e3' }, /COUP_AUTH_FAILURES_PER_MINUTE/],
    [{ COUP_METRICS_TOKEN: 'short' }, /COUP_METRICS_TOKEN/],
    [{ COUP_METRICS_TOKEN: 'has spaces in the token' }, /COUP_METRICS_TOKEN/],
    [{ COUP_METRICS_PORT: '70000' }, /COUP_METRICS_PORT/],
    [{ COUP_FOLLOW_RETRY_MS: '9' }, /COUP_FOLLOW_RETRY_MS/],
    [{ COUP_FOLLOW_RETRY_MS: 'soon' }, /COUP_FOLLOW_RETRY_MS/],
    [{ COUP_FOLLOW_RETRY_MAX_MS: '600001' }, /COUP_FOLLOW_RETRY_MAX_MS/],
    [
      { COUP_FOLLOW_RETRY_MS: '1000', COUP_FOLLOW_RETRY_MAX_MS: '500' },
      /COUP_FOLLOW_RETRY_MAX_MS .* from 1000/,
    ],
    [{ COUP_GAMING_DAY: '6am London' }, /COUP_GAMING_DAY: the gaming day must be a cut-over time/],
    [{ COUP_GAMING_DAY: '06:00 Europe/Londres' }, /COUP_GAMING_DAY: unknown time zone 'Europe\/Londres'/],
    [{ COUP_SHIFTS: 'day' }, /COUP_SHIFTS: shifts must be name=HH:MM/],
    [{ COUP_SHIFTS: 'day=06:00,night=06:00' }, /COUP_SHIFTS: .* repeats/],
    [{ COUP_ANOMALY_Z: '0' }, /COUP_ANOMALY_Z/],
    [{ COUP_ANOMALY_Z: 'three' }, /COUP_ANOMALY_Z/],
    [{ COUP_ANOMALY_Z: '101' }, /COUP_ANOMALY_Z/],
  ])('%p is refused naming the variable', (env, message) => {
    expect(() => loadConfig({ ...KEY, COUP_DATA_DIR: dir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...KEY, COUP_DATA_DIR: dir(), ...env })).toThrow(message);
  });
  it('the gaming day: 06:00 UTC, shifts day, swing and grave, anomalies past z = 3, unless told', () => {
    expect(loadConfig({ ...KEY, COUP_DATA_DIR: dir() }).analytics).toEqual({
      gamingDay: {
        cutover: '06:00',
        timeZone: 'UTC',
        shifts: [
          { name: 'day', start: '06:00' },
          { name: 'swing', start: '14:00' },
          { name: 'grave', start: '22:00' },
        ],
      },
      anomalyZ: 3,
    });
    const env = {
      COUP_GAMING_DAY: '06:00 Europe/London',
      COUP_SHIFTS: 'late=18:00,early=06:00',
      COUP_ANOMALY_Z: '2.5',
    };
    expect(loadConfig({ ...KEY, COUP_DATA_DIR: dir(), ...env }).analytics).toEqual({
      gamingDay: {
        cutover: '06:00',
        timeZone: 'Europe/London',
        shifts: [
          { name: 'early', start: '06:00' },
          { name: 'late', start: '18:00' },
        ],
      },
      anomalyZ: 2.5,
    });
  });
  it('a follower of the log retries after 200 ms, doubling up to 5 s, unless told (the cap follows a longer first wait)', () => {
    expect(loadConfig({ ...KEY, COUP_DATA_DIR: dir() })).toMatchObject({
      followRetryMs: 200,
      followRetryMaxMs: 5_000,
    });
    expect(
      loadConfig({
        ...KEY,
        COUP_DATA_DIR: dir(),
        COUP_FOLLOW_RETRY_MS: '50',
        COUP_FOLLOW_RETRY_MAX_MS: '60000',
      }),
    ).toMatchObject({ followRetryMs: 50, followRetryMaxMs: 60_000 });
    expect(loadConfig({ ...KEY, COUP_DATA_DIR: dir(), COUP_FOLLOW_RETRY_MS: '10000' })).toMatchObject({
      followRetryMs: 10_000,
      followRetryMaxMs: 10_000,
    });
  });
  it('keeps keys 7 days and at most 10,000 tables in memory, idle ones 10 minutes, unless told', () => {
    expect(loadConfig({ ...KEY, COUP_DATA_DIR: dir() })).toMatchObject({
      idempotencyDays: 7,
      tableSessionsMax: 10_000,
      tableSessionIdleMs: 600_000,
    });
    expect(
      loadConfig({
        ...KEY,
        COUP_DATA_DIR: dir(),
        COUP_IDEMPOTENCY_DAYS: '30',
        COUP_TABLE_SESSIONS_MAX: '50',
        COUP_TABLE_SESSION_IDLE_MS: '1000',
      }),
    ).toMatchObject({ idempotencyDays: 30, tableSessionsMax: 50, tableSessionIdleMs: 1000 });
  });
  it('takes the token clock skew in seconds, 0 included', () => {
    expect(
      loadConfig({ ...KEY, COUP_DATA_DIR: dir(), COUP_TOKEN_CLOCK_SKEW_S: '0' }).tokenClockSkewSeconds,
    ).toBe(0);
    expect(
      loadConfig({ ...KEY, COUP_DATA_DIR: dir(), COUP_TOKEN_CLOCK_SKEW_S: '300' }).tokenClockSkewSeconds,
    ).toBe(300);
  });
  it('reads the read models from the data folder, another SQLite file, or PostgreSQL (COUP_READ_MODELS)', () => {
    const d = dir();
    expect(loadConfig({ ...KEY, COUP_DATA_DIR: d }).readModels).toEqual({
      kind: 'sqlite',
      file: join(d, 'read-models.sqlite'),
    });
    expect(
      loadConfig({ ...KEY, COUP_DATA_DIR: d, COUP_READ_MODELS: 'rm/x.sqlite' }, '/srv').readModels,
    ).toEqual({
      kind: 'sqlite',
      file: '/srv/rm/x.sqlite',
    });
    for (const url of ['postgres://coup:pw@db:5432/coup', 'postgresql://db/coup?sslmode=require']) {
      for (const folding of ['off', 'worker', 'in-process']) {
        const env = { ...KEY, COUP_DATA_DIR: d, COUP_READ_MODELS: url, COUP_PROJECTIONS: folding };
        expect(loadConfig(env).readModels).toEqual({ kind: 'postgres', url, timeoutMs: 10_000 });
      }
    }
    const env = { ...KEY, COUP_DATA_DIR: d, COUP_READ_MODELS: 'postgres://db/coup' };
    expect(loadConfig({ ...env, COUP_READ_MODELS_TIMEOUT_MS: '250' }).readModels).toMatchObject({
      timeoutMs: 250,
    });
    expect(() => loadConfig({ ...env, COUP_READ_MODELS_TIMEOUT_MS: '50' })).toThrow(
      /COUP_READ_MODELS_TIMEOUT_MS/,
    );
  });
  it.each([
    [{ COUP_READ_MODELS: 'postgres://', COUP_PROJECTIONS: 'off' }, /COUP_READ_MODELS is not a valid URL/],
    [{ COUP_READ_MODELS: 'mysql://db/coup' }, /COUP_READ_MODELS must be a SQLite file path or a postgres/],
  ])('COUP_READ_MODELS %p is refused, naming it and never the password', (env, message) => {
    const load = () => loadConfig({ ...KEY, COUP_DATA_DIR: dir(), ...env });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
    expect(load).not.toThrow(/secret/);
  });
  it.each(['inline', 'adaptive'] as const)('runs SQLite group commits %s when asked', (writer) => {
    const d = dir();
    expect(loadConfig({ ...KEY, COUP_DATA_DIR: d, COUP_SQLITE_WRITER: writer }).eventStore).toEqual({
      kind: 'sqlite',
      file: join(d, 'events.sqlite'),
      writer,
    });
  });
  it('accepts EventStoreDB with a connection string', () => {
    const c = loadConfig({
      ...KEY,
      COUP_DATA_DIR: dir(),
      COUP_EVENT_STORE: 'eventstoredb',
      EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
    });
    expect(c.eventStore).toEqual({
      kind: 'eventstoredb',
      connectionString: 'esdb://localhost:2113?tls=false',
    });
  });
});

describe('structured logs', () => {
  it('writes one JSON object per line with the fields given, the correlation id among them', () => {
    const lines: string[] = [];
    const log = new JsonLogger('info', (l) => lines.push(l));
    log.log({ msg: 'bet placed', tableId: 'T1', correlationId: 'corr-1' }, 'tables');
    log.debug('hidden below info');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'info',
      context: 'tables',
      correlationId: 'corr-1',
      msg: 'bet placed',
      tableId: 'T1',
    });
  });
});

describe('live push limits', () => {
  it('defaults: 4 kB frames, 20 sockets per subject, resumes of up to 2,000 events, 20 messages a second', () => {
    expect(loadConfig({ ...KEY, COUP_DATA_DIR: dir() })).toMatchObject({
      wsMaxFrameBytes: 4096,
      wsMaxSocketsPerPrincipal: 20,
      wsMaxResumeEvents: 2000,
      wsMessagesPerSecond: 20,
      wsCoalesceMs: 250,
      wsMaxBufferedBytes: 1024 * 1024,
    });
    expect(
      loadConfig({
        ...KEY,
        COUP_DATA_DIR: dir(),
        COUP_WS_MAX_FRAME_BYTES: '256',
        COUP_WS_MAX_SOCKETS_PER_PRINCIPAL: '1',
        COUP_WS_MAX_RESUME_EVENTS: '0',
        COUP_WS_MESSAGES_PER_SECOND: '10000',
        COUP_WS_COALESCE_MS: '10',
        COUP_WS_MAX_BUFFERED_BYTES: '65536',
      }),
    ).toMatchObject({
      wsMaxFrameBytes: 256,
      wsMaxSocketsPerPrincipal: 1,
      wsMaxResumeEvents: 0,
      wsMessagesPerSecond: 10_000,
      wsCoalesceMs: 10,
      wsMaxBufferedBytes: 65_536,
    });
  });
  it.each([
    ['COUP_WS_MAX_FRAME_BYTES', '255'],
    ['COUP_WS_MAX_FRAME_BYTES', '1048577'],
    ['COUP_WS_MAX_FRAME_BYTES', '4k'],
    ['COUP_WS_MAX_SOCKETS_PER_PRINCIPAL', '0'],
    ['COUP_WS_MAX_SOCKETS_PER_PRINCIPAL', '-1'],
    ['COUP_WS_MAX_RESUME_EVENTS', '100001'],
    ['COUP_WS_MAX_RESUME_EVENTS', '1.5'],
    ['COUP_WS_MESSAGES_PER_SECOND', '0'],
    ['COUP_WS_MESSAGES_PER_SECOND', '10001'],
    ['COUP_WS_COALESCE_MS', '9'],
    ['COUP_WS_COALESCE_MS', '10001'],
    ['COUP_WS_MAX_BUFFERED_BYTES', '65535'],
    ['COUP_WS_MAX_BUFFERED_BYTES', '1mb'],
  ])('%s=%s is refused naming the variable', (name, value) => {
    expect(() => loadConfig({ ...KEY, COUP_DATA_DIR: dir(), [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...KEY, COUP_DATA_DIR: dir(), [name]: value })).toThrow(name);
  });
});

describe('the HTTP edge', () => {
  it('defaults: bound to 127.0.0.1, no proxy trusted, limits for a real floor, metrics on the API port', () => {
    const c = loadConfig({ ...KEY, COUP_DATA_DIR: dir() });
    expect(c.host).toBe('127.0.0.1');
    expect(c.http).toEqual({
      jsonMaxDepth: 32,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      maxConnectionsPerIp: 512,
      commandsPerMinute: 600,
      commandsPerMinutePerIp: 6_000,
      authFailuresPerMinute: 30,
      trustProxy: false,
      metricsToken: null,
      metricsPort: null,
    });
  });
  it('takes each limit from its variable, 0 turning a limit off', () => {
    const c = loadConfig({
      ...KEY,
      COUP_DATA_DIR: dir(),
      HOST: '0.0.0.0',
      COUP_JSON_MAX_DEPTH: '8',
      COUP_REQUEST_TIMEOUT_MS: '5000',
      COUP_HEADERS_TIMEOUT_MS: '5000',
      COUP_MAX_CONNECTIONS_PER_IP: '0',
      COUP_RATE_LIMIT_PER_MINUTE: '0',
      COUP_RATE_LIMIT_PER_IP_PER_MINUTE: '100',
      COUP_AUTH_FAILURES_PER_MINUTE: '5',
      COUP_METRICS_TOKEN: 'a-metrics-token-of-24-ch',
      COUP_METRICS_PORT: '9100',
    });
    expect(c.host).toBe('0.0.0.0');
    expect(c.http).toEqual({
      jsonMaxDepth: 8,
      requestTimeoutMs: 5000,
      headersTimeoutMs: 5000,
      maxConnectionsPerIp: 0,
      commandsPerMinute: 0,
      commandsPerMinutePerIp: 100,
      authFailuresPerMinute: 5,
      trustProxy: false,
      metricsToken: 'a-metrics-token-of-24-ch',
      metricsPort: 9100,
    });
    // A short request timeout shortens the default headers timeout with it.
    expect(
      loadConfig({ ...KEY, COUP_DATA_DIR: dir(), COUP_REQUEST_TIMEOUT_MS: '2000' }).http.headersTimeoutMs,
    ).toBe(2000);
  });
  it.each([
    ['false', false],
    ['true', true],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.1, 10.1.0.0/16,fd00::/8', ['10.0.0.1', '10.1.0.0/16', 'fd00::/8']],
  ])('COUP_TRUST_PROXY=%p is %p', (value, expected) => {
    expect(loadConfig({ ...KEY, COUP_DATA_DIR: dir(), COUP_TRUST_PROXY: value }).http.trustProxy).toEqual(
      expected,
    );
  });
});

describe('secrets at rest', () => {
  const mode = (path: string) => statSync(path).mode & 0o777;
  const seal = (keys: ReturnType<typeof loadConfig>['seedKeys']) =>
    new FieldSealer(keys, { S: [['seed']] }).seal({ id: 'e1', type: 'S', data: { seed: 'x' } });

  it('the data folder is made 0700, and files in it that others could read 0600', () => {
    const d = join(dir(), 'data');
    mkdirSync(d, { mode: 0o755 });
    chmodSync(d, 0o755);
    writeFileSync(join(d, 'events.sqlite-wal'), '');
    chmodSync(join(d, 'events.sqlite-wal'), 0o644);
    const c = loadConfig({ ...KEY, COUP_DATA_DIR: d });
    expect(mode(d)).toBe(0o700);
    expect(mode(join(d, 'events.sqlite-wal'))).toBe(0o600);
    expect(mode(join(d, 'jwt-secret.local'))).toBe(0o600);
    expect(c.jwtSecretGenerated).toBe(true);
    // a new folder, however deep
    const deep = join(dir(), 'a', 'b');
    loadConfig({ ...KEY, COUP_DATA_DIR: deep });
    expect(mode(deep)).toBe(0o700);
  });

  it('the seed key is required with a store that outlives the process, and never quoted', () => {
    expect(() => loadConfig({ COUP_DATA_DIR: dir() })).toThrow(
      /COUP_SEED_KEY or COUP_SEED_KEY_FILE is required/,
    );
    expect(() =>
      loadConfig({
        COUP_DATA_DIR: dir(),
        COUP_EVENT_STORE: 'eventstoredb',
        EVENTSTORE_CONNECTION_STRING: 'esdb://localhost:2113?tls=false',
      }),
    ).toThrow(/COUP_SEED_KEY/);
    // the memory store keeps nothing: a key of its own
    expect(seal(loadConfig({ COUP_DATA_DIR: dir(), COUP_EVENT_STORE: 'memory' }).seedKeys).data).not.toEqual({
      seed: 'x',
    });
    const bad = 'ab'.repeat(31);
    expect(() => loadConfig({ COUP_DATA_DIR: dir(), COUP_SEED_KEY: bad })).toThrow(
      /^COUP_SEED_KEY: key 1 is not/,
    );
    try {
      loadConfig({ COUP_DATA_DIR: dir(), COUP_SEED_KEY: bad });
    } catch (error) {
      expect((error as Error).message).not.toContain(bad);
    }
  });

  it('reads the key as hex or base64, or several (the first seals): the same key seals the same', () => {
    const hex = '5e'.repeat(32);
    const base64 = Buffer.from(hex, 'hex').toString('base64');
    const a = loadConfig({ COUP_DATA_DIR: dir(), COUP_SEED_KEY: hex }).seedKeys;
    const b = loadConfig({ COUP_DATA_DIR: dir(), COUP_SEED_KEY: base64 }).seedKeys;
    expect(a.ids).toEqual(b.ids);
    expect(seal(a)).toEqual(seal(b));
    const rotated = loadConfig({ COUP_DATA_DIR: dir(), COUP_SEED_KEY: `${'11'.repeat(32)},${hex}` }).seedKeys;
    expect(rotated.ids).toHaveLength(2);
    expect(rotated.ids[1]).toBe(a.ids[0]);
  });

  it('reads the key from COUP_SEED_KEY_FILE, which must be outside the data folder', () => {
    const outside = join(dir(), 'seed.key');
    writeFileSync(outside, '# coup seed key\n' + '5e'.repeat(32) + '\n', { mode: 0o600 });
    const d = dir();
    expect(loadConfig({ COUP_DATA_DIR: d, COUP_SEED_KEY_FILE: outside }).seedKeys.ids).toEqual(
      loadConfig({ ...KEY, COUP_DATA_DIR: d }).seedKeys.ids,
    );
    const inside = join(d, 'seed.key');
    writeFileSync(inside, '5e'.repeat(32));
    expect(() => loadConfig({ COUP_DATA_DIR: d, COUP_SEED_KEY_FILE: inside })).toThrow(
      /COUP_SEED_KEY_FILE .* must be outside the data folder/,
    );
    expect(() =>
      loadConfig({ COUP_DATA_DIR: d, COUP_SEED_KEY_FILE: join(d, 'sub', '..', 'seed.key') }),
    ).toThrow(/outside the data folder/);
    expect(() => loadConfig({ COUP_DATA_DIR: dir(), COUP_SEED_KEY_FILE: join(dir(), 'missing') })).toThrow(
      /COUP_SEED_KEY_FILE .* cannot be read/,
    );
    const empty = join(dir(), 'empty.key');
    writeFileSync(empty, '\n');
    expect(() => loadConfig({ COUP_DATA_DIR: dir(), COUP_SEED_KEY_FILE: empty })).toThrow(
      /COUP_SEED_KEY_FILE/,
    );
    expect(() => loadConfig({ ...KEY, COUP_DATA_DIR: dir(), COUP_SEED_KEY_FILE: outside })).toThrow(
      /not both/,
    );
  });

  it('checks the seed key after every other variable, so a bad value elsewhere is named first', () => {
    expect(() => loadConfig({ COUP_DATA_DIR: dir(), PORT: 'eighty' })).toThrow(/PORT/);
  });
});
