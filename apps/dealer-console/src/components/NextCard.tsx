import type { NextPosition } from '@coup/engine';
import { nextLabel } from '../format';

/** Where the next card goes while a live coup is dealt (the view's `round.next`). */
export function NextCard({ next }: { readonly next: NextPosition }) {
  return (
    <div className={`next-card next-${next.to}`} role="status" aria-live="polite">
      <span className="next-label">Next card:</span> <strong>{nextLabel(next)}</strong>
    </div>
  );
}
