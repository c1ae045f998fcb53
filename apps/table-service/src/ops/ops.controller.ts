import { Controller, Get, Header, Headers, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EventStoreHandle } from '../store/event-store.provider';
import { LogFollowers } from '../store/log-follower';
import { StartupProgress } from '../store/store-startup';
import { ApiError } from '../common/api-error';
import { Public } from '../common/auth';
import { Metrics } from '../common/metrics';
import { MetricsEndpoint } from './metrics-endpoint';
import { ApiRefusals } from './openapi-errors';

@ApiTags('operations')
@Controller()
export class OpsController {
  constructor(
    private readonly store: EventStoreHandle,
    private readonly metrics: Metrics,
    private readonly endpoint: MetricsEndpoint,
    private readonly followers: LogFollowers,
    private readonly startup: StartupProgress,
  ) {}

  @Get('health')
  @Public()
  @ApiOperation({
    summary:
      'Liveness, store reachability and the followers of the log (live push, table list): 503 when the store does not answer (unavailable), when the start-up reads (the table list, the open tables) have not finished after a store that was down at start (starting), or when a follower has lost its subscription (degraded, naming it, since when and why). `warnings` lists what works but needs a restart when it suits: store-writer-thread-lost (the SQLite store writer thread ended; its commits run on the request thread, store.writer says since when and why)',
  })
  @ApiResponse({
    status: 503,
    description: '{ status: unavailable | starting | degraded, warnings, store, followers }',
  })
  async health(@Res() reply: FastifyReply) {
    const store = { ...(await this.probeStore()), writer: this.store.writerStatus() ?? undefined };
    const followers = this.followers.statuses();
    const status = !store.reachable
      ? 'unavailable'
      : !this.startup.started
        ? 'starting'
        : followers.every((f) => f.up)
          ? 'ok'
          : 'degraded';
    // Still correct, only slower: a warning, not a failure (a 503 would take the store's one writer out of service).
    const warnings = store.writer?.threadLost ? ['store-writer-thread-lost'] : [];
    return reply.status(status === 'ok' ? 200 : 503).send({ status, warnings, store, followers });
  }

  private async probeStore() {
    const started = process.hrtime.bigint();
    try {
      await this.store.store.streamHead('health-probe');
      const latencyMs = Number(process.hrtime.bigint() - started) / 1e6;
      return { kind: this.store.kind, reachable: true, latencyMs };
    } catch (error) {
      return { kind: this.store.kind, reachable: false, error: String((error as Error).message) };
    }
  }

  @Get('metrics')
  @Public()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({
    summary:
      'Prometheus metrics (with COUP_METRICS_TOKEN: Authorization: Bearer <that token>; with COUP_METRICS_PORT: on that port only)',
  })
  @ApiRefusals('UNAUTHENTICATED', 'NOT_FOUND')
  metricsText(@Headers('authorization') authorization?: string) {
    if (!this.endpoint.onApiPort)
      throw new ApiError(404, 'NOT_FOUND', 'the metrics are served on their own port');
    if (!this.endpoint.allows(authorization))
      throw new ApiError(401, 'UNAUTHENTICATED', 'the metrics need their bearer token (COUP_METRICS_TOKEN)');
    return this.metrics.registry.metrics();
  }
}
