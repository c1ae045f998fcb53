/** What the last action left to say: a notice (e.g. the cash-out), or the service's refusal. */
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
  return (
    <>
      {notice && (
        <p role="status" className="banner">
          {notice}
        </p>
      )}
      {refusal && (
        <div role="alert" className="refusal player-refusal" data-code={refusal.code}>
          {refusal.message}
          {/* An exit refused mid-coup offers the two ways to finish it. */}
          {refusal.code === 'COUP_INCOMPLETE' && (
            <span className="refusal-actions">
              {' '}
              <button type="button" onClick={onDeal} disabled={!canDeal}>
                DEAL
              </button>{' '}
              <button type="button" onClick={onClear} disabled={!canClear}>
                CLEAR BET
              </button>
            </span>
          )}
        </div>
      )}
    </>
  );
}
