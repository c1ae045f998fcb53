/** The player page's toolbar: the balance, the sound switch, exit and help. */
import { money } from '../format';

export function PlayerToolbar({
  balance,
  soundOn,
  helpOpen,
  onToggleSound,
  onExit,
  onToggleHelp,
}: {
  readonly balance: number;
  readonly soundOn: boolean;
  readonly helpOpen: boolean;
  readonly onToggleSound: () => void;
  readonly onExit: () => void;
  readonly onToggleHelp: () => void;
}) {
  return (
    <div className="player-toolbar">
      <h2>Baccarat</h2>
      <span className="player-balance" aria-label="balance">
        Balance <strong>{money(balance)}</strong>
      </span>
      <button
        type="button"
        className={`sound-toggle ${soundOn ? 'sound-on' : 'sound-off'}`}
        aria-pressed={soundOn}
        aria-label={soundOn ? 'Sound on' : 'Sound off'}
        title="Sound (S)"
        onClick={onToggleSound}
      >
        ♪ {soundOn ? 'on' : 'off'}
      </button>
      <button type="button" onClick={onExit}>
        Exit game
      </button>
      <button
        type="button"
        className="help-button"
        aria-label="Help"
        aria-expanded={helpOpen}
        title="Help (?)"
        onClick={onToggleHelp}
      >
        ?
      </button>
    </div>
  );
}
