/** The player page's toolbar: the game and the table, the balance, the sound switch, exit and help. */
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { money } from '../format';

export function PlayerToolbar({
  tableId,
  balance,
  soundOn,
  helpOpen,
  onToggleSound,
  onExit,
  onToggleHelp,
}: {
  readonly tableId: string;
  readonly balance: number;
  readonly soundOn: boolean;
  readonly helpOpen: boolean;
  readonly onToggleSound: () => void;
  readonly onExit: () => void;
  readonly onToggleHelp: () => void;
}) {
  const { t } = useTranslation('player');
  useDocumentTitle(t('toolbar.documentTitle', { tableId }));
  return (
    <div className="player-toolbar">
      <h2>
        {t('toolbar.heading')} <span className="player-table-name">{t('toolbar.table', { tableId })}</span>
      </h2>
      <span className="player-balance" role="group" aria-label={t('toolbar.balanceLabel')}>
        {t('toolbar.balance')} <strong>{money(balance)}</strong>
      </span>
      <div className="player-tools">
        <button
          type="button"
          className={`sound-toggle ${soundOn ? 'sound-on' : 'sound-off'}`}
          aria-pressed={soundOn}
          aria-label={soundOn ? t('toolbar.soundOn') : t('toolbar.soundOff')}
          title={t('toolbar.soundTitle')}
          onClick={onToggleSound}
        >
          ♪ {soundOn ? t('toolbar.on') : t('toolbar.off')}
        </button>
        <button type="button" onClick={onExit}>
          {t('toolbar.exit')}
        </button>
        <button
          type="button"
          className="help-button"
          aria-label={t('toolbar.help')}
          aria-expanded={helpOpen}
          title={t('toolbar.helpTitle')}
          onClick={onToggleHelp}
        >
          ?
        </button>
      </div>
    </div>
  );
}
