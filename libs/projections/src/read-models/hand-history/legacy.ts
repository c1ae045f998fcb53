/** Open hands stored by older code, read into the current shape. */
import { type BetLog, betLogFrom, betLogOf } from './bet-log';
import { type OpenHand, handWith } from './state';
import type { BetEntry } from './wire';

/**
 * An open hand as stored before bets were chunked (the code of commit 45855bf and earlier; the projection's
 * version was 1 then and still is): the bets as one flat list, `bets`, and no `betLog`. Such a state may still
 * be in `hh_state` (the runner persists fold states as JSON and resumes from them).
 *
 * Choice: the fold ACCEPTS this shape (see {@link currentHand}) instead of bumping the projection's version.
 * The read-model rows are byte-identical either way, so a bump would only force a rebuild of every table's hand
 * history from position 0 (long on a big store) for nothing. The first event folded into such a state converts
 * it (once, O(n)); the runner then stores the new shape. `materialize` accepts it too. Not covered: going back
 * to the older code after the new one stored a state (the old code cannot read `betLog`).
 */
export interface LegacyOpenHand extends Omit<OpenHand, 'betLog'> {
  readonly bets: readonly BetEntry[];
}

/**
 * The open hand in the current shape: a stored flat-bets hand converted (see {@link LegacyOpenHand}), and a log
 * stored before logs had a summary given one (once: the state then keeps it).
 */
export function currentHand(h: OpenHand | LegacyOpenHand | null): OpenHand | null {
  if (h === null) return h;
  if ('betLog' in h) {
    const log = h.betLog as Partial<BetLog>;
    if (log.summary !== undefined) return h;
    return handWith(h, { betLog: betLogFrom(log.chunks ?? [], log.tail ?? []) });
  }
  const { bets, ...rest } = h;
  return { ...rest, betLog: betLogOf(Array.isArray(bets) ? bets : []) };
}
