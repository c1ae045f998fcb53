import type { Principal } from '@coup/auth';
import {
  ONLINE_CROUPIER,
  TABLE_ID_PATTERN,
  onlineCashier,
  onlineTableId,
  personalTableOwner,
  tableView,
  type Actor,
  type TableState,
} from '@coup/table';
import { ApiError } from '../common/api-error';

/**
 * The online game's own rules at the HTTP edge (ADR-10), beside the decider's: the system actors that act for the
 * player, which players can have a personal table, whose table it is, and how the exit's refusals read to a player.
 */

/** The online cashier (role admin) buying in and cashing out for this player; recorded in the events as such. */
export const cashier = (p: Principal): Actor => ({ id: onlineCashier(p.id), role: 'admin' });
/** The online croupier (role dealer) opening betting on personal tables. */
export const croupier: Actor = { id: ONLINE_CROUPIER, role: 'dealer' };

/**
 * A player whose personal table id is a table id and is known as its personal table (its id 1 to 57 of A-Z a-z 0-9
 * _ -, a letter or digit first): 400 otherwise, so that no online table is taken for a shared one.
 */
export function checkOnlinePlayer(playerId: string): void {
  const tableId = onlineTableId(playerId);
  if (!TABLE_ID_PATTERN.test(tableId) || personalTableOwner(tableId) !== playerId)
    throw new ApiError(
      400,
      'INVALID_PARAMETER',
      'player ids for the online game are 1 to 57 of A-Z a-z 0-9 _ -, a letter or digit first',
    );
}

/** A player acts only on its own personal table: 403 for anyone else's. */
export function checkOwnTable(tableId: string, p: Principal): void {
  if (tableId !== onlineTableId(p.id)) throw new ApiError(403, 'FORBIDDEN', 'this is not your online table');
}

/** The player's view of its personal table: 404 before the table is opened. */
export function openedTableView(
  tableId: string,
  p: Principal,
  state: TableState,
): ReturnType<typeof tableView> {
  const view = tableView(state, { id: p.id, role: p.role });
  if (view.status === 'none')
    throw new ApiError(404, 'UNKNOWN_TABLE', `there is no table '${tableId}'; open it first`);
  return view;
}

/** The exit's refusals as a player reads them: not seated (no chips), or a coup still in play; others unchanged. */
export function exitRefusal(error: unknown): unknown {
  const code = (error as ApiError).code;
  if (code === 'UNKNOWN_PLAYER') return new ApiError(409, 'NOT_SEATED', 'you have no chips on this table');
  if (code === 'BETS_IN_PLAY')
    return new ApiError(
      409,
      'COUP_INCOMPLETE',
      'a coup is incomplete: DEAL it or CLEAR your bets, then exit',
    );
  return error;
}
