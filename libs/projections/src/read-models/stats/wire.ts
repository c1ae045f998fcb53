/** What the statistics query answers. */
import type { StatsSummary } from './fold';

export interface StatsFilter {
  readonly tableId?: string;
  /** UTC days YYYY-MM-DD, inclusive. */
  readonly from?: string;
  readonly to?: string;
}

export interface StatsView {
  readonly filter: StatsFilter;
  readonly overall: StatsSummary;
  readonly tables: (StatsSummary & {
    readonly tableId: string;
    readonly decks: number;
    readonly tiePays: number;
  })[];
  readonly days: (StatsSummary & { readonly day: string })[];
  /** Per shoe (only with a tableId). */
  readonly shoes: (StatsSummary & { readonly shoeNo: number; readonly firstDay: string })[];
}
