/** The hand history's rows: a shoe's, a hand's (open or finished) and its players'. */
import type { Card, Settlement } from '@coup/table';
import type { Row, SqlValue, Write } from '../kernel/types';
import { betsOfLog, stakesOfLog } from './bet-log';
import { HH_HAND_PLAYERS, HH_HANDS, HH_SHOES } from './schema';
import type { HandHistoryState, OpenHand, SettledHand, ShoeRecord, SpanEnd } from './state';
import type { Amendment, BetEntry, SettledResult } from './wire';

export const json = (v: unknown): string => JSON.stringify(v);

export function shoeRow(tableId: string, s: ShoeRecord): Write {
  return {
    kind: 'upsert',
    table: HH_SHOES,
    row: {
      table_id: tableId,
      shoe_no: s.shoeNo,
      dealing: s.dealing,
      shuffle: s.shuffle,
      decks: s.decks,
      length: s.length,
      commitment: s.commitment,
      seed: s.seed,
      burn_card: s.burnCard,
      burn_count: s.burnCount,
      first_coup_index: s.firstCoupIndex,
      cut_card: s.cutCard,
      started_at: s.startedAt,
      started_by: s.startedBy,
      started_position: s.startedPosition,
      started_revision: s.startedRevision,
      started_prev_hash: s.startedPrevHash,
      started_hash: s.startedHash,
      ended_at: s.endedAt,
      end_reason: s.endReason,
      ended_position: s.endedPosition,
      ended_revision: s.endedRevision,
      ended_prev_hash: s.endedPrevHash,
      ended_hash: s.endedHash,
      coups: s.coups,
      voids: s.voids,
      first_round: s.firstRound,
      last_round: s.lastRound,
    },
  };
}

export interface Ending {
  readonly status: 'resolved' | 'voided';
  readonly at: string;
  readonly outcome: string | null;
  readonly natural: boolean | null;
  readonly playerCards: readonly Card[] | null;
  readonly bankerCards: readonly Card[] | null;
  readonly playerTotal: number | null;
  readonly bankerTotal: number | null;
  readonly settlements: readonly Settlement[];
  readonly commissionMode: 'deducted' | 'box' | null;
  readonly void: {
    readonly reason: string;
    readonly by: string;
    readonly returned: readonly { playerId: string; amount: number }[];
  } | null;
}

/** Stakes per player in play, from the hand's own bets (a clear takes back all of a player's stakes). */
function stakesOf(bets: readonly BetEntry[]): Map<string, number> {
  const stakes = new Map<string, number>();
  for (const b of bets) {
    if (b.kind === 'bet') stakes.set(b.playerId, (stakes.get(b.playerId) ?? 0) + b.amount);
    else stakes.delete(b.playerId);
  }
  return new Map([...stakes].filter(([, v]) => v > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A hand's money: stakes, paid back, commission, and what the house won (0 while open). */
function moneyOf(stakes: ReadonlyMap<string, number>, ending: Ending | null) {
  let staked = 0;
  for (const v of stakes.values()) staked += v;
  let paid = 0;
  let commission = 0;
  if (ending?.void) for (const r of ending.void.returned) paid += r.amount;
  for (const s of ending?.settlements ?? []) {
    paid += s.paid;
    commission += s.commission;
  }
  const settledStaked =
    ending?.status === 'resolved' ? ending.settlements.reduce((a, s) => a + s.amount, 0) : staked;
  const box = ending?.commissionMode === 'box' ? commission : 0;
  return {
    settledStaked,
    paid: ending === null ? 0 : paid,
    commission,
    house: ending === null ? 0 : settledStaked - paid + box,
  };
}

/**
 * The columns of a hand's row that its ending decides: status, result, settlement, money, void, and the
 * corrections or void of the coup after it settled (`original` and `amendments`).
 */
function endingColumns(
  status: string,
  stakes: ReadonlyMap<string, number>,
  ending: Ending | null,
  original: SettledResult | null,
  amendments: readonly Amendment[],
): Record<string, SqlValue> {
  const money = moneyOf(stakes, ending);
  return {
    status: ending?.status ?? status,
    resolved_at: ending?.at ?? null,
    outcome: ending?.outcome ?? null,
    natural: ending?.natural === null || ending === null ? null : ending.natural ? 1 : 0,
    player_cards: ending?.playerCards ? ending.playerCards.join(' ') : null,
    banker_cards: ending?.bankerCards ? ending.bankerCards.join(' ') : null,
    player_total: ending?.playerTotal ?? null,
    banker_total: ending?.bankerTotal ?? null,
    settlements_json: json(ending?.settlements ?? []),
    total_staked: money.settledStaked,
    total_paid: money.paid,
    commission: money.commission,
    commission_mode: ending?.commissionMode ?? null,
    house_result: money.house,
    void_reason: ending?.void?.reason ?? null,
    voided_by: ending?.void?.by ?? null,
    returned_json: ending?.void ? json(ending.void.returned) : null,
    amendments: amendments.length,
    amendments_json: json(amendments),
    original_json: original === null ? null : json(original),
  };
}

/** The columns of a hand's row that its span decides (where it ends so far). */
const spanEndColumns = (end: SpanEnd) => ({
  last_position: end.position,
  last_revision: end.revision,
  event_count: end.count,
  last_hash: end.hash,
});

/**
 * The hh_hands row of a hand, open (ending null) or finished. `betsJson` is the JSON of the hand's bets
 * flattened (`betsOfLog`; null: the open hand's bets are in hh_open_bets, see `handHistoryStorage` in
 * sqlite/storage.ts), `stakes` the stakes in play and `betCount` the bets placed: once per row written, never
 * per bet.
 */
function handRow(
  tableId: string,
  h: OpenHand,
  end: SpanEnd,
  betsJson: string | null,
  stakes: Map<string, number>,
  betCount: number,
  ending: Ending | null,
): Row {
  // the ending's columns first, the others set on that object: spreading them into one literal was one of the
  // costliest lines of the fold (a row's columns are written by name, in the table's order, whatever its keys' order)
  const row: Record<string, SqlValue> = endingColumns(h.status, stakes, ending, null, []);
  row['table_id'] = tableId;
  row['round_no'] = h.roundNo;
  row['shoe_no'] = h.shoeNo;
  row['opened_at'] = h.openedAt;
  row['opened_by'] = h.openedBy;
  row['deadline'] = h.deadline;
  row['closed_at'] = h.closedAt;
  row['closed_how'] = h.closedHow;
  row['closed_by'] = h.closedBy;
  row['dealer'] = h.dealer ?? h.openedBy;
  row['cards_json'] = json(h.cards);
  row['corrections_json'] = json(h.corrections);
  row['bets_json'] = betsJson;
  row['players'] = [...stakes.keys()].join(',');
  row['bet_count'] = betCount;
  row['first_position'] = h.firstPosition;
  row['first_revision'] = h.firstRevision;
  row['last_position'] = end.position;
  row['last_revision'] = end.revision;
  row['event_count'] = end.count;
  row['last_hash'] = end.hash;
  row['first_prev_hash'] = h.firstPrevHash;
  row['replay_round'] = h.replayRound;
  row['replay_revision'] = h.replayRevision;
  return row;
}

const betCountOf = (bets: readonly BetEntry[]): number =>
  bets.reduce((n, b) => (b.kind === 'bet' ? n + 1 : n), 0);

/**
 * The row of the open hand (not finished), e.g. once per batch: with the JSON of all its bets, or (`inline`
 * false) without (bets_json NULL: the bets are in hh_open_bets); players, bet count and stakes from the log's
 * summary and tail either way.
 */
export function openHandRow(tableId: string, h: OpenHand, end: SpanEnd, inline = true): Row {
  const { stakes, bets } = stakesOfLog(h.betLog);
  return handRow(tableId, h, end, inline ? json(betsOfLog(h.betLog)) : null, stakes, bets, null);
}

/** A finished hand's rows (its hh_hands row with every bet, and a row per player), and its players' stakes. */
export function finish(
  s: HandHistoryState,
  h: OpenHand,
  end: SpanEnd,
  ending: Ending,
): { writes: Write[]; stakes: Map<string, number> } {
  const bets = betsOfLog(h.betLog);
  const stakes = stakesOf(bets);
  const writes: Write[] = [
    {
      kind: 'upsert',
      table: HH_HANDS,
      row: handRow(s.tableId, h, end, json(bets), stakes, betCountOf(bets), ending),
    },
    ...playerRows(s.tableId, h.roundNo, stakes, ending),
  ];
  return { writes, stakes };
}

/** A hand's row per player with stakes or money back: staked, paid back, commission, net. */
function playerRows(
  tableId: string,
  roundNo: number,
  stakes: ReadonlyMap<string, number>,
  ending: Ending,
): Write[] {
  const perPlayer = new Map<string, { staked: number; paid: number; commission: number }>();
  for (const [playerId, staked] of stakes) perPlayer.set(playerId, { staked, paid: 0, commission: 0 });
  const entry = (playerId: string) => {
    let p = perPlayer.get(playerId);
    if (!p) perPlayer.set(playerId, (p = { staked: 0, paid: 0, commission: 0 }));
    return p;
  };
  for (const st of ending.settlements) {
    const p = entry(st.playerId);
    p.paid += st.paid;
    p.commission += st.commission;
  }
  for (const r of ending.void?.returned ?? []) entry(r.playerId).paid += r.amount;
  const writes: Write[] = [];
  for (const [playerId, p] of perPlayer) {
    writes.push({
      kind: 'upsert',
      table: HH_HAND_PLAYERS,
      row: {
        table_id: tableId,
        round_no: roundNo,
        player_id: playerId,
        staked: p.staked,
        paid: p.paid,
        commission: p.commission,
        net: p.paid - p.staked,
      },
    });
  }
  return writes;
}

/**
 * The writes of a settled coup corrected or voided: its hh_hands row updated in place (the result and money in
 * force, the cards, the original and the amendments, the span to the amending event; its bets as written) and
 * its players' rows.
 */
export function amendedRows(tableId: string, settled: SettledHand, end: SpanEnd): Write[] {
  const stakes = new Map(settled.stakes);
  return [
    {
      kind: 'update',
      table: HH_HANDS,
      key: { table_id: tableId, round_no: settled.roundNo },
      set: {
        ...endingColumns('resolved', stakes, settled.ending, settled.original, settled.amendments),
        cards_json: json(settled.cards),
        ...spanEndColumns(end),
      },
    },
    ...playerRows(tableId, settled.roundNo, stakes, settled.ending),
  ];
}
