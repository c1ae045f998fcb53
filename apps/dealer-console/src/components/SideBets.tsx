/** Side bets on the dealer console: the rules line (mode and side bets offered) and the side bets staked. */
import { isSideSpot } from '@coup/engine';
import { type RoundView, type TableView, amountOn, gameOf, offeredSpots, stakedSpots } from '@coup/table';
import { useTranslation } from 'react-i18next';
import { gameLabel, paytableWords, spotLabel } from '../bets';
import { money } from '../format';

/** The table's rules in a line: dealing, decks, game mode (commission handling), tie, and the side bets offered. */
export function RulesSummary({ rules }: { readonly rules: NonNullable<TableView['rules']> }) {
  const { t } = useTranslation('dealer');
  const game = gameOf(rules);
  const side = offeredSpots(rules).filter(isSideSpot);
  const paytable = (spot: (typeof side)[number]) => rules.sideBets?.[spot]?.paytable ?? '';
  return (
    <span className="muted" data-testid="rules-summary">
      {t('rules.line', {
        dealing: t(`game:dealing.${rules.dealing}`),
        decks: rules.decks,
        game: gameLabel(game, t),
      })}
      {game === 'commission' &&
        t('rules.commission', { commission: t(`game:commission.${rules.commission}`) })}
      {t('rules.tie', { pays: rules.tiePays })}
      {side.length > 0 &&
        t('rules.sideBets') +
          side.map((spot) => `${spotLabel(spot, t)} ${paytableWords(spot, paytable(spot), t)}`).join(', ')}
    </span>
  );
}

/** The side bets staked in the round: one row per player and side bet, then the total of each side bet. */
export function SideBetsTable({ round }: { readonly round: RoundView }) {
  const { t } = useTranslation('dealer');
  const { totals, players } = round.bets;
  const spots = stakedSpots(totals).filter(isSideSpot);
  if (spots.length === 0) return null;
  return (
    <table className="grid side-bets-table">
      <caption>{t('bets.sideBets')}</caption>
      <thead>
        <tr>
          <th>{t('bets.player')}</th>
          <th>{t('bets.sideBet')}</th>
          <th>{t('bets.stake')}</th>
        </tr>
      </thead>
      <tbody>
        {players.flatMap((p) =>
          stakedSpots(p)
            .filter(isSideSpot)
            .map((spot) => (
              <tr key={`${p.playerId}-${spot}`}>
                <td>{p.playerId}</td>
                <td>{spotLabel(spot, t)}</td>
                <td>{money(amountOn(p, spot))}</td>
              </tr>
            )),
        )}
        {spots.map((spot) => (
          <tr key={`total-${spot}`} className="totals">
            <td>{t('bets.total')}</td>
            <td>{spotLabel(spot, t)}</td>
            <td>{money(amountOn(totals, spot))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
