import {
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, Reflector } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { join } from 'node:path';
import { QueriesModule } from './queries';
import { ProjectionWorker, projectionWorkerAvailable, workerStoreOf } from './projection-worker';
import type { ServiceConfig } from './config/config';
import { TokenVerifier, type ScryptParams } from '@coup/auth';
import { AuthGuard, TOKEN_VERIFIER } from './common/auth';
import { LiveGateway } from './live/live.gateway';
import { LIVE_LIMITS, liveLimitsOf } from './live/live.limits';
import { AllExceptionsFilter } from './common/exception.filter';
import { Metrics } from './common/metrics';
import { OpsController } from './ops/ops.controller';
import { MetricsEndpoint } from './ops/metrics-endpoint';
import { EventStoreHandle } from './store/event-store.provider';
import { LogFollowers } from './store/log-follower';
import { StartupProgress, startWhenStoreAnswers, type StoreStartup } from './store/store-startup';
import { BettingTimer } from './tables/betting-timer';
import { ExecuteTableCommandHandler } from './tables/commands';
import { Clock, SeedSource } from './tables/edge-inputs';
import { TableCatalog } from './tables/table-catalog';
import { TableProcessor } from './tables/table-processor';
import { TablesController } from './tables/tables.controller';
import { OnlineController } from './tables/online.controller';
import { TableCommands } from './tables/table-commands';
import { TableStateRelay } from './tables/table-state-relay';
import { STAFF_CONTROLLERS, StaffAccounts, staffProviders } from './staff';

export const CONFIG = Symbol('CONFIG');

/** Overrides for tests: a fixed clock, a seed source, a store. */
export interface AppOverrides {
  readonly clock?: Clock;
  readonly seeds?: SeedSource;
  readonly store?: EventStoreHandle;
  readonly metrics?: Metrics;
  /** The followers of the log (their backoff waits). */
  readonly followers?: LogFollowers;
  /** The scrypt cost of staff passwords (tests use a cheap one; the default is DEFAULT_SCRYPT). */
  readonly scrypt?: ScryptParams;
}

class Lifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('lifecycle');
  constructor(
    @Inject(TableCatalog) private readonly catalog: TableCatalog,
    @Inject(TableProcessor) private readonly tables: TableProcessor,
    @Inject(EventStoreHandle) private readonly store: EventStoreHandle,
    @Inject(LiveGateway) private readonly live: LiveGateway,
    @Inject(StartupProgress) private readonly progress: StartupProgress,
  ) {}

  private startup: StoreStartup | null = null;
  private readonly done = { catalog: false, live: false };

  /**
   * Reads the table list (from the catalog file and the events since) and loads every open table, which re-arms
   * betting timers from their events. A store down at start does not stop the process: it tries again (issue 20).
   */
  async onApplicationBootstrap(): Promise<void> {
    this.startup = await startWhenStoreAnswers(() => this.start(), this.log);
    this.progress.follow(this.startup);
  }

  /** Each step once; a catalog whose start failed part-way is stopped, to start afresh on the next attempt. */
  private async start(): Promise<void> {
    if (!this.done.catalog) {
      await this.catalog.start().catch(async (error: unknown) => {
        await this.catalog.stop().catch(() => undefined);
        throw error;
      });
      this.done.catalog = true;
    }
    if (!this.done.live) {
      await this.live.start();
      this.done.live = true;
    }
    await Promise.all(this.catalog.openTableIds().map((id) => this.tables.state(id)));
  }

  /** On SIGTERM: finish the commands in flight, then close the store. */
  async onApplicationShutdown(signal?: string): Promise<void> {
    this.startup?.stop();
    this.log.log({ msg: 'shutting down', signal });
    await this.tables.shutdown();
    this.log.log({ msg: 'commands in flight finished' });
    await this.catalog.stop();
    await this.store.store.close();
    this.log.log({ msg: 'store closed' });
  }
}

/** The table side: the processor (its store seals and opens seeds), the betting timer, the catalog, the commands. */
function tableProviders(config: ServiceConfig): Provider[] {
  return [
    { provide: TableStateRelay, useValue: new TableStateRelay() },
    {
      provide: TableProcessor,
      inject: [EventStoreHandle, Metrics, TableStateRelay],
      useFactory: (handle: EventStoreHandle, metrics: Metrics, relay: TableStateRelay) =>
        // the one reader of unrevealed seeds: its store seals them on append and opens them on read
        new TableProcessor(handle.processorStore, metrics, {
          snapshotEvery: config.snapshotEvery,
          onStateChanged: relay.notify,
          // The key index is local to the data folder and rebuilt from the stream where it is behind (ADR-14).
          keyIndexFile:
            config.eventStore.kind === 'memory' ? ':memory:' : join(config.dataDir, 'idempotency.sqlite'),
          idempotencyDays: config.idempotencyDays,
          maxSessions: config.tableSessionsMax,
          sessionIdleMs: config.tableSessionIdleMs,
        }),
    },
    {
      provide: BettingTimer,
      inject: [TableProcessor, Clock, TableStateRelay],
      useFactory: (processor: TableProcessor, clock: Clock, relay: TableStateRelay) => {
        const timer = new BettingTimer(processor, clock);
        relay.attach((tableId, state) => timer.onStateChanged(tableId, state));
        return timer;
      },
    },
    {
      provide: TableCatalog,
      inject: [EventStoreHandle, LogFollowers],
      useFactory: (handle: EventStoreHandle, followers: LogFollowers) =>
        new TableCatalog(handle.store, { indexFile: join(config.dataDir, 'catalog.sqlite'), followers }),
    },
    ExecuteTableCommandHandler,
    TableCommands,
  ];
}

/**
 * The read side: the query endpoints over the read models COUP_READ_MODELS names (a SQLite file or PostgreSQL), the
 * projections folding into them here, (`inWorker`) in a worker thread, or (COUP_PROJECTIONS=off) in another process.
 */
function readSide(config: ServiceConfig, handle: EventStoreHandle, metrics: Metrics, inWorker: boolean) {
  const readModels = config.readModels.kind === 'sqlite' ? config.readModels.file : config.readModels.url;
  const eventsFile = config.eventStore.kind === 'sqlite' ? config.eventStore.file : null;
  const queries = QueriesModule.register({
    store: handle.store,
    readModels,
    foldedBy: config.projections === 'off' ? 'another process' : inWorker ? 'a worker thread' : 'this thread',
    ...(config.readModels.kind === 'postgres' ? { readModelsTimeoutMs: config.readModels.timeoutMs } : {}),
    ...(eventsFile ? { sqliteEventsFile: eventsFile } : {}),
    // Where positions count the events (SQLite, memory), the lag is head - checkpoint; on EventStoreDB, whose
    // positions are byte offsets, the runner counts the events after each checkpoint instead.
    ...(config.eventStore.kind !== 'eventstoredb' ? { headPosition: () => handle.store.headPosition() } : {}),
    metricsRegistry: metrics.registry,
    minCommitIntervalMs: config.projectionCommitMs,
    // In this thread a commit holds the requests up: the library's 2,000-event cap, not COUP_PROJECTION_MAX_BATCH.
    analytics: config.analytics,
  });
  const workerStore = inWorker ? workerStoreOf(config.eventStore, config.projectionPollMs) : null;
  const worker: Provider[] = workerStore
    ? [
        {
          provide: ProjectionWorker,
          useFactory: () =>
            new ProjectionWorker(workerStore, readModels, {
              minCommitIntervalMs: config.projectionCommitMs,
              maxBatch: config.projectionMaxBatch,
              gamingDay: config.analytics.gamingDay,
            }),
        },
      ]
    : [];
  return { queries, worker };
}

@Module({})
export class AppModule {
  static register(config: ServiceConfig, overrides: AppOverrides = {}): DynamicModule {
    const metrics = overrides.metrics ?? new Metrics();
    const handle = overrides.store ?? EventStoreHandle.open(config, metrics);
    // The read side folds in a worker thread when it can (built service, SQLite or EventStoreDB), else in this thread.
    const inWorker =
      config.projections === 'worker' &&
      workerStoreOf(config.eventStore, config.projectionPollMs) !== null &&
      !overrides.store &&
      projectionWorkerAvailable();
    const { queries, worker } = readSide(config, handle, metrics, inWorker);
    return {
      module: AppModule,
      imports: [CqrsModule.forRoot(), queries],
      controllers: [TablesController, OnlineController, OpsController, ...STAFF_CONTROLLERS],
      providers: [
        { provide: CONFIG, useValue: config },
        ...staffProviders(config, overrides.scrypt),
        {
          // A staff sign-in's token is checked against its account on every use (signed out, changed, disabled).
          provide: TOKEN_VERIFIER,
          inject: [StaffAccounts],
          useFactory: (staff: StaffAccounts) =>
            new TokenVerifier(config.jwtSecret, {
              clockSkewSeconds: config.tokenClockSkewSeconds,
              sessions: staff.checkSession,
            }),
        },
        { provide: LIVE_LIMITS, useValue: liveLimitsOf(config) },
        LiveGateway,
        { provide: Clock, useValue: overrides.clock ?? new Clock() },
        { provide: SeedSource, useValue: overrides.seeds ?? new SeedSource() },
        { provide: Metrics, useValue: metrics },
        {
          provide: MetricsEndpoint,
          useFactory: () => new MetricsEndpoint(metrics.registry, config.http, config.host),
        },
        { provide: EventStoreHandle, useValue: handle },
        {
          provide: LogFollowers,
          useValue:
            overrides.followers ??
            new LogFollowers({ retry: { firstMs: config.followRetryMs, maxMs: config.followRetryMaxMs } }),
        },
        ...tableProviders(config),
        {
          provide: APP_GUARD,
          inject: [Reflector, TOKEN_VERIFIER],
          useFactory: (reflector: Reflector, tokens: TokenVerifier) => new AuthGuard(reflector, tokens),
        },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        ...worker,
        StartupProgress,
        Lifecycle,
      ],
    };
  }
}
