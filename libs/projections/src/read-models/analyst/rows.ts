/** The analysts' fact rows of a coup and its bets, from a settlement (as dealt, corrected, or voided). */
import {
  type CoupResult,
  EngineError,
  GAME_MODES,
  type PayoutRules,
  type Spot,
  isSideSpot,
} from '@coup/engine';
import type { GameMode, Settlement } from '@coup/table';
import type { Row, Write } from '../kernel/types';
import { type BetTypeFigures, betTypeFigures } from './bet-types';
import type { Placement } from './gaming-day';
import { AN_BETS, AN_COUPS } from './schema-facts';

/** The rules of a table as the facts need them. */
export interface AnalystRules {
  readonly version: number;
  readonly game: GameMode;
  readonly decks: number;
  readonly commissionMode: 'deducted' | 'box';
  readonly payout: PayoutRules;
  readonly spots: readonly Spot[];
}

/** A coup's context: where and when it was dealt, by whom, under which rules. */
export interface CoupContext {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly rules: AnalystRules;
  readonly dealerId: string | null;
  readonly dealerRole: string | null;
  readonly openedAt: string | null;
  readonly openedMs: number | null;
  /** When the coup settled (ISO), and where that falls. */
  readonly at: string;
  readonly place: Placement;
}

export type FactStatus = 'settled' | 'corrected' | 'voided';

/**
 * A bet type's figures at the table (computed for a spot it does not offer, should one be settled; for a spot its
 * game cannot offer at all, which only a history that fails verify holds, under the first game that offers it, so
 * the fold goes on and verify reports the history).
 */
export function figuresOf(rules: AnalystRules, spot: Spot): BetTypeFigures {
  // per rules object (a table's state keeps one): the figures' own memo keys on the rules as JSON, a cost per stake
  let known = FIGURES.get(rules);
  if (known === undefined) FIGURES.set(rules, (known = new Map()));
  let f = known.get(spot);
  if (f === undefined) known.set(spot, (f = computeFigures(rules, spot)));
  return f;
}

const FIGURES = new WeakMap<AnalystRules, Map<Spot, BetTypeFigures>>();

function computeFigures(rules: AnalystRules, spot: Spot): BetTypeFigures {
  const offered = betTypeFigures(rules.decks, rules.payout, rules.spots).get(spot);
  if (offered !== undefined) return offered;
  const games = [rules.payout.game ?? 'commission', ...GAME_MODES];
  for (const game of games) {
    try {
      const f = betTypeFigures(rules.decks, { ...rules.payout, game }, [spot]).get(spot);
      if (f !== undefined) return f;
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
    }
  }
  throw new EngineError('INVALID_ARGUMENT', `no game offers ${spot}`, { spot });
}

/** The house's actual win on a settlement: stake - paid + commission owed to the box. */
export function winOf(st: Settlement, commissionMode: 'deducted' | 'box'): number {
  return st.amount - st.paid + (commissionMode === 'box' ? st.commission : 0);
}

/** The row of one settled stake. */
export function betRow(
  c: CoupContext,
  st: Settlement,
  commissionMode: 'deducted' | 'box',
  status: FactStatus,
): Row {
  const f = figuresOf(c.rules, st.spot);
  const win = winOf(st, commissionMode);
  return {
    table_id: c.tableId,
    round_no: c.roundNo,
    player_id: st.playerId,
    spot: st.spot,
    shoe_no: c.shoeNo,
    rules_version: c.rules.version,
    bet_type: f.betType,
    paytable: st.paytable ?? (isSideSpot(st.spot) ? f.paytable : null),
    game: c.rules.game,
    decks: c.rules.decks,
    commission_mode: commissionMode,
    dealer_id: c.dealerId,
    opened_ms: c.openedMs,
    at: c.at,
    at_ms: c.place.atMs,
    gaming_day: c.place.gamingDay,
    shift: c.place.shift,
    hour: c.place.hour,
    stake: st.amount,
    result: st.result,
    paid: st.paid,
    commission: st.commission,
    net: 0 - win,
    win,
    edge: f.edge,
    variance: f.variance,
    theo_win: st.amount * f.edge,
    theo_var: st.amount * st.amount * f.variance,
    status,
  };
}

/** The money of a coup: sums over its settlements (the variance per bet type: stakes on it, squared). */
export interface CoupMoney {
  readonly bets: number;
  readonly players: number;
  readonly handle: number;
  readonly paid: number;
  readonly commission: number;
  readonly win: number;
  readonly theoWin: number;
  readonly theoVar: number;
}

/** The last coup's money (its row and its hold cell both need it: computed once per coup). */
let lastMoney: {
  readonly rules: AnalystRules;
  readonly settlements: readonly Settlement[];
  readonly mode: 'deducted' | 'box';
  readonly money: CoupMoney;
} | null = null;

export function coupMoney(
  c: CoupContext,
  settlements: readonly Settlement[],
  mode: 'deducted' | 'box',
): CoupMoney {
  const last = lastMoney;
  if (last !== null && last.settlements === settlements && last.rules === c.rules && last.mode === mode)
    return last.money;
  const money = computeMoney(c.rules, settlements, mode);
  lastMoney = { rules: c.rules, settlements, mode, money };
  return money;
}

function computeMoney(
  rules: AnalystRules,
  settlements: readonly Settlement[],
  mode: 'deducted' | 'box',
): CoupMoney {
  const stakeBySpot = new Map<Spot, number>();
  let handle = 0;
  let paid = 0;
  let commission = 0;
  let win = 0;
  let theo = 0;
  for (const st of settlements) {
    stakeBySpot.set(st.spot, (stakeBySpot.get(st.spot) ?? 0) + st.amount);
    handle += st.amount;
    paid += st.paid;
    commission += st.commission;
    win += winOf(st, mode);
    theo += st.amount * figuresOf(rules, st.spot).edge;
  }
  let theoVar = 0;
  for (const [spot, stake] of stakeBySpot) theoVar += stake * stake * figuresOf(rules, spot).variance;
  const players = new Set(settlements.map((s) => s.playerId)).size;
  return { bets: settlements.length, players, handle, paid, commission, win, theoWin: theo, theoVar };
}

/** The coup's row. */
export function coupRow(
  c: CoupContext,
  coup: CoupResult & { readonly settlements: readonly Settlement[] },
  commissionMode: 'deducted' | 'box',
  status: FactStatus,
  corrections: number,
): Row {
  const money = coupMoney(c, coup.settlements, commissionMode);
  return {
    table_id: c.tableId,
    round_no: c.roundNo,
    shoe_no: c.shoeNo,
    rules_version: c.rules.version,
    game: c.rules.game,
    decks: c.rules.decks,
    dealer_id: c.dealerId,
    dealer_role: c.dealerRole,
    opened_at: c.openedAt,
    opened_ms: c.openedMs,
    at: c.at,
    at_ms: c.place.atMs,
    gaming_day: c.place.gamingDay,
    shift: c.place.shift,
    hour: c.place.hour,
    outcome: coup.outcome,
    player_total: coup.playerTotal,
    banker_total: coup.bankerTotal,
    natural: coup.natural ? 1 : 0,
    player_cards: coup.playerCards.join(' '),
    banker_cards: coup.bankerCards.join(' '),
    cards: coup.cardsUsed,
    status,
    corrections,
    bets: money.bets,
    players: money.players,
    handle: money.handle,
    paid: money.paid,
    commission: money.commission,
    win: money.win,
    theo_win: money.theoWin,
    theo_var: money.theoVar,
  };
}

/** The upserts of a coup and of each of its settled stakes. */
export function coupWrites(
  c: CoupContext,
  coup: CoupResult & { readonly settlements: readonly Settlement[] },
  commissionMode: 'deducted' | 'box',
  status: FactStatus,
  corrections: number,
): Write[] {
  return [
    { kind: 'upsert', table: AN_COUPS, row: coupRow(c, coup, commissionMode, status, corrections) },
    ...coup.settlements.map((st): Write => ({
      kind: 'upsert',
      table: AN_BETS,
      row: betRow(c, st, commissionMode, status),
    })),
  ];
}
