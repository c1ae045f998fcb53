/**
 * The online single-player game's names (ADR-10): a player's personal table is `online-<playerId>`, run for it by
 * named system actors (the cashier buys chips in and cashes out, the croupier opens shoes and betting), so the
 * events say who did what. The decider holds such a table to its player (see `decide`).
 */
const PREFIX = 'online-';
/** What follows the prefix: a player id made of table-id characters (a table id holds no `.:@+`). */
const OWNER = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** The system actor (role `dealer`) that starts shoes and opens betting on personal tables. */
export const ONLINE_CROUPIER = 'online-croupier';

/** The system actor (role `admin`) that buys chips in and cashes out for `playerId` on its personal table. */
export function onlineCashier(playerId: string): string {
  return `online-cashier:${playerId}`;
}

/** The personal table of `playerId`. */
export function onlineTableId(playerId: string): string {
  return `${PREFIX}${playerId}`;
}

/** The player whose personal table `tableId` is, or null for every other table. */
export function personalTableOwner(tableId: string | null): string | null {
  if (tableId === null || !tableId.startsWith(PREFIX)) return null;
  const owner = tableId.slice(PREFIX.length);
  return OWNER.test(owner) ? owner : null;
}
