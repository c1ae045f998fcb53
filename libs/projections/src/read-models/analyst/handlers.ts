/** What each table event does to the analysts' model (every event type listed: the map is exhaustive). */
import { isSideSpot } from '@coup/engine';
import {
  type EventData,
  type Settlement,
  type TableEventType,
  type TableRules,
  gameOf,
  offeredSpots,
  payoutRulesOf,
  personalTableOwner,
} from '@coup/table';
import type { Write } from '../kernel/types';
import { betTypeFigures } from './bet-types';
import type { Placement } from './gaming-day';
import { type AnalystRules, type CoupContext, coupWrites, winOf } from './rows';
import { AN_BETS, AN_CASH, AN_COUPS } from './schema-facts';
import { AN_BET_TYPES, AN_PLAYERS, AN_SHOES, AN_TABLES, PLAYER_COUNTERS } from './schema-dims';
import { type AnalystState, type SettledCoup, type Step, actorOf } from './step';
import { amendmentRow } from './amendments';
import { sumBets, sumCoup, sumHold } from './sums';

type Handler<K extends TableEventType> = (step: Step, d: EventData<K>) => void;

export function rulesOf(rules: TableRules, version: number): AnalystRules {
  return {
    version,
    game: gameOf(rules),
    decks: rules.decks,
    commissionMode: rules.commission,
    payout: payoutRulesOf(rules),
    spots: offeredSpots(rules),
  };
}

/** Rules for events met before the table's opening (none in a real log): an 8-deck commission table. */
const UNKNOWN_RULES: AnalystRules = {
  version: 0,
  game: 'commission',
  decks: 8,
  commissionMode: 'deducted',
  payout: { game: 'commission', tiePays: 8, commission: 'deducted', paytables: {} },
  spots: ['player', 'banker', 'tie'],
};

const rulesIn = (s: AnalystState): AnalystRules => s.rules ?? UNKNOWN_RULES;

function tableOpened(step: Step, d: EventData<'TableOpened'>): void {
  const rules = rulesOf(d.rules, (step.state.rules?.version ?? 0) + 1);
  const side = rules.spots.filter(isSideSpot);
  const betTypes = [...betTypeFigures(rules.decks, rules.payout, rules.spots).values()].map((f): Write => ({
    kind: 'upsert',
    table: AN_BET_TYPES,
    row: {
      bet_type: f.betType,
      decks: rules.decks,
      spot: f.spot,
      paytable: f.paytable,
      label: f.label,
      edge: f.edge,
      variance: f.variance,
      p_win: f.probabilities.win,
      p_push: f.probabilities.push,
      p_lose: f.probabilities.lose,
    },
  }));
  const row = {
    table_id: d.tableId,
    rules_version: rules.version,
    online: personalTableOwner(d.tableId) === null ? 0 : 1,
    opened_at: d.at,
    opened_by: d.by,
    closed_at: null,
    closed_by: null,
    game: rules.game,
    dealing: d.rules.dealing,
    shuffle: d.rules.shuffle,
    dealt_by: d.rules.dealtBy,
    decks: d.rules.decks,
    tie_pays: d.rules.tiePays,
    commission_mode: d.rules.commission,
    side_bets: side.map((spot) => `${spot}:${rules.payout.paytables?.[spot] ?? ''}`).join(','),
    rules_json: JSON.stringify(d.rules),
  };
  step
    .with({ rules })
    .write({ kind: 'upsert', table: AN_TABLES, row }, ...betTypes)
    .staff('tables', d.at);
}

function tableClosed(step: Step, d: EventData<'TableClosed'>): void {
  const key = { table_id: step.state.tableId, rules_version: rulesIn(step.state).version };
  step
    .write({ kind: 'update', table: AN_TABLES, key, set: { closed_at: d.at, closed_by: d.by } })
    .staff('tables', d.at);
}

function playerCounters(
  add: Partial<Record<(typeof PLAYER_COUNTERS)[number], number>>,
): Record<string, number> {
  return Object.fromEntries(PLAYER_COUNTERS.map((k) => [k, add[k] ?? 0]));
}

/** A buy-in or cash-out: the cash fact, the player's row, the cashier's count. */
function cash(
  step: Step,
  d: { playerId: string; at: string; by: string; role: string },
  money: {
    kind: 'buy-in' | 'cash-out';
    amount: number;
    chips: number;
    collected: number | null;
    owed: number | null;
  },
): void {
  const p = step.place(d.at);
  const s = step.state;
  const cashier = actorOf(step.e) ?? { id: d.by, role: d.role };
  step
    .write(
      {
        kind: 'upsert',
        table: AN_CASH,
        row: {
          position: step.e.position,
          table_id: s.tableId,
          player_id: d.playerId,
          kind: money.kind,
          amount: money.amount,
          chips: money.chips,
          commission_collected: money.collected,
          commission_owed: money.owed,
          cashier_id: cashier.id,
          cashier_role: cashier.role,
          dealer_id: s.dealerId,
          at: d.at,
          at_ms: p.atMs,
          gaming_day: p.gamingDay,
          shift: p.shift,
          hour: p.hour,
        },
      },
      {
        kind: 'add',
        table: AN_PLAYERS,
        row: {
          player_id: d.playerId,
          first_at: d.at,
          first_table_id: s.tableId,
          first_gaming_day: p.gamingDay,
        },
        add: playerCounters(
          money.kind === 'buy-in'
            ? { buy_ins: 1, bought_in: money.amount }
            : { cash_outs: 1, cashed_out: money.amount },
        ),
      },
    )
    .staff('cash_movements', d.at);
  const sum = money.kind === 'buy-in' ? { dropAmount: money.amount } : { cashedOut: money.amount };
  sumHold(step, p, s.dealerId, { ...sum, facts: 1 });
}

function shoeStarted(step: Step, d: EventData<'ShoeStarted'>): void {
  const p = step.place(d.at);
  const row = {
    table_id: step.state.tableId,
    shoe_no: d.shoeNo,
    rules_version: rulesIn(step.state).version,
    dealing: d.dealing,
    shuffle: d.shuffle,
    decks: d.decks,
    cards: d.length,
    cut_card: d.cutCard,
    commitment: d.commitment,
    started_at: d.at,
    started_by: d.by,
    gaming_day: p.gamingDay,
    ended_at: null,
    end_reason: null,
    coups: null,
  };
  step.with({ shoe: row }).write({ kind: 'upsert', table: AN_SHOES, row }).staff('shoes_started', d.at);
}

function shoeEnded(step: Step, d: EventData<'ShoeEnded'>): void {
  const shoe = step.state.shoe;
  if (shoe === null || shoe['shoe_no'] !== d.shoeNo) return;
  const row = { ...shoe, ended_at: d.at, end_reason: d.reason, coups: d.coups };
  // the coup just settled keeps its ended shoe's row: a void of it until the next betting counts it out there
  const settled = step.state.settled;
  const keep = settled !== null && settled.shoeNo === d.shoeNo ? { settled: { ...settled, shoe: row } } : {};
  step.with({ shoe: null, ...keep }).write({ kind: 'upsert', table: AN_SHOES, row });
}

function bettingOpened(step: Step, d: EventData<'BettingOpened'>): void {
  const who = actorOf(step.e);
  const dealer = who !== null && who.role !== 'player' ? who : null;
  const round = {
    roundNo: d.roundNo,
    shoeNo: d.shoeNo,
    openedAt: d.at,
    openedMs: Date.parse(d.at),
    dealerId: dealer?.id ?? null,
    dealerRole: dealer?.role ?? null,
  };
  step.with({ round, settled: null, dealerId: round.dealerId }).staff('rounds_opened', d.at);
}

/**
 * The context of the coup of `roundNo` settled at `at` (its round as opened, when known); `place`: where `at`
 * falls (a coup settled now brings its gaming day's rows; a settled coup amended later keeps its own).
 */
function contextOf(
  step: Step,
  round: SettledCoup | null,
  roundNo: number,
  shoeNo: number,
  at: string,
  place: Placement,
): CoupContext {
  const s = step.state;
  const known = round !== null && round.roundNo === roundNo ? round : null;
  return {
    tableId: s.tableId,
    roundNo,
    shoeNo,
    rules: rulesIn(s),
    dealerId: known?.dealerId ?? null,
    dealerRole: known?.dealerRole ?? null,
    openedAt: known?.openedAt ?? null,
    openedMs: known?.openedMs ?? null,
    at,
    place,
  };
}

function coupResolved(step: Step, d: EventData<'CoupResolved'>): void {
  const round = step.state.round;
  const opened =
    round !== null && round.roundNo === d.roundNo
      ? { ...round, at: d.at, status: 'settled' as const, corrections: 0 }
      : null;
  const c = contextOf(step, opened, d.roundNo, d.shoeNo, d.at, step.place(d.at));
  const settled: SettledCoup = opened ?? {
    roundNo: d.roundNo,
    shoeNo: d.shoeNo,
    openedAt: d.at,
    openedMs: c.place.atMs,
    dealerId: null,
    dealerRole: null,
    at: d.at,
    status: 'settled',
    corrections: 0,
  };
  step.with({ settled }).write(...coupWrites(c, d, d.commissionMode, 'settled', 0));
  sumCoup(step, c, d.settlements, d.commissionMode, 1, 1);
  sumBets(step, c, d.commissionMode, [{ settlements: d.settlements, sign: 1, status: 'settled' }]);
}

const sumWin = (settlements: readonly Settlement[], mode: 'deducted' | 'box'): number =>
  settlements.reduce((w, st) => w + winOf(st, mode), 0);

function settledCorrected(step: Step, d: EventData<'SettledCoupCorrected'>): void {
  const coup = step.state.settled;
  const before = sumWin(d.reversed, d.commissionMode);
  step.write(
    amendmentRow(step, 'settled-correction', d, {
      winBefore: before,
      winAfter: sumWin(d.settlements, d.commissionMode),
    }),
  );
  if (coup === null || coup.roundNo !== d.roundNo) return;
  const c = contextOf(step, coup, d.roundNo, d.shoeNo, coup.at, step.placeOnly(coup.at));
  const kept = new Set(d.settlements.map((st) => `${st.playerId}\u0000${st.spot}`));
  const gone = d.reversed.filter((st) => !kept.has(`${st.playerId}\u0000${st.spot}`));
  step.with({ settled: { ...coup, status: 'corrected', corrections: coup.corrections + 1 } }).write(
    ...coupWrites(c, d, d.commissionMode, 'corrected', coup.corrections + 1),
    ...gone.map((st): Write => ({
      kind: 'delete',
      table: AN_BETS,
      key: { table_id: c.tableId, round_no: d.roundNo, player_id: st.playerId, spot: st.spot },
    })),
  );
  sumCoup(step, c, d.reversed, d.commissionMode, -1, 0);
  sumCoup(step, c, d.settlements, d.commissionMode, 1, 0);
  sumBets(step, c, d.commissionMode, [
    { settlements: d.reversed, sign: -1, status: coup.status },
    { settlements: d.settlements, sign: 1, status: 'corrected' },
  ]);
}

function settledVoided(step: Step, d: EventData<'SettledCoupVoided'>): void {
  const coup = step.state.settled;
  const mode = rulesIn(step.state).commissionMode;
  step.write(amendmentRow(step, 'settled-void', d, { winBefore: sumWin(d.reversed, mode), winAfter: 0 }));
  if (coup === null || coup.roundNo !== d.roundNo) return;
  const tableId = step.state.tableId;
  const c = contextOf(step, coup, d.roundNo, d.shoeNo, coup.at, step.placeOnly(coup.at));
  step.with({ settled: null }).write(
    {
      kind: 'update',
      table: AN_COUPS,
      key: { table_id: tableId, round_no: d.roundNo },
      set: { status: 'voided' },
    },
    ...d.reversed.map((st): Write => ({
      kind: 'update',
      table: AN_BETS,
      key: { table_id: tableId, round_no: d.roundNo, player_id: st.playerId, spot: st.spot },
      set: { status: 'voided' },
    })),
  );
  sumCoup(step, c, d.reversed, mode, -1, -1);
  sumBets(step, c, mode, [
    { settlements: d.reversed, sign: -1, status: coup.status },
    { settlements: d.reversed, sign: 1, status: 'voided' },
  ]);
  // its shoe ended since (it ends uncounted when the void comes first, as the decider counts it)
  const shoe = coup.shoe;
  if (shoe !== undefined && typeof shoe['coups'] === 'number') {
    step.write({ kind: 'upsert', table: AN_SHOES, row: { ...shoe, coups: Math.max(0, shoe['coups'] - 1) } });
  }
}

const nothing = (): void => undefined;

/** Every event type's handler (a handler that writes nothing leaves the state as it was). */
export const HANDLERS: { readonly [K in TableEventType]: Handler<K> } = {
  TableOpened: tableOpened,
  TableClosed: tableClosed,
  PlayerBoughtIn: (step, d) =>
    cash(step, d, { kind: 'buy-in', amount: d.amount, chips: d.amount, collected: null, owed: null }),
  PlayerCashedOut: (step, d) =>
    cash(step, d, {
      kind: 'cash-out',
      amount: d.paid,
      chips: d.paid + d.commissionCollected,
      collected: d.commissionCollected,
      owed: d.commissionOwed,
    }),
  ShoeStarted: shoeStarted,
  ShoeEnded: shoeEnded,
  BettingOpened: bettingOpened,
  BetPlaced: nothing,
  BetsCleared: nothing,
  BettingClosed: nothing,
  CardDealt: nothing,
  CardCorrected: (step, d) => {
    step.write(amendmentRow(step, 'card-correction', d, null));
  },
  CoupResolved: coupResolved,
  RoundVoided: (step, d) => {
    step.write(amendmentRow(step, 'round-void', d, null));
  },
  SettledCoupCorrected: settledCorrected,
  SettledCoupVoided: settledVoided,
};

/** The event types that write nothing (the runner need not fold them). */
export const SILENT: ReadonlySet<TableEventType> = new Set([
  'BetPlaced',
  'BetsCleared',
  'BettingClosed',
  'CardDealt',
]);
