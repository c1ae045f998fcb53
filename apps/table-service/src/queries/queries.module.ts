import {
  Inject,
  Injectable,
  Logger,
  Module,
  Optional,
  type DynamicModule,
  type OnModuleDestroy,
  type OnModuleInit,
  type Provider,
} from '@nestjs/common';
import type { Registry } from 'prom-client';
import type { EventStore } from '@coup/event-store';
import {
  type AnyProjection,
  ProjectionRunner,
  ReadModels,
  type RunnerLogger,
  gamingDayConfig,
  isPostgresUrl,
  projectionsFor,
  sqliteHeadPosition,
  sqliteRawReader,
} from '@coup/projections';
import { ApiReadsReadModels } from '../ops/openapi-errors';
import { AnalyticsController } from './analytics.controller';
import { ANALYTICS, type AnalyticsOptions } from './analytics.params';
import { EdgeController } from './edge.controller';
import { ExportsController } from './exports.controller';
import { HandsController } from './hands.controller';
import { registerProjectionMetrics } from './metrics';
import { type FoldedBy, ProjectionsStatus } from './projections-status';
import { guardedReader, postgresReadModels } from './read-models-provider';
import { ReportsController } from './reports.controller';
import { QUERIES_STORE, QueriesStore } from './shared';

export interface QueriesModuleOptions {
  /** The event store (projections follow its $all; replay/verify read hands from it). */
  readonly store: EventStore;
  /**
   * Where the read models are: a SQLite file (e.g. `<COUP_DATA_DIR>/read-models.sqlite`) or a `postgres://` URL.
   * The queries read them there, and a runner in this thread folds into them.
   */
  readonly readModels: string;
  /**
   * Who folds the log into the read models: a runner in this thread (the default), the service's worker thread,
   * or another process (COUP_PROJECTIONS=off).
   */
  readonly foldedBy?: FoldedBy;
  /** PostgreSQL: a query not answered within this many ms is answered 503 READ_MODELS_UNAVAILABLE (default 10 s). */
  readonly readModelsTimeoutMs?: number;
  /**
   * With the SQLite store: its file. Then the lag reads the store's last position directly, and verify checks
   * the stored bytes of each event (see `sqliteRawReader`). Omit for other stores.
   */
  readonly sqliteEventsFile?: string;
  /** The store's last position, for the lag; default: from `sqliteEventsFile`, else read forward. */
  readonly headPosition?: () => Promise<bigint | null>;
  /** Registers `coup_projection_lag_events` and `coup_projection_checkpoint` gauges here. */
  readonly metricsRegistry?: Registry;
  /** Most events per read-model transaction (default 2000). */
  readonly maxBatch?: number;
  /** Live, at most one read-model commit per this many ms (ProjectionRunnerOptions.minCommitIntervalMs). */
  readonly minCommitIntervalMs?: number;
  /** The gaming day the analysts' model is folded with, the anomaly threshold (default 06:00 UTC, z 3). */
  readonly analytics?: AnalyticsOptions;
}

const OPTIONS = Symbol('QUERIES_OPTIONS');

/**
 * Starts the projection runner with the module and stops it (committing its batch) before the store closes; closes
 * the queries' connection (a PostgreSQL pool) with it.
 */
@Injectable()
class ProjectionsLifecycle implements OnModuleInit, OnModuleDestroy {
  constructor(
    @Optional() @Inject(ProjectionRunner) private readonly runner: ProjectionRunner | null,
    @Inject(ReadModels) private readonly read: ReadModels,
    @Inject(OPTIONS) private readonly options: QueriesModuleOptions,
  ) {}

  onModuleInit(): void {
    if ((this.options.foldedBy ?? 'this thread') === 'this thread') this.runner?.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.read.close();
    await this.runner?.close();
  }
}

function nestLogger(): RunnerLogger {
  const log = new Logger('projections');
  return {
    info: (msg) => log.log(msg),
    warn: (msg) => log.warn(msg),
    error: (msg) => log.error(msg),
  };
}

/**
 * The read side: the projection runner (following the store in this process) and the analyst/compliance
 * queries (`/api/tables/:tableId/hands...`, `/roads`, `/api/stats`, `/api/players/:playerId/ledger`,
 * `/api/projections`). Guards and the error filter are the app's (APP_GUARD, APP_FILTER).
 */
/** Every route of the read side reads the read models: each may answer READ_MODELS_UNAVAILABLE (PostgreSQL). */
const CONTROLLERS = [
  HandsController,
  ReportsController,
  EdgeController,
  AnalyticsController,
  ExportsController,
];
for (const controller of CONTROLLERS) ApiReadsReadModels()(controller);

@Module({})
export class QueriesModule {
  static register(options: QueriesModuleOptions): DynamicModule {
    const analytics = options.analytics ?? { gamingDay: gamingDayConfig(), anomalyZ: 3 };
    const projections = projectionsFor(analytics.gamingDay);
    const foldedBy = options.foldedBy ?? 'this thread';
    const headPosition =
      options.headPosition ??
      (options.sqliteEventsFile ? sqliteHeadPosition(options.sqliteEventsFile) : undefined);
    // A runner in this thread folds the read models; over a SQLite file one is also made when another folds them,
    // not started: it creates the file's tables at once, and the queries read on its connection.
    const runner: Provider[] =
      foldedBy === 'this thread' || !isPostgresUrl(options.readModels)
        ? [{ provide: ProjectionRunner, useFactory: () => newRunner(options, projections, headPosition) }]
        : [];
    return {
      module: QueriesModule,
      controllers: CONTROLLERS,
      providers: [
        { provide: OPTIONS, useValue: options },
        { provide: ANALYTICS, useValue: analytics },
        {
          provide: QUERIES_STORE,
          useValue: new QueriesStore(
            options.store,
            options.sqliteEventsFile ? sqliteRawReader(options.sqliteEventsFile) : undefined,
          ),
        },
        ...runner,
        {
          provide: ReadModels,
          inject: [{ token: ProjectionRunner, optional: true }],
          useFactory: (runner: ProjectionRunner | undefined) => readModelsOf(options, runner),
        },
        {
          provide: ProjectionsStatus,
          inject: [ReadModels, { token: ProjectionRunner, optional: true }],
          useFactory: (read: ReadModels, runner: ProjectionRunner | undefined) => {
            const status = new ProjectionsStatus({
              runner: foldedBy === 'this thread' ? (runner ?? null) : null,
              reader: read.sql,
              store: options.store,
              projections,
              foldedBy,
              ...(headPosition ? { headPosition } : {}),
            });
            if (options.metricsRegistry) registerProjectionMetrics(status, options.metricsRegistry);
            return status;
          },
        },
        ProjectionsLifecycle,
      ],
      exports: [...(runner.length > 0 ? [ProjectionRunner] : []), ReadModels, ProjectionsStatus],
    };
  }
}

function newRunner(
  options: QueriesModuleOptions,
  projections: readonly AnyProjection[],
  headPosition: (() => Promise<bigint | null>) | undefined,
): ProjectionRunner {
  return new ProjectionRunner({
    store: options.store,
    readModels: options.readModels,
    projections,
    ...(headPosition ? { headPosition } : {}),
    maxBatch: options.maxBatch,
    minCommitIntervalMs: options.minCommitIntervalMs,
    logger: nestLogger(),
  });
}

/** The queries' read models: on the runner's SQLite connection, or PostgreSQL through a pool of their own. */
function readModelsOf(
  options: QueriesModuleOptions,
  runner: ProjectionRunner | undefined,
): Promise<ReadModels> | ReadModels {
  if (!isPostgresUrl(options.readModels)) {
    if (runner === undefined) throw new Error('SQLite read models are read on the runner connection');
    // a table missing from the file (dropped by hand) is 503, as in PostgreSQL
    return new ReadModels(guardedReader(ReadModels.sqlite(runner.db).sql));
  }
  const log = new Logger('read-models');
  return postgresReadModels(options.readModels, options.readModelsTimeoutMs ?? 10_000, {
    onPoolError: (error) => log.warn({ msg: 'read-model connection lost', error: error.message }),
  });
}
