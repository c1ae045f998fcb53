/** The help the "?" button opens: how to play, the third-card rule, the payouts, the keyboard shortcuts. */
import { isSideSpot } from '@coup/engine';
import { type TableRules, gameOf, limitOf, offeredSpots } from '@coup/table';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { gameLabel, paysWords, spotLabel } from '../bets';
import { money } from '../format';

/** Each key (or a range of keys) and what it does (the catalogue's `help.keys.<what>`). */
export const SHORTCUTS: readonly { keys: readonly string[]; what: string; range?: boolean }[] = [
  { keys: ['0'], what: 'rebet' },
  { keys: ['1', '5'], what: 'chips', range: true },
  { keys: ['P'], what: 'player' },
  { keys: ['B'], what: 'banker' },
  { keys: ['T'], what: 'tie' },
  { keys: ['C'], what: 'clear' },
  { keys: ['D'], what: 'deal' },
  { keys: ['S'], what: 'sound' },
  { keys: ['?', 'H'], what: 'help' },
];

export function HelpPanel({ rules, onClose }: { readonly rules: TableRules; readonly onClose: () => void }) {
  const { t } = useTranslation('player');
  return (
    <section className="panel help-panel" role="dialog" aria-label={t('help.region')}>
      <button type="button" className="link help-close" onClick={onClose}>
        {t('help.close')}
      </button>
      <h3>{t('help.howTo')}</h3>
      <p>
        {t('help.howToText')}
        {rules.allowPlayerAndBanker ? '' : t('help.noPlayerAndBanker')}
      </p>
      <p>{t('help.rulesText', { decks: rules.decks })}</p>
      <h4>{t('help.thirdCard')}</h4>
      <ThirdCardTables />
      <p className="muted">{t('help.bankerNote')}</p>
      <Payouts rules={rules} />
      <h4>{t('help.shortcuts')}</h4>
      <ShortcutList />
      <h4>{t('help.fair')}</h4>
      <p>{t('help.fairText')}</p>
    </section>
  );
}

/** Banker's two-card total: the player's third cards it draws on, and those it stands on (keys: the catalogue's). */
const BANKER_DRAWS: readonly (readonly [string, string, string])[] = [
  ['0–2', '@alwaysDraws', '–'],
  ['3', '0 1 2 3 4 5 6 7 9', '8'],
  ['4', '2 3 4 5 6 7', '0 1 8 9'],
  ['5', '4 5 6 7', '0 1 2 3 8 9'],
  ['6', '6 7', '0 1 2 3 4 5 8 9'],
  ['7', '–', '@alwaysStands'],
  ['8–9', '–', '@naturalStands'],
];

/** The third-card rule: the player's, then the banker's. */
function ThirdCardTables() {
  const { t } = useTranslation('player');
  const cell = (v: string) => (v.startsWith('@') ? t(`help.${v.slice(1)}`) : v);
  return (
    <>
      <table className="help-table">
        <thead>
          <tr>
            <th>{t('help.playerTwo')}</th>
            <th>{t('help.player')}</th>
          </tr>
        </thead>
        <tbody>
          {(
            [
              ['0–5', 'draws'],
              ['6–7', 'stands'],
              ['8–9', 'naturalBoth'],
            ] as const
          ).map(([total, what]) => (
            <tr key={total}>
              <td>{total}</td>
              <td>{t(`help.${what}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="help-table">
        <thead>
          <tr>
            <th>{t('help.bankerTwo')}</th>
            <th>{t('help.bankerDraws')}</th>
            <th>{t('help.bankerStands')}</th>
          </tr>
        </thead>
        <tbody>
          {BANKER_DRAWS.map(([total, draws, stands]) => (
            <tr key={total}>
              <td>{total}</td>
              <td>{cell(draws)}</td>
              <td>{cell(stands)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Payouts({ rules }: { readonly rules: TableRules }) {
  const { t } = useTranslation('player');
  const game = gameOf(rules);
  const { player, tie } = rules.limits;
  return (
    <>
      <h4>{t('help.payouts')}</h4>
      <ul>
        <li>{t('help.payPlayer')}</li>
        <li>
          {game === 'commission'
            ? t('help.payBankerCommission') +
              t(rules.commission === 'deducted' ? 'help.commissionDeducted' : 'help.commissionBox')
            : t('help.payBanker', { game: gameLabel(game, t), pays: paysWords('banker', rules, t) })}
        </li>
        <li>{t('help.payTie', { pays: rules.tiePays })}</li>
        {offeredSpots(rules)
          .filter(isSideSpot)
          .map((spot) => {
            const limit = limitOf(rules, spot);
            return (
              <li key={spot}>
                {t('help.paySide', { spot: spotLabel(spot, t), pays: paysWords(spot, rules, t) })}
                {limit && t('help.sideLimits', { min: money(limit.min), max: money(limit.max) })}
              </li>
            );
          })}
      </ul>
      <p>
        {t('help.limits', {
          pMin: money(player.min),
          pMax: money(player.max),
          tMin: money(tie.min),
          tMax: money(tie.max),
        })}
      </p>
    </>
  );
}

function ShortcutList() {
  const { t } = useTranslation('player');
  return (
    <dl className="shortcuts">
      {SHORTCUTS.map(({ keys, what, range }) => (
        <div key={what}>
          <dt>
            {keys.map((k, i) => (
              <Fragment key={k}>
                {i > 0 && (range ? ' – ' : ' ')}
                <kbd className="key">{k}</kbd>
              </Fragment>
            ))}
          </dt>
          <dd>{t(`help.keys.${what}`)}</dd>
        </div>
      ))}
    </dl>
  );
}
