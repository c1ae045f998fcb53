/** The player's chips stacked by denomination; a click selects the chip the bet fields stake. */
import type { TableRules } from '@coup/table';
import { money } from '../format';
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
  const { stacks, rest } = chipStacks(balance, rules.chips);
  return (
    <aside className="chip-rack" aria-label="your chips">
      <h3>Your chips</h3>
      {stacks.map(({ chip: c, count }) => (
        <button
          key={c}
          type="button"
          className={`chip chip-${c}${chip === c ? ' selected' : ''}`}
          aria-pressed={chip === c}
          aria-label={`${money(c)} chip`}
          onClick={() => onChip(c)}
        >
          <span className="chip-face">{money(c)}</span>
          <span className="chip-stack" aria-hidden="true">
            {Array.from({ length: Math.min(count, 10) }, (_, i) => (
              <span key={i} className="chip-disc" />
            ))}
          </span>
          <span className="chip-count">×{count}</span>
        </button>
      ))}
      {rest > 0 && <p className="muted">and {money(rest)} in change</p>}
      <p className="muted">Selected: {chip === null ? 'none' : money(chip)}</p>
    </aside>
  );
}
