/** The player's chips stacked by denomination; a click selects the chip the bet fields stake. */
import type { TableRules } from '@coup/table';
import { Trans, useTranslation } from 'react-i18next';
import { money } from '../format';
import { HIDDEN } from './BetControls';
import { chipStacks } from './betting';

export function ChipRack({
  balance,
  rules,
  chip,
  onChip,
}: {
  readonly balance: number;
  readonly rules: Pick<TableRules, 'chips'>;
  /** The selected chip. */
  readonly chip: number | null;
  readonly onChip: (chip: number) => void;
}) {
  const { t } = useTranslation('player');
  const { stacks, rest } = chipStacks(balance, rules.chips);
  return (
    <aside className="chip-rack" aria-label={t('chips.region')}>
      <h3>{t('chips.title')}</h3>
      <div className="chip-list">
        {stacks.map(({ chip: c, count }) => (
          <button
            key={c}
            type="button"
            className={`chip chip-${c}${chip === c ? ' selected' : ''}`}
            aria-pressed={chip === c}
            onClick={() => onChip(c)}
          >
            <span className="chip-face">
              <Trans t={t} i18nKey="chips.chip" values={{ amount: money(c) }} components={HIDDEN} />
            </span>
            <span className="chip-stack" aria-hidden="true">
              {Array.from({ length: Math.min(count, 10) }, (_, i) => (
                <span key={i} className="chip-disc" />
              ))}
            </span>
            <span className="chip-count" aria-hidden="true">
              {t('chips.count', { count })}
            </span>
          </button>
        ))}
      </div>
      {rest > 0 && <p className="muted">{t('chips.change', { amount: money(rest) })}</p>}
      <p className="muted chip-selected">
        {t('chips.selected', { chip: chip === null ? t('chips.none') : money(chip) })}
      </p>
    </aside>
  );
}
