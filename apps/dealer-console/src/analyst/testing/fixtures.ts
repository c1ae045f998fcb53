/** Statistics as the API answers them, for the dashboard's tests: 10 coups (4 player, 5 banker, 1 tie). */
import type {
  AnomalyReport,
  BetStatsView,
  BetTypeRow,
  BetTypeStats,
  HoldRow,
  PaceRow,
  Report,
  StatsView,
} from '@coup/projections/wire';

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

const report = { filter: {}, truncated: false };

export const HOLD: Report<HoldRow> = {
  ...report,
  rows: [
    {
      gamingDay: '2026-11-28',
      coups: 4,
      dropAmount: 100_000,
      cashedOut: 0,
      handle: 1_000,
      win: -500,
      holdPct: -0.5,
      winPctOfHandle: -50,
      theoWin: 12,
      theoPctOfHandle: 1.2,
      commission: 0,
      voids: 1,
      corrections: 0,
    },
    {
      gamingDay: '2026-11-29',
      coups: 6,
      dropAmount: 0,
      cashedOut: 20_000,
      handle: 2_000,
      win: 1_500,
      holdPct: null,
      winPctOfHandle: 75,
      theoWin: 25,
      theoPctOfHandle: 1.25,
      commission: 0,
      voids: 0,
      corrections: 1,
    },
  ],
};

export const BET_TYPES: Report<BetTypeRow> = {
  ...report,
  rows: [
    {
      betType: 'banker:commission',
      coups: 10,
      bets: 4,
      handle: 4_000,
      paid: 3_900,
      win: 100,
      holdPct: 2.5,
      theoWin: 42,
      theoPct: 1.06,
      commission: 100,
      voidedBets: 0,
      correctedBets: 0,
    },
    {
      betType: 'tie:8-to-1',
      coups: 10,
      bets: 0,
      handle: 0,
      paid: 0,
      win: 0,
      holdPct: null,
      theoWin: 0,
      theoPct: null,
      commission: 0,
      voidedBets: 0,
      correctedBets: 0,
    },
    {
      betType: 'super6:15-to-1',
      coups: 10,
      bets: 2,
      handle: 200,
      paid: 0,
      win: 200,
      holdPct: 100,
      theoWin: 28,
      theoPct: 14.0,
      commission: 0,
      voidedBets: 0,
      correctedBets: 0,
    },
  ],
};

export const PACE: Report<PaceRow> = {
  ...report,
  rows: [
    {
      tableId: 'T1',
      gamingDay: '2026-11-29',
      shift: 'day',
      dealerId: 'dora',
      coups: 60,
      firstAt: '2026-11-29T06:00:00.000Z',
      lastAt: '2026-11-29T06:40:00.000Z',
      hours: 2 / 3,
      coupsPerHour: 90,
    },
  ],
};

export const ANOMALIES: AnomalyReport = {
  ...report,
  threshold: 3,
  rows: [
    {
      scope: 'table',
      tableId: 'T1',
      playerId: null,
      gamingDay: '2026-11-29',
      coups: 60,
      handle: 60_000,
      win: 9_000,
      theoWin: 700,
      theoVar: 4_000_000,
      sd: 2_000,
      z: 4.15,
      flagged: true,
    },
    {
      scope: 'player',
      tableId: null,
      playerId: 'alice',
      gamingDay: '2026-11-29',
      coups: 60,
      handle: 30_000,
      win: 400,
      theoWin: 350,
      theoVar: 1_000_000,
      sd: 1_000,
      z: 0.05,
      flagged: false,
    },
  ],
};
