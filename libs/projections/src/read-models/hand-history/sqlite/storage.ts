/**
 * The hand history's SQLite storage ({@link handHistoryStorage}): how the runner lays an open hand's bets out in
 * the file. No I/O of its own (the runner runs its writes), but it is about the file, not the fold.
 */
import type { StateStorage, Write } from '../../kernel/types';
import { betLogFrom, byId } from '../bet-log';
import { type LegacyOpenHand, currentHand } from '../legacy';
import { json, openHandRow } from '../rows';
import { HH_HANDS, HH_OPEN_BETS, INLINE_CHUNKS } from '../schema';
import { type HandHistoryState, type OpenHand, handWith } from '../state';
import type { BetEntry } from '../wire';

/** Whether the SQLite file keeps this open hand's bets in {@link HH_OPEN_BETS} (more than INLINE_CHUNKS chunks). */
const betsInRows = (h: OpenHand | null): h is OpenHand =>
  h !== null && h.betLog.chunks.length > INLINE_CHUNKS;

/** The bet log as stored in hh_state when its entries are in hh_open_bets: how many full chunks are there. */
interface StoredRowsLog {
  readonly chunks: readonly [];
  readonly tail: readonly [];
  readonly inRows: number;
}

const openBetsRow = (
  tableId: string,
  roundNo: number,
  chunkNo: number,
  entries: readonly BetEntry[],
): Write => ({
  kind: 'upsert',
  table: HH_OPEN_BETS,
  row: { table_id: tableId, round_no: roundNo, chunk_no: chunkNo, entries_json: json(entries) },
});

/**
 * The SQLite runner's storage of the hand history (see {@link StateStorage}): an open hand with up to
 * {@link INLINE_CHUNKS} full chunks of bets is stored whole, as `materialize` writes it (its row with every bet,
 * its state with the whole log). Past that, its bets go to {@link HH_OPEN_BETS}: each full chunk once (it never
 * changes), the tail in the row after them, rewritten per batch; its hh_hands row has bets_json NULL and its
 * state the number of chunks in rows instead of the log. A batch then writes the new chunks, a tail of under
 * 64, the hand's row and the state, whatever the round's size (the row's players and stakes come from the
 * log's summary). When the hand ends its rows are deleted in the batch that writes its finished row (with
 * every bet, from evolve).
 */
export const handHistoryStorage: StateStorage<HandHistoryState> = {
  rowsTable: HH_OPEN_BETS,
  keyColumn: 'table_id',
  save(state) {
    const hand = state.hand;
    if (!betsInRows(hand)) return state;
    const log: StoredRowsLog = { chunks: [], tail: [], inRows: hand.betLog.chunks.length };
    return { ...state, hand: { ...hand, betLog: log } };
  },
  load(stored, rows) {
    const s = stored as HandHistoryState;
    const h = s.hand as OpenHand | LegacyOpenHand | null;
    const log = h !== null && 'betLog' in h ? (h.betLog as unknown as Partial<StoredRowsLog>) : null;
    if (h !== null && log !== null && typeof log.inRows === 'number') {
      const k = log.inRows;
      const chunks: BetEntry[][] = [];
      let tail: BetEntry[] = [];
      for (const r of rows) {
        const c = r['chunk_no'];
        if (r['round_no'] !== h.roundNo || typeof c !== 'number' || c < 0 || c > k) continue;
        const entries = JSON.parse(String(r['entries_json'])) as BetEntry[];
        if (c === k) tail = entries;
        else chunks[c] = entries;
      }
      let found = 0;
      for (let c = 0; c < k; c++) if (chunks[c] !== undefined) found += 1;
      if (found !== k)
        throw new Error(
          `${HH_OPEN_BETS}: ${chunks.length} chunks of round ${h.roundNo} stored, expected ${k}`,
        );
      const state: HandHistoryState = {
        ...s,
        hand: handWith(h as OpenHand, { betLog: betLogFrom(chunks, tail) }),
      };
      return { state, written: state };
    }
    // stored whole (or in an older shape: converted)
    const hand = currentHand(h);
    const state = hand === h ? s : { ...s, hand };
    // a whole hand past INLINE_CHUNKS (stored by older code) has no rows yet: unknown, written in full next
    return { state, written: betsInRows(hand) ? null : state };
  },
  materialize(state, written) {
    const writes: Write[] = [];
    const hand = currentHand(state.hand);
    const before = written === null ? null : currentHand(written.hand);
    const stored = betsInRows(before) ? before.betLog.chunks.length : 0; // rows 0..stored (the last: a tail)
    const sameHand = before !== null && hand !== null && before.roundNo === hand.roundNo;
    if (before !== null && stored > 0 && !sameHand) {
      for (let c = 0; c <= stored; c++) {
        writes.push({
          kind: 'delete',
          table: HH_OPEN_BETS,
          key: { table_id: state.tableId, round_no: before.roundNo, chunk_no: c },
        });
      }
    }
    if (hand === null || state.handEnd === null) return writes;
    if (!betsInRows(hand)) {
      writes.push({ kind: 'upsert', table: HH_HANDS, row: openHandRow(state.tableId, hand, state.handEnd) });
      return writes;
    }
    const chunks = hand.betLog.chunks;
    for (let c = sameHand ? stored : 0; c < chunks.length; c++)
      writes.push(openBetsRow(state.tableId, hand.roundNo, c, chunks[c] as readonly BetEntry[]));
    writes.push(openBetsRow(state.tableId, hand.roundNo, chunks.length, hand.betLog.tail));
    writes.push({
      kind: 'upsert',
      table: HH_HANDS,
      row: openHandRow(state.tableId, hand, state.handEnd, false),
    });
    return writes;
  },
  logical(tables) {
    const entries = new Map<string, BetEntry[]>();
    const rows = [...(tables[HH_OPEN_BETS] ?? [])].sort(
      (a, b) =>
        byId(String(a['table_id']), String(b['table_id'])) ||
        Number(a['round_no']) - Number(b['round_no']) ||
        Number(a['chunk_no']) - Number(b['chunk_no']),
    );
    for (const r of rows) {
      const key = `${String(r['table_id'])}\u0000${String(r['round_no'])}`;
      let list = entries.get(key);
      if (list === undefined) entries.set(key, (list = []));
      list.push(...(JSON.parse(String(r['entries_json'])) as BetEntry[]));
    }
    const hands = (tables[HH_HANDS] ?? []).map((r) => {
      const list = entries.get(`${String(r['table_id'])}\u0000${String(r['round_no'])}`);
      return r['bets_json'] === null && list !== undefined ? { ...r, bets_json: json(list) } : r;
    });
    return { ...tables, [HH_HANDS]: hands, [HH_OPEN_BETS]: [] };
  },
};
