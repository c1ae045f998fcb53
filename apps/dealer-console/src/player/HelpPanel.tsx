/** The help the "?" button opens: how to play, the third-card rule, the payouts, the keyboard shortcuts. */
import { isSideSpot } from '@coup/engine';
import { type TableRules, gameOf, limitOf, offeredSpots } from '@coup/table';
import { gameLabel, paysWords, spotLabel } from '../bets';
import { money } from '../format';

export const SHORTCUTS: readonly (readonly [string, string])[] = [
  ['0', 'REBET: repeat your last bet'],
  ['1 – 5', 'select the $1, $5, $25, $100 or $500 chip'],
  ['P', 'add the selected chip to Player'],
  ['B', 'add the selected chip to Banker'],
  ['T', 'add the selected chip to Tie'],
  ['C', 'CLEAR BET'],
  ['D', 'DEAL'],
  ['S', 'sound on / off'],
  ['? or H', 'this help; Esc closes it'],
];

export function HelpPanel({ rules, onClose }: { readonly rules: TableRules; readonly onClose: () => void }) {
  return (
    <section className="panel help-panel" role="dialog" aria-label="Help">
      <button type="button" className="link help-close" onClick={onClose}>
        close
      </button>
      <h3>How to play</h3>
      <p>
        Select a chip from your stacks, then click a bet field (Player, Banker or Tie) to add it; click again
        to add more, and change the chip at any time. Your total bet shows under the table. CLEAR BET takes
        your whole bet back; REBET (or the 0 key) repeats your last bet. Once every bet is at least the table
        minimum, DEAL. The table maximum stops a bet that would pass it.
        {rules.allowPlayerAndBanker ? '' : ' Player and Banker may not be bet together at this table.'}
      </p>
      <p>
        {rules.decks} decks, shuffled before every hand. Two cards each to Player and Banker (player, banker,
        player, banker). Tens and faces count 0, aces 1, others their value; only the last digit of a total
        counts. An 8 or 9 on two cards is a natural: both stand. You may not exit while a bet is on the
        layout: DEAL or CLEAR first.
      </p>
      <h4>Third card</h4>
      <ThirdCardTables />
      <p className="muted">
        When the player stands on two cards (6 or 7), the banker draws on 0–5 and stands on 6–7. (A ten or
        face as the player&apos;s third card counts 0: a banker 3 draws on it.)
      </p>
      <Payouts rules={rules} />
      <h4>Keyboard shortcuts</h4>
      <ShortcutList />
      <h4>Fair shuffle</h4>
      <p>
        Before you bet, the table publishes the sha256 commitment of the coming shuffle&apos;s seed. After the
        deal the seed is revealed; your history checks sha256(seed) against the commitment in your browser.
      </p>
    </section>
  );
}

/** Banker's two-card total: the player's third cards it draws on, and those it stands on. */
const BANKER_DRAWS: readonly (readonly [string, string, string])[] = [
  ['0–2', 'always draws', '–'],
  ['3', '0 1 2 3 4 5 6 7 9', '8'],
  ['4', '2 3 4 5 6 7', '0 1 8 9'],
  ['5', '4 5 6 7', '0 1 2 3 8 9'],
  ['6', '6 7', '0 1 2 3 4 5 8 9'],
  ['7', '–', 'always stands'],
  ['8–9', '–', 'natural: stands'],
];

/** The third-card rule: the player's, then the banker's. */
function ThirdCardTables() {
  return (
    <>
      <table className="help-table">
        <thead>
          <tr>
            <th>Player&apos;s two cards</th>
            <th>Player</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>0–5</td>
            <td>draws</td>
          </tr>
          <tr>
            <td>6–7</td>
            <td>stands</td>
          </tr>
          <tr>
            <td>8–9</td>
            <td>natural: both stand</td>
          </tr>
        </tbody>
      </table>
      <table className="help-table">
        <thead>
          <tr>
            <th>Banker&apos;s two cards</th>
            <th>draws when the player&apos;s third card is</th>
            <th>stands when it is</th>
          </tr>
        </thead>
        <tbody>
          {BANKER_DRAWS.map(([total, draws, stands]) => (
            <tr key={total}>
              <td>{total}</td>
              <td>{draws}</td>
              <td>{stands}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Payouts({ rules }: { readonly rules: TableRules }) {
  return (
    <>
      <h4>Payouts</h4>
      <ul>
        <li>Player: 1:1</li>
        <li>
          {gameOf(rules) === 'commission' ? (
            <>
              Banker: 1:1 less 5% commission
              {rules.commission === 'deducted' ? ' (taken from the win)' : ' (owed, collected when you exit)'}
            </>
          ) : (
            <>
              Banker ({gameLabel(gameOf(rules))}): {paysWords('banker', rules)}
            </>
          )}
        </li>
        <li>Tie: {rules.tiePays}:1 (Player and Banker bets are returned on a tie)</li>
        {offeredSpots(rules)
          .filter(isSideSpot)
          .map((spot) => {
            const limit = limitOf(rules, spot);
            return (
              <li key={spot}>
                {spotLabel(spot)}: {paysWords(spot, rules)}
                {limit && ` (${money(limit.min)} to ${money(limit.max)})`}
              </li>
            );
          })}
      </ul>
      <p>
        Limits: Player and Banker {money(rules.limits.player.min)} to {money(rules.limits.player.max)}, Tie{' '}
        {money(rules.limits.tie.min)} to {money(rules.limits.tie.max)}.
      </p>
    </>
  );
}

function ShortcutList() {
  return (
    <dl className="shortcuts">
      {SHORTCUTS.map(([k, what]) => (
        <div key={k}>
          <dt>
            <kbd>{k}</kbd>
          </dt>
          <dd>{what}</dd>
        </div>
      ))}
    </dl>
  );
}
