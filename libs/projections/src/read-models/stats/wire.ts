/** What the statistics queries answer. */
import type { GameMode } from '@coup/engine';
import type { BetTotals, BetTypeStats } from './bet-summary';
import type { StatsSummary } from './summary';

export type { BetResultStats, BetTotals, BetTypeStats } from './bet-summary';
export type { ChiSquare, Hold, StatsSummary } from './summary';

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

/** The bet types of a scope (display order) and all their stakes together. */
export interface BetStatsScope {
  readonly bets: BetTypeStats[];
  readonly total: BetTotals;
}

/** Statistics per bet type: overall, per table (with its rules), per UTC day. */
export interface BetStatsView {
  readonly filter: StatsFilter;
  /** Wilson score interval, 95%: the interval each result's frequency is given with. */
  readonly confidence: 'wilson-95';
  readonly overall: BetStatsScope;
  readonly tables: (BetStatsScope & {
    readonly tableId: string;
    readonly decks: number;
    readonly game: GameMode;
    readonly tiePays: number;
  })[];
  readonly days: (BetStatsScope & { readonly day: string })[];
}
