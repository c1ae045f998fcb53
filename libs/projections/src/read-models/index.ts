/** The read models: each in its folder (fold, schema, wire types; SQLite code in its `sqlite/`), on the kernel. */
export * from './kernel';
export * from './table-view/fold';
export * from './table-view/wire';
export * from './hand-history';
export * from './roads/fold';
export * from './roads/wire';
export * from './stats/fold';
export * from './stats/bet-summary';
export * from './stats/wire';
export { STATS_FACT_FILTERS, type StatsOptions } from './stats/filter';
export * from './ledger/fold';
export * from './ledger/wire';
export * from './edge-monitor';
export * from './analyst';

import { analystProjection } from './analyst/fold';
import type { GamingDayConfig } from './analyst/gaming-day-config';
import { handHistoryProjection } from './hand-history';
import type { AnyProjection } from './kernel/types';
import { edgeMonitorProjection } from './edge-monitor/fold';
import { ledgerProjection } from './ledger/fold';
import { roadsProjection } from './roads/fold';
import { statsProjection } from './stats/fold';
import { tableViewProjection } from './table-view/fold';

/** Every projection, in the order the runner applies them. */
export const PROJECTIONS: readonly AnyProjection[] = [
  tableViewProjection,
  handHistoryProjection,
  roadsProjection,
  statsProjection,
  ledgerProjection,
  edgeMonitorProjection,
  analystProjection(),
];

/** Every projection, the analysts' model placing its facts by this gaming-day configuration. */
export function projectionsFor(gamingDay: GamingDayConfig): readonly AnyProjection[] {
  return PROJECTIONS.map((p) => (p.name === 'analyst' ? analystProjection(gamingDay) : p));
}
