/**
 * The statistics' rows counted from the analysts' facts instead of the per-UTC-day counters, in the counters'
 * shape (so the same summaries read them), per table, gaming day and rules in force (or per shoe):
 * - coups, outcomes, naturals: the coups not voided (an_fact_coups holds each coup's result in force); voids: the
 *   coups voided after they settled (on their own day, as the counters count them) and the rounds voided before
 *   (an_fact_amendments, when voided);
 * - handle, paid, commission: the stakes not voided (an_fact_bets);
 * - each bet type's results: how every offered bet ended on each coup, from the features of its cards (the facts
 *   hold stakes only, so the cards say how an unbacked bet would have ended), with the table's rules in force.
 */
import {
  type CoupFeatures,
  type Outcome,
  type PayoutRules,
  type Spot,
  isSideSpot,
  payoutOf,
} from '@coup/engine';
import { type GameMode, type TableRules, gameOf, offeredSpots, payoutRulesOf } from '@coup/table';
import type { Raw } from '../../read/query-kit';
import type { FactWhere } from '../../reports/sql';
import type { SqlParam, SqlReader } from '../../sql/reader';
import { AN_SHOES, AN_TABLES } from '../analyst/schema-dims';
import { AN_AMENDMENTS, AN_BETS, AN_COUPS } from '../analyst/schema-facts';
import type { BetRow } from './bet-summary';
import { resultKey } from './fold';
import { BET_COUNTERS, STATS_COUNTERS, type StatsCounter } from './schema';

/** A table's rules at one opening, as the statistics read them. */
interface Rules {
  readonly decks: number;
  readonly tiePays: number;
  readonly game: GameMode;
  readonly payout: PayoutRules;
  readonly spots: readonly Spot[];
}

/** A table's day of one bet type, with how many coups ended it each way. */
export interface FactBet {
  readonly tableId: string;
  readonly day: string;
  readonly row: BetRow;
  readonly results: ReadonlyMap<string, number>;
}

const NOT_VOIDED = "status <> 'voided'";

/** ` WHERE` the conditions (theirs first), or nothing. */
const whereOf = (own: readonly string[], w: FactWhere): string => {
  const all = [...own, ...w.sql];
  return all.length === 0 ? '' : ` WHERE ${all.join(' AND ')}`;
};

/** Each counter's expression in one branch of the union (0 when the branch does not count it). */
const counted = (exprs: Partial<Record<StatsCounter, string>>): string =>
  STATS_COUNTERS.map((k) => `${exprs[k] ?? '0'} AS ${k}`).join(', ');

const live = (cond: string) => `CASE WHEN ${NOT_VOIDED} AND ${cond} THEN 1 ELSE 0 END`;
const onSpot = (spot: string, column: string) => `CASE WHEN spot = '${spot}' THEN ${column} ELSE 0 END`;

/** The union of the three facts' counters, each branch filtered by `w` (the same conditions apply to each). */
function unionSql(w: FactWhere): string {
  const coups = counted({
    coups: `CASE WHEN ${NOT_VOIDED} THEN 1 ELSE 0 END`,
    player_wins: live("outcome = 'player'"),
    banker_wins: live("outcome = 'banker'"),
    ties: live("outcome = 'tie'"),
    naturals: live('"natural" = 1'),
    voids: "CASE WHEN status = 'voided' THEN 1 ELSE 0 END",
  });
  const bets = counted({
    handle_player: onSpot('player', 'stake'),
    handle_banker: onSpot('banker', 'stake'),
    handle_tie: onSpot('tie', 'stake'),
    paid_player: onSpot('player', 'paid'),
    paid_banker: onSpot('banker', 'paid'),
    paid_tie: onSpot('tie', 'paid'),
    commission: 'commission',
    box_commission: "CASE WHEN commission_mode = 'box' THEN commission ELSE 0 END",
  });
  const keys = 'table_id, gaming_day, shoe_no, rules_version';
  return [
    `SELECT ${keys}, ${coups} FROM ${AN_COUPS}${whereOf([], w)}`,
    `SELECT ${keys}, ${bets} FROM ${AN_BETS}${whereOf([NOT_VOIDED], w)}`,
    // a round voided before it settled: the rules of its shoe
    `SELECT a.table_id, a.gaming_day, a.shoe_no, s.rules_version, ${counted({ voids: '1' })}
     FROM (SELECT table_id, gaming_day, shoe_no FROM ${AN_AMENDMENTS}${whereOf(["kind = 'round-void'"], w)}) a
     LEFT JOIN ${AN_SHOES} s ON s.table_id = a.table_id AND s.shoe_no = a.shoe_no`,
  ].join(' UNION ALL ');
}

const sums = STATS_COUNTERS.map((k) => `SUM(${k}) AS ${k}`).join(', ');

/**
 * The rules of every opening of the tables (one table's with `tableId`), by `table|version`, and each table's
 * latest by `table|` (for a row whose rules are not known: a round voided with no shoe).
 */
async function rulesOf(sql: SqlReader, tableId: string | undefined): Promise<Map<string, Rules>> {
  const rows = await sql.all<Raw>(
    `SELECT table_id, rules_version, rules_json FROM ${AN_TABLES}${tableId === undefined ? '' : ' WHERE table_id = ?'} ORDER BY rules_version`,
    tableId === undefined ? [] : [tableId],
  );
  const out = new Map<string, Rules>();
  for (const r of rows) {
    const rules = JSON.parse(String(r.rules_json)) as TableRules;
    const entry: Rules = {
      decks: rules.decks,
      tiePays: rules.tiePays,
      game: gameOf(rules),
      payout: payoutRulesOf(rules),
      spots: offeredSpots(rules),
    };
    out.set(`${String(r.table_id)}|${Number(r.rules_version)}`, entry);
    out.set(`${String(r.table_id)}|`, entry);
  }
  return out;
}

/** A fact row's rules (`rules_version` NULL: the table's latest). */
function rulesFor(rules: Map<string, Rules>, r: Raw): Rules | undefined {
  const v = r.rules_version;
  return rules.get(`${String(r.table_id)}|${v === null || v === undefined ? '' : Number(v)}`);
}

/** The counters' columns of a fact row, with its rules (as a st_daily or st_shoes row has them). */
function withRules(rules: Map<string, Rules>, r: Raw): Raw {
  const x = rulesFor(rules, r);
  return { ...r, decks: x?.decks ?? null, tie_pays: x?.tiePays ?? null, game: x?.game ?? null };
}

/** st_daily's rows from the facts: per table, gaming day (`day`) and rules, ordered by day and table. */
export async function factDailyRows(
  sql: SqlReader,
  w: FactWhere,
  tableId: string | undefined,
  order: (column: string) => string,
): Promise<Raw[]> {
  const rows = await sql.all<Raw>(
    `SELECT table_id, gaming_day AS "day", rules_version, ${sums} FROM (${unionSql(w)}) f
     GROUP BY table_id, gaming_day, rules_version
     ORDER BY ${order('gaming_day')}, ${order('table_id')}, rules_version`,
    repeated(w, 3),
  );
  const rules = await rulesOf(sql, tableId);
  return rows.map((r) => withRules(rules, r));
}

/** st_shoes' rows of one table from the facts: per shoe, its first gaming day in the filter (`first_day`). */
export async function factShoeRows(sql: SqlReader, w: FactWhere, tableId: string): Promise<Raw[]> {
  const rows = await sql.all<Raw>(
    `SELECT table_id, shoe_no, rules_version, MIN(gaming_day) AS first_day, ${sums} FROM (${unionSql(w)}) f
     GROUP BY table_id, shoe_no, rules_version ORDER BY shoe_no, rules_version`,
    repeated(w, 3),
  );
  const rules = await rulesOf(sql, tableId);
  return rows.map((r) => withRules(rules, r));
}

const repeated = (w: FactWhere, n: number): SqlParam[] =>
  Array.from({ length: n }, () => w.params as SqlParam[]).flat();

/**
 * The coups not voided per table, gaming day and rules, grouped by what decides every bet: the outcome, the
 * totals, the cards in each hand (their text is 'Kh 9s' or 'Kh 9s 2c') and whether each hand's first two cards
 * pair (rank) or pair perfectly (rank and suit).
 */
function featureSql(w: FactWhere): string {
  const pair = (hand: string, chars: number) =>
    `CASE WHEN SUBSTR(${hand}, 1, ${chars}) = SUBSTR(${hand}, 4, ${chars}) THEN 1 ELSE 0 END`;
  const keys =
    'table_id, gaming_day, rules_version, outcome, player_total, banker_total, p_len, b_len, p_pair, b_pair, p_perfect, b_perfect';
  return `SELECT ${keys}, COUNT(*) AS coups FROM (
      SELECT table_id, gaming_day, rules_version, outcome, player_total, banker_total,
        LENGTH(player_cards) AS p_len, LENGTH(banker_cards) AS b_len,
        ${pair('player_cards', 1)} AS p_pair, ${pair('banker_cards', 1)} AS b_pair,
        ${pair('player_cards', 2)} AS p_perfect, ${pair('banker_cards', 2)} AS b_perfect
      FROM ${AN_COUPS}${whereOf([NOT_VOIDED], w)}) c
    GROUP BY ${keys}`;
}

/**
 * A group's features. A hand's first two cards make a natural exactly when it holds two cards totalling 8 or 9:
 * a natural ends the drawing, and a hand that drew had 0 to 7 on two cards.
 */
function featuresOf(r: Raw): CoupFeatures {
  const cards = (len: number) => (len + 1) / 3;
  const p = cards(Number(r.p_len));
  const b = cards(Number(r.b_len));
  const playerTotal = Number(r.player_total);
  const bankerTotal = Number(r.banker_total);
  return {
    outcome: String(r.outcome) as Outcome,
    playerTotal,
    bankerTotal,
    playerCards: p,
    bankerCards: b,
    playerNatural: p === 2 && playerTotal >= 8,
    bankerNatural: b === 2 && bankerTotal >= 8,
    playerPair: Number(r.p_pair) === 1,
    bankerPair: Number(r.b_pair) === 1,
    playerPerfectPair: Number(r.p_perfect) === 1,
    bankerPerfectPair: Number(r.b_perfect) === 1,
  };
}

const betSql = (w: FactWhere): string => {
  const n = (cond: string) => `SUM(CASE WHEN ${cond} THEN 1 ELSE 0 END)`;
  return `SELECT table_id, gaming_day, rules_version, spot, COUNT(*) AS bets,
      ${n("result = 'win'")} AS wins, ${n("result = 'push'")} AS pushes, ${n("result = 'lose'")} AS losses,
      SUM(stake) AS handle, SUM(paid) AS paid, SUM(commission) AS commission,
      SUM(CASE WHEN commission_mode = 'box' THEN commission ELSE 0 END) AS box_commission
    FROM ${AN_BETS}${whereOf([NOT_VOIDED], w)}
    GROUP BY table_id, gaming_day, rules_version, spot`;
};

/** Text in byte order (ids and days are ASCII). */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Tally {
  readonly tableId: string;
  readonly day: string;
  readonly version: number;
  readonly rules: Rules;
  coups: number;
  readonly results: Map<Spot, Map<string, number>>;
  readonly bets: Map<Spot, Raw>;
}

/** st_bets' rows (with st_bet_results' counts) from the facts: per table, gaming day, rules and bet type. */
export async function factBetRows(
  sql: SqlReader,
  w: FactWhere,
  tableId: string | undefined,
): Promise<FactBet[]> {
  const rules = await rulesOf(sql, tableId);
  const tallies = new Map<string, Tally>();
  const tallyOf = (r: Raw): Tally | undefined => {
    const key = `${String(r.table_id)}|${String(r.gaming_day)}|${String(r.rules_version)}`;
    let t = tallies.get(key);
    const x = rulesFor(rules, r);
    if (t === undefined && x !== undefined) {
      t = {
        tableId: String(r.table_id),
        day: String(r.gaming_day),
        version: Number(r.rules_version),
        rules: x,
        coups: 0,
        results: new Map(),
        bets: new Map(),
      };
      tallies.set(key, t);
    }
    return t;
  };
  for (const r of await sql.all<Raw>(featureSql(w), w.params)) {
    const t = tallyOf(r);
    if (t === undefined) continue;
    const n = Number(r.coups);
    const features = featuresOf(r);
    t.coups += n;
    for (const spot of t.rules.spots) {
      const key = resultKey(payoutOf(spot, features, t.rules.payout));
      const counts = t.results.get(spot) ?? new Map<string, number>();
      t.results.set(spot, counts.set(key, (counts.get(key) ?? 0) + n));
    }
  }
  for (const r of await sql.all<Raw>(betSql(w), w.params)) tallyOf(r)?.bets.set(String(r.spot) as Spot, r);
  return [...tallies.entries()]
    .sort(([, a], [, b]) => byText(a.day, b.day) || byText(a.tableId, b.tableId) || a.version - b.version)
    .flatMap(([, t]) => betRowsOf(t));
}

/** A tally's rows: every spot offered (and any staked), as st_bets has them. */
function betRowsOf(t: Tally): FactBet[] {
  const spots = [...new Set([...t.rules.spots, ...t.bets.keys()])];
  return spots.map((spot) => {
    const b = t.bets.get(spot);
    const counters = Object.fromEntries(BET_COUNTERS.map((k) => [k, Number(b?.[k] ?? 0)]));
    const row = {
      ...counters,
      coups: t.rules.spots.includes(spot) ? t.coups : 0,
      spot,
      paytable: isSideSpot(spot) ? (t.rules.payout.paytables?.[spot] ?? null) : null,
      game: t.rules.game,
      decks: t.rules.decks,
      tie_pays: t.rules.tiePays,
    } as BetRow;
    return { tableId: t.tableId, day: t.day, row, results: t.results.get(spot) ?? new Map() };
  });
}
