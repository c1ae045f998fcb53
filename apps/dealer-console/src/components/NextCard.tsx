import type { NextPosition } from '@coup/engine';
import { useTranslation } from 'react-i18next';
import { nextWords } from './words';

/** Where the next card goes while a live coup is dealt (the view's `round.next`). */
export function NextCard({ next }: { readonly next: NextPosition }) {
  const { t } = useTranslation('dealer');
  return (
    <div className={`next-card next-${next.to}`} role="status" aria-live="polite">
      <span className="next-label">{t('nextCard')}</span> <strong>{nextWords(next, t)}</strong>
    </div>
  );
}
