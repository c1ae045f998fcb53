import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Buckets (seconds) of the live push's latencies: fine below 100 ms, where its aims are. */
const LIVE_BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5];

/** Prometheus metrics: commands by type and outcome, their latency, and events appended. */
export class Metrics {
  readonly registry = new Registry();
  readonly commands = new Counter({
    name: 'coup_commands_total',
    help: 'Table commands handled, by type and outcome (ok or the error code)',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly commandSeconds = new Histogram({
    name: 'coup_command_duration_seconds',
    help: 'Time from a command entering the table queue to its answer',
    labelNames: ['type'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly eventsAppended = new Counter({
    name: 'coup_events_appended_total',
    help: 'Events appended to the event store',
    registers: [this.registry],
  });
  readonly appendBatch = new Histogram({
    name: 'coup_append_batch_commands',
    help: 'Commands decided together into one append',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [this.registry],
  });
  readonly conflicts = new Counter({
    name: 'coup_append_conflicts_total',
    help: 'Appends refused because another writer moved the stream first (retried)',
    registers: [this.registry],
  });
  readonly snapshotsDiscarded = new Counter({
    name: 'coup_snapshots_discarded_total',
    help: 'Table snapshots not used on load because they did not match their stream (logged)',
    registers: [this.registry],
  });
  readonly tablesLoaded = new Gauge({
    name: 'coup_tables_loaded',
    help: 'Tables held in memory',
    registers: [this.registry],
  });
  readonly authFailures = new Counter({
    name: 'coup_auth_failures_total',
    help: 'Requests with a missing or bad token, by transport and outcome (refused: 401; limited: 429, too many from the address)',
    labelNames: ['transport', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'coup_rate_limited_total',
    help: 'Commands refused with 429, by the limit they hit (principal or ip)',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });
  readonly connectionsRefused = new Counter({
    name: 'coup_connections_refused_total',
    help: 'Connections closed at once: their client address already held COUP_MAX_CONNECTIONS_PER_IP',
    registers: [this.registry],
  });
  readonly clientErrors = new Counter({
    name: 'coup_http_client_errors_total',
    help: 'Requests the HTTP server answered before the app saw them: timeout (408), header_overflow (431), malformed (400)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  /** The live push's own share of its latency (live.send.ts): a client's figures add the network and the client. */
  readonly liveAckSeconds = new Histogram({
    name: 'coup_live_ack_seconds',
    help: 'A command sent over a live socket: its message read -> its ack written to the socket',
    buckets: LIVE_BUCKETS,
    registers: [this.registry],
  });
  readonly liveFrameSeconds = new Histogram({
    name: 'coup_live_frame_seconds',
    help: "A table's event: its append (recordedAt) -> its frame written to every socket of the audience (every: staff taking every event, bets included; all: a table event to every watcher)",
    labelNames: ['audience'] as const,
    buckets: LIVE_BUCKETS,
    registers: [this.registry],
  });
  readonly storeCommitSeconds = new Histogram({
    name: 'coup_store_commit_seconds',
    help: "The SQLite store's group commits: start -> answer (the writer thread's message each way, the insert, the fsync)",
    buckets: [0.00025, 0.0005, ...LIVE_BUCKETS],
    registers: [this.registry],
  });
  readonly storeWriterThreadLost = new Gauge({
    name: 'coup_store_writer_thread_lost',
    help: "1 once the SQLite store's writer thread died or could not open the file: its commits run on the request thread since (health: a warning; restart when it suits)",
    registers: [this.registry],
  });
  readonly unexpectedErrors = new Counter({
    name: 'coup_unexpected_errors_total',
    help: 'Errors no code expected, each logged with its context: request (answered 500), unhandled_rejection, uncaught_exception',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  constructor(defaults = true) {
    if (defaults) collectDefaultMetrics({ register: this.registry, prefix: 'coup_' });
  }
}
