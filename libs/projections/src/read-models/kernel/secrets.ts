/**
 * Read models never hold an unrevealed seed: `ShoeStarted.seed` is private until `ShoeEnded` reveals it (and
 * `evolve` takes the revealed seed from that event), so folded states are stored with the seed removed.
 */
import type { TableState } from '@coup/table';

/** The state with the shoe's seed removed unless it has been revealed. */
export function withoutSecrets(state: TableState): TableState {
  const shoe = state.shoe;
  if (shoe === null || shoe.revealed || shoe.seed === null) return state;
  return { ...state, shoe: { ...shoe, seed: null } };
}
