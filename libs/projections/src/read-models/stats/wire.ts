/** What the statistics queries answer. */
import type { GameMode } from '@coup/engine';
import type { BetTotals, BetTypeStats } from './bet-summary';
import type { StatsSummary } from './summary';

export type { BetResultStats, BetTotals, BetTypeStats } from './bet-summary';
export type { ChiSquare, Hold, StatsSummary } from './summary';

/**
 * Which statistics: by UTC day from the per-day counters (`from`/`to`, the default), or by gaming day from the
 * analysts' facts (any of the gaming-day filters, or `calendar: 'gaming'`). The two kinds are not mixed.
 */
export interface StatsFilter {
  readonly tableId?: string;
  /** Only these tables (a token limited to some tables: its own); an empty list, none. */
  readonly tables?: readonly string[];
  /** UTC days YYYY-MM-DD, inclusive (the per-day counters). */
  readonly from?: string;
  readonly to?: string;
  /** One gaming day, YYYY-MM-DD (not with gamingDayFrom/gamingDayTo). */
  readonly gamingDay?: string;
  /** The first and last gaming day, inclusive. */
  readonly gamingDayFrom?: string;
  readonly gamingDayTo?: string;
  /** UTC instants (ISO-8601): coups at or after `since`, before `until`. */
  readonly since?: string;
  readonly until?: string;
  /** A configured shift. */
  readonly shift?: string;
  /** The local hour in the gaming day's time zone, 0 to 23. */
  readonly hour?: number;
  /** A dealer's actor id: the rounds they dealt. */
  readonly dealer?: string;
  /**
   * 'gaming': by gaming day from the facts even with no other gaming-day filter (every gaming day); 'utc': the
   * per-UTC-day counters (refused with a gaming-day filter). The answer's `filter` says 'gaming' when it counted
   * gaming days; its `days` are then gaming days, and a shoe's `firstDay` too.
   */
  readonly calendar?: 'utc' | 'gaming';
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
