/**
 * Table view (`tv_`): what the dealer console shows now, one row per table plus one row per seated player.
 * The fold is the table decider's own `evolve` (the same code the service and the browser use), and the row is
 * `tableView` of that state: an unrevealed seed is never written.
 */
import { type SpotAmounts, type TableState, initialState, tableView } from '@coup/table';
import { tableAfter } from '../kernel/table-fold';
import {
  type Evolution,
  type ProjectionEvent,
  type ProjectionModel,
  type TableDef,
  type Write,
  byTable,
  int,
  only,
  text,
} from '../kernel/types';

export interface TableViewState {
  readonly position: number;
  readonly tableId: string;
  readonly table: TableState;
  /** Stream revision of the last event applied. */
  readonly revision: number;
  /** `at` of the last event applied. */
  readonly updatedAt: string | null;
}

export const TV_TABLES = 'tv_tables';

/** No stakes: the totals of a round that is not open. */
const NO_BETS: SpotAmounts = { player: 0, banker: 0, tie: 0 };
export const TV_PLAYERS = 'tv_players';

const tables: readonly TableDef[] = [
  {
    name: TV_TABLES,
    doc: 'One row per table: its current view.',
    primaryKey: ['table_id'],
    columns: [
      text('table_id', 'Table id'),
      text('status', "'open' or 'closed'"),
      text('phase', "'idle' | 'ready' | 'betting' | 'dealing' | 'closed'"),
      int('round_no', 'Last round opened (0 before the first)'),
      text('round_status', "Current/last round: 'betting' | 'dealing' | 'resolved' | 'voided', or NULL"),
      text('deadline', 'Betting timer deadline (ISO) of the current round, or NULL'),
      int('shoe_no', 'Current (or last) shoe number, or NULL'),
      int('shoe_cards_left', 'Cards left in the shoe (the coup being dealt counted as dealt)'),
      int('shoe_cut_card_out', '1 when the cut card is out'),
      text('shoe_commitment', 'sha256 commitment of the shoe seed (rng tables)'),
      text('shoe_seed', 'The seed, once revealed by ShoeEnded (never before)'),
      int('bets_player', 'Stakes on player this round (all players)'),
      int('bets_banker', 'Stakes on banker this round'),
      int('bets_tie', 'Stakes on tie this round'),
      text(
        'bets_totals_json',
        'Stakes on every spot this round (all players), side bets included: {player, banker, tie, <side bet>...}; a side bet only when staked',
      ),
      text(
        'bets_json',
        'Stakes per player this round: [{playerId, player, banker, tie, <side bet>...}] (a side bet only when staked)',
      ),
      text('cards_json', 'Cards of the current round in dealing order: [{index, card, to, slot}]'),
      text('result_json', 'The current round result (CoupSummary) once resolved, else NULL'),
      text('last_result_json', 'The last resolved coup (CoupSummary), or NULL'),
      text('rules_json', 'The table rules'),
      text('view_json', 'The whole view as the API shows it to staff (`tableView` of @coup/table)'),
      text('updated_at', 'Time (`at`) of the last event applied'),
      int('position', 'Global position of the last event applied'),
      int('revision', 'Stream revision of the last event applied'),
    ],
  },
  {
    name: TV_PLAYERS,
    doc: 'One row per seated player: chips at the table and box commission owed.',
    primaryKey: ['table_id', 'player_id'],
    indexes: [{ name: 'player', columns: ['player_id'] }],
    columns: [
      text('table_id', 'Table id'),
      text('player_id', 'Player id'),
      int('chips', 'Chips at the table (cents), stakes on the layout excluded'),
      int('commission_owed', 'Box commission owed (cents)'),
    ],
  },
];

/** `once(state, e, step)`, inlined: the step always returns a new state, so it stamps the position itself. */
function evolveTableView(state: TableViewState, e: ProjectionEvent): Evolution<TableViewState> {
  if (e.position <= state.position) return only(state);
  return evolveTableViewStep(state, e);
}

function evolveTableViewStep(s: TableViewState, e: ProjectionEvent): Evolution<TableViewState> {
  const table = tableAfter(s.table, e);
  const writes: Write[] = [];
  // a player who cashed out owing nothing leaves the table
  if (e.event.type === 'PlayerCashedOut' && e.event.data.commissionOwed === 0) {
    writes.push({
      kind: 'delete',
      table: TV_PLAYERS,
      key: { table_id: s.tableId, player_id: e.event.data.playerId },
    });
  }
  const at = (e.event.data as { at?: unknown }).at;
  return {
    // written out (not `...s`): the state's fields in order, once per event
    state: {
      position: e.position,
      tableId: s.tableId,
      table,
      revision: e.revision,
      updatedAt: typeof at === 'string' ? at : s.updatedAt,
    },
    writes,
  };
}

/** The rows that mirror the state: the table row and a row per seated player. */
export function tableViewRows(state: TableViewState): Write[] {
  const view = tableView(state.table);
  const round = view.round;
  const open = round !== null && (round.status === 'betting' || round.status === 'dealing');
  const shoe = view.shoe;
  const writes: Write[] = [
    {
      kind: 'upsert',
      table: TV_TABLES,
      row: {
        table_id: state.tableId,
        status: view.status,
        phase: view.phase,
        round_no: view.roundNo,
        round_status: round?.status ?? null,
        deadline: open ? round.deadline : null,
        shoe_no: shoe?.shoeNo ?? null,
        shoe_cards_left: shoe?.cardsLeft ?? null,
        shoe_cut_card_out: shoe === null ? null : shoe.cutCardOut ? 1 : 0,
        shoe_commitment: shoe?.commitment ?? null,
        shoe_seed: shoe?.seed ?? null,
        bets_player: open ? round.bets.totals.player : 0,
        bets_banker: open ? round.bets.totals.banker : 0,
        bets_tie: open ? round.bets.totals.tie : 0,
        bets_totals_json: JSON.stringify(open ? round.bets.totals : NO_BETS),
        bets_json: JSON.stringify(round?.bets.players ?? []),
        cards_json: JSON.stringify(round?.cards ?? []),
        result_json: round?.result ? JSON.stringify(round.result) : null,
        last_result_json: view.lastResult ? JSON.stringify(view.lastResult) : null,
        rules_json: view.rules ? JSON.stringify(view.rules) : null,
        view_json: JSON.stringify(view),
        updated_at: state.updatedAt,
        position: state.position,
        revision: state.revision,
      },
    },
  ];
  for (const p of view.players) {
    writes.push({
      kind: 'upsert',
      table: TV_PLAYERS,
      row: {
        table_id: state.tableId,
        player_id: p.playerId,
        chips: p.chips,
        commission_owed: p.commissionOwed,
      },
    });
  }
  return writes;
}

export const tableViewProjection: ProjectionModel<TableViewState> = {
  name: 'table-view',
  prefix: 'tv',
  // 3: the decider's state holds the round's stakes (STATE_VERSION 2): its stored states are refolded
  version: 3,
  description: 'What the console shows now: phase, round, deadline, shoe, bets, players, cards and result.',
  tables,
  keyOf: byTable,
  initial: (tableId) => ({ position: 0, tableId, table: initialState, revision: -1, updatedAt: null }),
  evolve: evolveTableView,
  materialize: tableViewRows,
};
