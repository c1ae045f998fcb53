import {
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { Registry } from 'prom-client';
import type { EventStore } from '@coup/event-store';
import {
  ProjectionRunner,
  ReadModels,
  type RunnerLogger,
  gamingDayConfig,
  projectionsFor,
  sqliteHeadPosition,
  sqliteRawReader,
} from '@coup/projections';
import { AnalyticsController } from './analytics.controller';
import { ANALYTICS, type AnalyticsOptions } from './analytics.params';
import { EdgeController } from './edge.controller';
import { ExportsController } from './exports.controller';
import { HandsController } from './hands.controller';
import { registerProjectionMetrics } from './metrics';
import { ReportsController } from './reports.controller';
import { QUERIES_STORE, QueriesStore } from './shared';

export interface QueriesModuleOptions {
  /** The event store (projections follow its $all; replay/verify read hands from it). */
  readonly store: EventStore;
  /** The read-model SQLite file the runner folds into, e.g. `<COUP_DATA_DIR>/read-models.sqlite`. */
  readonly readModelFile: string;
  /**
   * Where the queries read: a `postgres://` URL (read models another process keeps), or omitted: the runner's
   * SQLite file, on its connection.
   */
  readonly readFrom?: string;
  /** Run the projection runner in this process (default true). */
  readonly follow?: boolean;
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
    @Inject(ProjectionRunner) private readonly runner: ProjectionRunner,
    @Inject(ReadModels) private readonly read: ReadModels,
    @Inject(OPTIONS) private readonly options: QueriesModuleOptions,
  ) {}

  onModuleInit(): void {
    if (this.options.follow ?? true) this.runner.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.read.close();
    await this.runner.close();
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
@Module({})
export class QueriesModule {
  static register(options: QueriesModuleOptions): DynamicModule {
    const analytics = options.analytics ?? { gamingDay: gamingDayConfig(), anomalyZ: 3 };
    return {
      module: QueriesModule,
      controllers: [
        HandsController,
        ReportsController,
        EdgeController,
        AnalyticsController,
        ExportsController,
      ],
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
        {
          provide: ProjectionRunner,
          useFactory: () => {
            const runner = new ProjectionRunner({
              store: options.store,
              readModels: options.readModelFile,
              projections: projectionsFor(analytics.gamingDay),
              headPosition:
                options.headPosition ??
                (options.sqliteEventsFile ? sqliteHeadPosition(options.sqliteEventsFile) : undefined),
              maxBatch: options.maxBatch,
              minCommitIntervalMs: options.minCommitIntervalMs,
              logger: nestLogger(),
            });
            if (options.metricsRegistry) registerProjectionMetrics(runner, options.metricsRegistry);
            return runner;
          },
        },
        {
          provide: ReadModels,
          inject: [ProjectionRunner],
          useFactory: (runner: ProjectionRunner) => {
            if (options.readFrom === undefined) return ReadModels.sqlite(runner.db);
            const log = new Logger('read-models');
            return ReadModels.open(options.readFrom, {
              onPoolError: (error) => log.warn({ msg: 'read-model connection lost', error: error.message }),
            });
          },
        },
        ProjectionsLifecycle,
      ],
      exports: [ProjectionRunner, ReadModels],
    };
  }
}
