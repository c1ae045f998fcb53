/**
 * The bets in words, for the dealer console and the player page: each spot's label (a side bet's from the engine's
 * catalogue), what it pays under a table's game mode and paytable, and a game mode's name. Pure.
 */
import { type GameMode, SIDE_BETS, type SideSpot, type Spot, isSideSpot } from '@coup/engine';
import { type TableRules, gameOf } from '@coup/table';

const MAIN_LABEL = { player: 'Player', banker: 'Banker', tie: 'Tie' } as const;

/** A spot's name for people: Player, Banker, Tie, or the side bet's label (Dragon 7, Player Pair...). */
export function spotLabel(spot: Spot): string {
  return isSideSpot(spot) ? SIDE_BETS[spot].label : MAIN_LABEL[spot];
}

/** A game mode's name. */
export function gameLabel(game: GameMode): string {
  return game === 'ez' ? 'EZ Baccarat' : game === 'no-commission' ? 'No commission' : 'Commission';
}

const ratio = (num: number, den = 1) => `${Number((num / den).toFixed(2))}:1`;

/** What a side bet's paytable pays, in words (Dragon Bonus: natural, then the win by 9, 8, 7, 6, 5, 4). */
export function paytableWords(spot: SideSpot, name: string): string {
  const t = SIDE_BETS[spot].paytables[name];
  if (!t) return name;
  switch (spot) {
    case 'big':
    case 'small':
      return ratio(t[0] ?? 0, t[1]);
    case 'perfectPair':
      return t[0] === t[1] ? ratio(t[0] ?? 0) : `${ratio(t[0] ?? 0)}, both hands ${ratio(t[1] ?? 0)}`;
    case 'playerDragon':
    case 'bankerDragon':
      return `natural ${ratio(t[0] ?? 0)}, by 9 ${ratio(t[1] ?? 0)} … by 4 ${ratio(t[6] ?? 0)}`;
    default:
      return ratio(t[0] ?? 0);
  }
}

/** What a bet on `spot` pays at this table, in words. */
export function paysWords(spot: Spot, rules: Pick<TableRules, 'tiePays' | 'game' | 'sideBets'>): string {
  if (spot === 'tie') return `pays ${rules.tiePays}:1`;
  if (spot === 'player') return 'pays 1:1';
  if (spot === 'banker') {
    const game = gameOf(rules);
    if (game === 'no-commission') return 'pays 1:1, 1:2 on a 6';
    if (game === 'ez') return 'pays 1:1, a 3-card 7 pushes';
    return 'pays 1:1 less 5%';
  }
  const paytable = rules.sideBets?.[spot]?.paytable;
  return paytable ? `pays ${paytableWords(spot, paytable)}` : 'not offered';
}
