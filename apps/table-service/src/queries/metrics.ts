import { Gauge, type Registry } from 'prom-client';
import type { ProjectionRunner } from '@coup/projections';

/**
 * Prometheus gauges read at scrape time from `runner.status()`: `coup_projection_lag_events{projection}` (events
 * in the store not yet in the read models) and `coup_projection_checkpoint{projection}` (global position applied).
 */
export function registerProjectionMetrics(runner: ProjectionRunner, registry: Registry): void {
  let pending: ReturnType<ProjectionRunner['status']> | null = null;
  // one status read per scrape for both gauges
  const status = () => (pending ??= runner.status().finally(() => setImmediate(() => (pending = null))));
  new Gauge({
    name: 'coup_projection_lag_events',
    help: 'Events in the store not yet applied to the read model, per projection',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      for (const p of (await status()).projections) this.set({ projection: p.name }, p.lag);
    },
  });
  new Gauge({
    name: 'coup_projection_checkpoint',
    help: 'Global position of the last event applied to the read model, per projection',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      for (const p of (await status()).projections) this.set({ projection: p.name }, p.checkpoint);
    },
  });
}
