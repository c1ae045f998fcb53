/**
 * The bets in words, for the dealer console and the player page: each spot's label, what it pays under a table's
 * game mode and paytable, and a game mode's name, from the `game` message catalogue. Each takes the screen's `t`
 * (English when none is given, as in the unit tests). Pure but for the catalogue.
 */
import { type GameMode, SIDE_BETS, type SideSpot, type Spot } from '@coup/engine';
import { type TableRules, gameOf } from '@coup/table';
import type { TFunction } from 'i18next';
import { i18n } from './i18n';

/** A translation function (a screen's `t` from useTranslation). */
export type Translate = TFunction;

/** English, for callers that have no screen's `t` (tests). */
export const english: Translate = i18n.getFixedT('en');

/** A spot's name for people: Player, Banker, Tie, or the side bet's (Dragon 7, Player Pair...). */
export function spotLabel(spot: Spot, t: Translate = english): string {
  return t(`game:spots.${spot}`);
}

/** A game mode's name. */
export function gameLabel(game: GameMode, t: Translate = english): string {
  return t(`game:games.${game}`);
}

const ratio = (t: Translate, num: number, den = 1) => t('game:ratio', { n: Number((num / den).toFixed(2)) });

/** What a side bet's paytable pays, in words (Dragon Bonus: natural, then the win by 9, 8, 7, 6, 5, 4). */
export function paytableWords(spot: SideSpot, name: string, t: Translate = english): string {
  const p = SIDE_BETS[spot].paytables[name];
  if (!p) return name;
  switch (spot) {
    case 'big':
    case 'small':
      return ratio(t, p[0] ?? 0, p[1]);
    case 'perfectPair':
      return p[0] === p[1]
        ? ratio(t, p[0] ?? 0)
        : t('game:paytable.bothHands', { either: ratio(t, p[0] ?? 0), both: ratio(t, p[1] ?? 0) });
    case 'playerDragon':
    case 'bankerDragon':
      return t('game:paytable.dragon', {
        natural: ratio(t, p[0] ?? 0),
        by9: ratio(t, p[1] ?? 0),
        by4: ratio(t, p[6] ?? 0),
      });
    default:
      return ratio(t, p[0] ?? 0);
  }
}

/** What a bet on `spot` pays at this table, in words. */
export function paysWords(
  spot: Spot,
  rules: Pick<TableRules, 'tiePays' | 'game' | 'sideBets'>,
  t: Translate = english,
): string {
  if (spot === 'tie') return t('game:pays.tie', { n: rules.tiePays });
  if (spot === 'player') return t('game:pays.player');
  if (spot === 'banker') return t(`game:pays.${gameOf(rules)}`);
  const paytable = rules.sideBets?.[spot]?.paytable;
  return paytable
    ? t('game:pays.ratio', { ratio: paytableWords(spot, paytable, t) })
    : t('game:pays.notOffered');
}
