/**
 * The online single-player game's names (ADR-10): a player's personal table is `online-<playerId>`, run for it by
 * named system actors (the cashier buys chips in and cashes out, the croupier opens shoes and betting), so the
 * events say who did what. The decider holds such a table to its player (see `decide`).
 */
import { PERSONAL_TABLE_OWNER_PATTERN } from './ids';

const PREFIX = 'online-';

/** The rules of the online single-player game (rules text 000): 8 decks shuffled before every coup, DEAL by the player. */
export const ONLINE_RULES = {
  dealing: 'rng',
  decks: 8,
  shuffle: 'every-coup',
  dealtBy: 'player',
  tiePays: 8,
  commission: 'deducted',
  chips: [100, 500, 2500, 10000, 50000],
  limits: {
    player: { min: 100, max: 100_000 },
    banker: { min: 100, max: 100_000 },
    tie: { min: 100, max: 20_000 },
  },
} as const;

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
  return PERSONAL_TABLE_OWNER_PATTERN.test(owner) ? owner : null;
}
