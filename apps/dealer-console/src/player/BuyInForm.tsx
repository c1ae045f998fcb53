/** The buy-in form, shown while the player holds no seat (first visit, or after an exit). */
import { useTranslation } from 'react-i18next';

export function BuyInForm({
  amount,
  busy,
  onAmount,
  onSubmit,
}: {
  /** Whole dollars, as typed. */
  readonly amount: string;
  readonly busy: boolean;
  readonly onAmount: (amount: string) => void;
  readonly onSubmit: () => void;
}) {
  const { t } = useTranslation('player');
  return (
    <form
      className="panel buy-in"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <h3>{t('buyIn.title')}</h3>
      <label htmlFor="buy-in-amount">{t('buyIn.amount')}</label>{' '}
      <input
        id="buy-in-amount"
        inputMode="numeric"
        value={amount}
        onChange={(e) => onAmount(e.target.value)}
        size={8}
      />{' '}
      <button type="submit" disabled={busy}>
        {t('buyIn.submit')}
      </button>
    </form>
  );
}
