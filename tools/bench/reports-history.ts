/**
 * The year of table events behind the reports benchmark (tools/bench/reports.bench.ts): `tables` baccarat tables
 * over `days` gaming days (cut-over 06:00 UTC, the default), each open a few hours a day (longer Friday to Sunday),
 * dealt by dealers rotating every 45 minutes, seven seats of players coming and going (a buy-in and a cash-out
 * per sitting), main bets and side bets, and a few corrections and voids before and after settlement. Real coups
 * (shuffled 8-deck shoes, resolved and settled by @coup/engine). Every choice comes from seeded generators: one
 * shape gives one history. Only the events the analysts' projection reads are made (no BetPlaced, CardDealt).
 */
import {
  type Card,
  type CoupFeatures,
  type CoupResult,
  type PayoutRules,
  type SideSpot,
  type Spot,
  coupFeatures,
  defaultPaytable,
  resolveCoup,
  shuffleShoe,
} from '@coup/engine';
import {
  DEFAULT_RULES,
  type Settlement,
  type TableEvent,
  type TableRules,
  normalizeRules,
  payoutRulesOf,
} from '@coup/table';
import { prng } from '../../libs/projections/src/testing/driver';

export interface HistoryShape {
  readonly tables: number;
  readonly days: number;
  /** The first gaming day, YYYY-MM-DD. */
  readonly firstDay: string;
  /** Settled stakes aimed at (the total comes within about 1% of it). */
  readonly bets: number;
}

/** An event as recorded at a table, with its actor metadata (`role:id`). */
export interface TableFact {
  readonly tableId: string;
  readonly event: TableEvent;
  readonly actor: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SEATS = 7;
const SIDE_BET_SHARE = 0.15;
const ROTATION_MS = 45 * MINUTE;
const STAKES = [500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000];
const STAKE_WEIGHTS = [10, 20, 30, 20, 12, 6, 2];
/** Per coup: a card corrected before it settles, a round voided, a settled coup corrected, or voided. */
const AMEND = { cardCorrection: 0.003, roundVoid: 0.0005, settledCorrection: 0.001, settledVoid: 0.0005 };

/** A seeded generator of numbers in [0, 1) (the test driver's mulberry32). */
export const seeded = prng;

const between = (r: () => number, lo: number, hi: number): number => lo + r() * (hi - lo);
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const iso = (ms: number): string => new Date(ms).toISOString();

function weighted<T>(r: () => number, xs: readonly T[], weights: readonly number[]): T {
  const total = weights.reduce((a, b) => a + b, 0);
  let x = r() * total;
  for (let i = 0; i < xs.length; i++) {
    x -= weights[i] ?? 0;
    if (x < 0) return xs[i] as T;
  }
  return xs[xs.length - 1] as T;
}

export interface TableSetup {
  readonly index: number;
  readonly id: string;
  readonly rules: TableRules;
  readonly payout: PayoutRules;
  readonly side: readonly SideSpot[];
}

/** Table i: most deal the commission game (box commission on two in ten), one in ten no-commission, one EZ. */
export function tableSetup(index: number): TableSetup {
  const kind = index % 10;
  const game = kind === 8 ? 'no-commission' : kind === 9 ? 'ez' : undefined;
  const side: SideSpot[] =
    kind === 8 ? ['super6', 'playerPair'] : kind === 9 ? ['dragon7', 'panda8'] : ['playerPair', 'bankerPair'];
  const normalized = normalizeRules({
    ...DEFAULT_RULES,
    commission: kind === 6 || kind === 7 ? 'box' : 'deducted',
    tiePays: kind === 5 ? 9 : 8,
    ...(game === undefined ? {} : { game }),
    sideBets: Object.fromEntries(
      side.map((s) => [s, { paytable: defaultPaytable(s), min: 100, max: 50_000 }]),
    ),
  });
  if (!normalized.ok) throw new Error(`table ${index}: ${normalized.error.message}`);
  const rules = normalized.value;
  return { index, id: `bac-${pad(index + 1, 2)}`, rules, payout: payoutRulesOf(rules), side };
}

interface PoolCoup {
  readonly coup: CoupResult;
  readonly cards: readonly Card[];
  readonly features: CoupFeatures;
}

/** Real coups dealt from shuffled 8-deck shoes down to the cut card. */
function coupPool(shoes: number, r: () => number): PoolCoup[] {
  const out: PoolCoup[] = [];
  for (let s = 0; s < shoes; s++) {
    const seed = Uint8Array.from({ length: 32 }, () => Math.floor(r() * 256));
    const shoe = shuffleShoe(8, seed);
    for (let i = 1; i + 6 < shoe.length - 16;) {
      const cards = shoe.slice(i, i + 6);
      const coup = resolveCoup(cards);
      out.push({ coup, cards: cards.slice(0, coup.cardsUsed), features: coupFeatures(coup) });
      i += coup.cardsUsed;
    }
  }
  return out;
}

/** When a table deals on a gaming day: closed on about 3 days in 100; 4 to 7 hours, 8 to 13 Friday to Sunday. */
interface TableDay {
  readonly open: boolean;
  readonly startMs: number;
  readonly endMs: number;
  readonly coups: number;
}

function tableDay(t: number, d: number, dayStartMs: number): TableDay {
  const r = seeded(t * 1_000_003 + d * 7_919 + 17);
  const weekday = (Math.floor(dayStartMs / DAY) + 4) % 7; // 0 Sunday
  const weekend = weekday === 0 || weekday >= 5;
  const open = r() >= 0.03;
  const startMs = dayStartMs + 2 * HOUR + Math.floor(between(r, 0, weekend ? 3 : 6) * HOUR);
  const hours = weekend ? between(r, 8, 13) : between(r, 4, 7);
  const coups = open ? Math.round(hours * between(r, 28, 36)) : 0;
  return { open, startMs, endMs: startMs + Math.floor(hours * HOUR), coups };
}

const dayStart = (firstDay: string, d: number): number => Date.parse(`${firstDay}T06:00:00.000Z`) + d * DAY;

/** The coups the shape deals in all (a quick pass over the schedules). */
export function coupsOf(shape: HistoryShape): number {
  let n = 0;
  for (let d = 0; d < shape.days; d++)
    for (let t = 0; t < shape.tables; t++) n += tableDay(t, d, dayStart(shape.firstDay, d)).coups;
  return n;
}

interface Sitting {
  readonly playerId: string;
  readonly from: number;
  readonly to: number;
  readonly stake: number;
}

/** Who sits at each seat over the day: sittings of 40 minutes to 3 hours, a few minutes apart. */
function sittings(r: () => number, day: TableDay, players: number): Sitting[][] {
  return Array.from({ length: SEATS }, (_, seat) => {
    const out: Sitting[] = [];
    let t = day.startMs - Math.floor(between(r, 0, 10) * MINUTE);
    while (t < day.endMs) {
      const to = Math.min(t + Math.floor(between(r, 40, 180) * MINUTE), day.endMs + 5 * MINUTE);
      // each seat draws from its own players, so no player sits twice at a table at once
      const n = seat + SEATS * Math.floor(r() * Math.floor(players / SEATS));
      out.push({ playerId: `p-${pad(n + 1, 5)}`, from: t, to, stake: weighted(r, STAKES, STAKE_WEIGHTS) });
      t = to + Math.floor(between(r, 0, 25) * MINUTE);
    }
    return out;
  });
}

/** The staff: three dealers per table a day (one at the table, two on a break), a pit boss per five tables. */
export interface Staff {
  readonly dealers: number;
  readonly supervisors: number;
}

export const staffOf = (shape: HistoryShape): Staff => ({
  dealers: shape.tables * 3,
  supervisors: Math.max(1, Math.ceil(shape.tables / 5)),
});

export const dealerId = (n: number): string => `dealer-${pad(n + 1, 3)}`;
const supervisorId = (n: number): string => `pitboss-${pad(n + 1, 2)}`;

/** What the generator keeps per table from one day to the next. */
export interface TableCursor {
  readonly setup: TableSetup;
  roundNo: number;
  shoeNo: number;
  /** Coups left in the shoe in play (0: none in play). */
  shoeLeft: number;
  opened: boolean;
}

export interface DayContext {
  readonly shape: HistoryShape;
  readonly staff: Staff;
  readonly pool: readonly PoolCoup[];
  /** Chance that a seated player bets on a coup. */
  readonly betShare: number;
  readonly players: number;
}

/** The generator's fixed parts for a shape: the coup pool and the share of seated players betting each coup. */
export function contextOf(shape: HistoryShape): DayContext {
  const coups = coupsOf(shape);
  // seats are taken about 90% of the time; a bettor adds a side bet SIDE_BET_SHARE of the time
  const betShare = Math.min(1, shape.bets / (coups * SEATS * 0.9 * (1 + SIDE_BET_SHARE)));
  return {
    shape,
    staff: staffOf(shape),
    pool: coupPool(60, seeded(2026)),
    betShare,
    players: 6_000,
  };
}

export {
  DAY,
  HOUR,
  MINUTE,
  AMEND,
  ROTATION_MS,
  SEATS,
  SIDE_BET_SHARE,
  between,
  dayStart,
  iso,
  pick,
  tableDay,
};
export { sittings, supervisorId };
export type { PoolCoup, Sitting, TableDay, Settlement, Spot };
