import { Gauge, type Registry } from 'prom-client';
import type { ProjectionStatus } from '@coup/projections';

interface StatusSource {
  status(): Promise<{ readonly projections: readonly ProjectionStatus[] }>;
}

/**
 * Prometheus gauges read at scrape time from the read models' `status()`: `coup_projection_lag_events{projection}`
 * (events in the store not yet in the read models) and `coup_projection_checkpoint{projection}` (global position
 * applied). Read models that cannot be read now (PostgreSQL down) leave both empty; the rest of the scrape answers.
 */
export function registerProjectionMetrics(source: StatusSource, registry: Registry): void {
  let pending: Promise<readonly ProjectionStatus[]> | null = null;
  // one status read per scrape for both gauges
  const status = () =>
    (pending ??= source
      .status()
      .then(
        (s) => s.projections,
        () => [],
      )
      .finally(() => setImmediate(() => (pending = null))));
  new Gauge({
    name: 'coup_projection_lag_events',
    help: 'Events in the store not yet applied to the read model, per projection',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const p of await status()) this.set({ projection: p.name }, p.lag);
    },
  });
  new Gauge({
    name: 'coup_projection_checkpoint',
    help: 'Global position of the last event applied to the read model, per projection',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const p of await status()) this.set({ projection: p.name }, p.checkpoint);
    },
  });
}
