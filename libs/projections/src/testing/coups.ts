/**
 * Coups for tests, as the cards dealt in order (player, banker, player, banker, then the third cards), each
 * deciding a bet of the catalogue: a table's live dealer can deal exactly these.
 */
import type { Card } from '@coup/engine';

export const COUPS = {
  /** Player 2+3=5 draws K (5); banker 3+T=3 draws on a 0 and takes 4: a three-card banker 7 wins (Dragon 7). */
  dragon7: ['2c', '3d', '3c', 'Td', 'Kc', '4h'],
  /** Player 2+3=5 draws 3 (8); banker 5+T=5 stands on a player's 3: a three-card player 8 wins (Panda 8). */
  panda8: ['2c', '5d', '3c', 'Td', '3h'],
  /** Player 2+3=5 draws K (5); banker 3+3=6, a pair, stands on a player's 0: banker wins with 6 on five cards. */
  bankerSixPair: ['2c', '3d', '3c', '3h', 'Kc'],
  /** Player 5+4=9, a natural; banker 3+3=6, a pair: the player wins on four cards. */
  playerNaturalBankerPair: ['5c', '3d', '4c', '3h'],
  /** Player 7h 7h, a perfect pair (4); banker 9+T=9 natural: the banker wins (a natural by 5). */
  playerPerfectPair: ['7h', '9c', '7h', 'Td'],
  /** Player 9+K=9, a natural, against banker 5+2=7: the player wins on four cards (card 3 as 4d: a tie 9-9). */
  playerNatural: ['9d', '5d', 'Kd', '2d'],
  /** Player 5+2=7 stands; banker 9+K=9, a natural: the banker wins on four cards (card 1 as 6d: player 7-6). */
  bankerNatural: ['5d', '9d', '2d', 'Kd'],
} as const satisfies Record<string, readonly Card[]>;

/**
 * A live one-deck EZ table offering Dragon 7, Panda 8 and Player Pair: a short shoe, whose composition moves
 * enough for the edge monitor's alerts (table T1, driver seed 4: Dragon 7 favours the player before round 2).
 */
export const EZ_ONE_DECK = {
  dealing: 'live',
  decks: 1,
  cutCard: 12,
  game: 'ez',
  sideBets: { dragon7: {}, panda8: {}, playerPair: {} },
} as const;
