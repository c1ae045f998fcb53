/**
 * `coup projections run`: the projection process. It folds the event log into the read models named by
 * COUP_READ_MODELS (a SQLite file or a PostgreSQL database) as a process of its own, so service instances run with
 * COUP_PROJECTIONS=off and answer from the shared read models. It follows the log live through the projection
 * runner (resubscribing with backoff after a drop, each batch committed with its checkpoints in one transaction),
 * or with `--once` catches up to the head and exits. SIGTERM or SIGINT commits the batch in progress and closes.
 */
import { createServer, type Server } from 'node:http';
import { ProjectionRunner, type RunnerLogger } from '@coup/projections';
import { EXIT, type CliIo } from '../io';
import {
  type OwnRunner,
  type ReadSide,
  closingAfter,
  openReadSide,
  projectionsFromEnv,
  runnerOver,
} from './read-side';

export interface RunOptions {
  /** Catch up to the head, then exit. */
  readonly once: boolean;
  /** Most events per transaction. */
  readonly maxBatch: number;
  /** Live, at most one commit per this many ms. */
  readonly commitMs: number;
  /** Seconds between progress lines (0: none). */
  readonly progressEvery: number;
  /** A loopback port answering GET /health with the runner's status (for a container's health check). */
  readonly healthPort: number | undefined;
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** A JSON log line per message on stdout, as the service logs. */
function jsonLog(io: CliIo): RunnerLogger {
  const line = (level: string, msg: Record<string, unknown>) =>
    io.stdout.write(
      `${JSON.stringify({ time: new Date().toISOString(), level, context: 'projections', ...msg })}\n`,
    );
  return {
    info: (msg) => line('info', msg),
    warn: (msg) => line('warn', msg),
    error: (msg) => line('error', msg),
  };
}

/** Resolves with the first stop signal; `dispose` removes the handlers (a second signal then ends the process). */
function stopSignal(): { signal: Promise<NodeJS.Signals>; dispose(): void } {
  let handler: (s: NodeJS.Signals) => void = () => undefined;
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    handler = (s) => {
      for (const each of STOP_SIGNALS) process.removeListener(each, handler);
      resolve(s);
    };
  });
  for (const each of STOP_SIGNALS) process.on(each, handler);
  return { signal, dispose: () => STOP_SIGNALS.forEach((s) => process.removeListener(s, handler)) };
}

/** A runner over storage opened for it (a constructor that throws leaves none open), and how to close both. */
async function newRunner(side: ReadSide, options: RunOptions, log: RunnerLogger): Promise<OwnRunner> {
  return runnerOver(side, {
    projections: projectionsFromEnv('projections'),
    maxBatch: options.maxBatch,
    catchUpPage: options.maxBatch,
    minCommitIntervalMs: options.commitMs,
    logger: log,
  });
}

/**
 * A runner whose storage is ready (its tables made, its checkpoints read). A database that does not answer yet (a
 * container starting beside it) is tried again with backoff, 200 ms doubling to 10 s, until `stopped` resolves.
 */
async function readyRunner(
  side: ReadSide,
  options: RunOptions,
  log: RunnerLogger,
  stopped: Promise<unknown>,
): Promise<OwnRunner | null> {
  let wait = 200;
  let stop = false;
  void stopped.then(() => (stop = true));
  for (;;) {
    const owned = await newRunner(side, options, log);
    try {
      await owned.runner.ready();
      return owned;
    } catch (error) {
      await owned.close().catch(() => undefined);
      log.error({ msg: 'read models not reachable: trying again', error: String(error), retryMs: wait });
    }
    await Promise.race([new Promise((r) => setTimeout(r, wait)), stopped]);
    if (stop) return null;
    wait = Math.min(wait * 2, 10_000);
  }
}

/** GET /health on 127.0.0.1:port: 200 with the runner's status while it folds without error, else 503. */
function healthServer(port: number, runner: ProjectionRunner, log: RunnerLogger): Server {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/health') {
      res.writeHead(404).end();
      return;
    }
    runner.status().then(
      (status) => {
        const up = status.running && status.lastError === null;
        res.writeHead(up ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: up ? 'up' : 'down', ...status }));
      },
      (error: unknown) => {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'down', error: String(error) }));
      },
    );
  });
  server.on('error', (error) => log.error({ msg: 'health port failed', error: String(error) }));
  server.listen(port, '127.0.0.1');
  return server;
}

/** A progress line every `seconds` while the checkpoint moves: where it is and how far it went. */
function progressLog(runner: ProjectionRunner, seconds: number, log: RunnerLogger): () => void {
  if (seconds <= 0) return () => undefined;
  let last = runner.engine.minCheckpoint();
  const timer = setInterval(() => {
    const position = runner.engine.minCheckpoint();
    if (position === last) return;
    log.info({ msg: 'progress', position, advanced: position - last, seconds });
    last = position;
  }, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}

async function once(side: ReadSide, options: RunOptions, log: RunnerLogger): Promise<number> {
  const { runner, close } = await newRunner(side, options, log);
  return closingAfter(async () => {
    const started = performance.now();
    const result = await runner.catchUp();
    const seconds = (performance.now() - started) / 1000;
    log.info({ msg: 'caught up', events: result.events, position: result.position, seconds });
    return EXIT.ok;
  }, close);
}

async function follow(side: ReadSide, options: RunOptions, log: RunnerLogger): Promise<number> {
  const stop = stopSignal();
  try {
    const owned = await readyRunner(side, options, log, stop.signal);
    if (owned === null) return EXIT.ok;
    const { runner } = owned;
    runner.start();
    log.info({
      msg: 'following the log',
      readModels: runner.storage.location,
      store: side.kind,
      from: runner.engine.minCheckpoint(),
    });
    const stopProgress = progressLog(runner, options.progressEvery, log);
    const health = options.healthPort === undefined ? null : healthServer(options.healthPort, runner, log);
    const signal = await stop.signal;
    log.info({ msg: 'stopping: committing the batch in progress', signal });
    stopProgress();
    health?.close();
    await owned.close();
    log.info({ msg: 'stopped', position: runner.engine.minCheckpoint() });
    return EXIT.ok;
  } finally {
    stop.dispose();
  }
}

/** Runs the projection process until a stop signal (or, with `once`, until caught up). */
export async function runProjections(options: RunOptions, io: CliIo): Promise<number> {
  const side = openReadSide('projections');
  const log = jsonLog(io);
  return closingAfter(
    () => (options.once ? once(side, options, log) : follow(side, options, log)),
    () => side.close(),
  );
}
