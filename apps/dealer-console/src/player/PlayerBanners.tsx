/** What the last action left to say: a notice (e.g. the cash-out), or a refusal (the page's own, or the service's). */
import { useTranslation } from 'react-i18next';
import type { Refusal } from './usePlayerTable';

export function PlayerBanners({
  notice,
  refusal,
  canDeal,
  canClear,
  onDeal,
  onClear,
}: {
  readonly notice: string | null;
  readonly refusal: Refusal | null;
  readonly canDeal: boolean;
  readonly canClear: boolean;
  readonly onDeal: () => void;
  readonly onClear: () => void;
}) {
  const { t } = useTranslation('player');
  return (
    <>
      {notice && (
        <p role="status" className="banner">
          {notice}
        </p>
      )}
      {refusal && (
        <div role="alert" className="refusal player-refusal" data-code={refusal.code}>
          {/* the page's own reason, else the service's message in the chosen language */}
          {refusal.local
            ? refusal.message
            : t(`game:refusals.${refusal.code}`, { message: refusal.message, defaultValue: refusal.message })}
          {/* An exit refused mid-coup offers the two ways to finish it. */}
          {refusal.code === 'COUP_INCOMPLETE' && (
            <span className="refusal-actions">
              {' '}
              <button type="button" onClick={onDeal} disabled={!canDeal}>
                {t('bets.deal')}
              </button>{' '}
              <button type="button" onClick={onClear} disabled={!canClear}>
                {t('bets.clear')}
              </button>
            </span>
          )}
        </div>
      )}
    </>
  );
}
