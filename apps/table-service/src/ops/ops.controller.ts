import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EventStoreHandle } from '../store/event-store.provider';
import { Public } from '../common/auth';
import { Metrics } from '../common/metrics';

@ApiTags('operations')
@Controller()
export class OpsController {
  constructor(
    private readonly store: EventStoreHandle,
    private readonly metrics: Metrics,
  ) {}

  @Get('health')
  @Public()
  @ApiOperation({ summary: 'Liveness and store reachability (503 when the store does not answer)' })
  async health(@Res() reply: FastifyReply) {
    const started = process.hrtime.bigint();
    try {
      await this.store.store.streamHead('health-probe');
      const storeMs = Number(process.hrtime.bigint() - started) / 1e6;
      return reply
        .status(200)
        .send({ status: 'ok', store: { kind: this.store.kind, reachable: true, latencyMs: storeMs } });
    } catch (error) {
      return reply.status(503).send({
        status: 'unavailable',
        store: { kind: this.store.kind, reachable: false, error: String((error as Error).message) },
      });
    }
  }

  @Get('metrics')
  @Public()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Prometheus metrics' })
  metricsText() {
    return this.metrics.registry.metrics();
  }
}
