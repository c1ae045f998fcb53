/** Statistics as the API answers them, for the dashboard's tests: 10 coups (4 player, 5 banker, 1 tie). */
import type { BetStatsView, BetTypeStats, StatsView } from '@coup/projections/wire';

const result = (key: string, count: number, coups: number, expected: number, low: number, high: number) => ({
  key,
  result: key.startsWith('win') ? ('win' as const) : key === 'push' ? ('push' as const) : ('lose' as const),
  pays: null,
  count,
  frequency: count / coups,
  ci95: { low, high },
  expected,
  withinCi95: expected >= low && expected <= high,
});

const totals = {
  bets: 0,
  handle: 0,
  paid: 0,
  commission: 0,
  boxCommission: 0,
  houseResult: 0,
  holdPercent: null,
  theoreticalEdgePercent: null,
};

export const PLAYER_BET: BetTypeStats = {
  ...totals,
  spot: 'player',
  label: 'Player',
  variant: '1-to-1',
  paytable: null,
  coups: 10,
  results: [
    result('win:1/1', 4, 10, 0.446247, 0.168, 0.687),
    result('push', 1, 10, 0.095156, 0.018, 0.404),
    result('lose', 5, 10, 0.458597, 0.237, 0.763),
  ],
  bets: 3,
  wins: 1,
  pushes: 0,
  losses: 2,
  handle: 3_000,
  paid: 2_000,
  houseResult: 1_000,
  holdPercent: 33.333333,
  theoreticalEdgePercent: 1.235,
};

export const TIE_BET: BetTypeStats = {
  ...totals,
  spot: 'tie',
  label: 'Tie',
  variant: '8-to-1',
  paytable: null,
  coups: 10,
  // a tie's exact probability (9.5%) outside a made-up narrow interval: the one flag of these statistics
  results: [result('win:8/1', 1, 10, 0.095156, 0.1, 0.2), result('lose', 9, 10, 0.904844, 0.596, 0.982)],
  wins: 0,
  pushes: 0,
  losses: 0,
};

export const BET_STATS: BetStatsView = {
  filter: {},
  confidence: 'wilson-95',
  overall: { bets: [PLAYER_BET, TIE_BET], total: { ...totals, bets: 3, handle: 3_000 } },
  tables: [],
  days: [],
};

const summary = {
  coups: 10,
  voids: 1,
  outcomes: { player: 4, banker: 5, tie: 1 },
  frequencies: { player: 0.4, banker: 0.5, tie: 0.1 },
  expected: { player: 0.446247, banker: 0.458597, tie: 0.095156 },
  chiSquare: null,
  naturals: { count: 2, frequency: 0.2, expected: 0.3 },
  handle: { player: 3_000, banker: 0, tie: 0, total: 3_000 },
  paid: 2_000,
  commission: 0,
  boxCommission: 0,
  houseResult: 1_000,
  holdPercent: 33.333333,
  theoreticalEdgePercent: 1.235,
};

export const STATS: StatsView = {
  filter: {},
  overall: summary,
  tables: [],
  days: [
    {
      ...summary,
      day: '2026-11-28',
      coups: 4,
      handle: { ...summary.handle, total: 1_000 },
      houseResult: -500,
    },
    {
      ...summary,
      day: '2026-11-29',
      coups: 6,
      handle: { ...summary.handle, total: 2_000 },
      houseResult: 1_500,
    },
  ],
  shoes: [],
};
