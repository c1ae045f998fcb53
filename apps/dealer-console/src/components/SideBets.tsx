/** Side bets on the dealer console: the rules line (mode and side bets offered) and the side bets staked. */
import { isSideSpot } from '@coup/engine';
import { type RoundView, type TableView, amountOn, gameOf, offeredSpots, stakedSpots } from '@coup/table';
import { gameLabel, paytableWords, spotLabel } from '../bets';
import { money } from '../format';

/** The table's rules in a line: dealing, decks, game mode (commission handling), tie, and the side bets offered. */
export function RulesSummary({ rules }: { readonly rules: NonNullable<TableView['rules']> }) {
  const game = gameOf(rules);
  const side = offeredSpots(rules).filter(isSideSpot);
  return (
    <span className="muted" data-testid="rules-summary">
      {rules.dealing}, {rules.decks} decks, {gameLabel(game)}
      {game === 'commission' && ` (${rules.commission})`}, tie {rules.tiePays}:1
      {side.length > 0 && (
        <>
          ; side bets:{' '}
          {side
            .map(
              (spot) => `${spotLabel(spot)} ${paytableWords(spot, rules.sideBets?.[spot]?.paytable ?? '')}`,
            )
            .join(', ')}
        </>
      )}
    </span>
  );
}

/** The side bets staked in the round: one row per player and side bet, then the total of each side bet. */
export function SideBetsTable({ round }: { readonly round: RoundView }) {
  const { totals, players } = round.bets;
  const spots = stakedSpots(totals).filter(isSideSpot);
  if (spots.length === 0) return null;
  return (
    <table className="grid side-bets-table">
      <caption>Side bets</caption>
      <thead>
        <tr>
          <th>player</th>
          <th>side bet</th>
          <th>stake</th>
        </tr>
      </thead>
      <tbody>
        {players.flatMap((p) =>
          stakedSpots(p)
            .filter(isSideSpot)
            .map((spot) => (
              <tr key={`${p.playerId}-${spot}`}>
                <td>{p.playerId}</td>
                <td>{spotLabel(spot)}</td>
                <td>{money(amountOn(p, spot))}</td>
              </tr>
            )),
        )}
        {spots.map((spot) => (
          <tr key={`total-${spot}`} className="totals">
            <td>total</td>
            <td>{spotLabel(spot)}</td>
            <td>{money(amountOn(totals, spot))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
