/**
 * The table decider's state after an event (seed removed until revealed), shared by the projections that keep
 * it (the table view and the hand history): the second one to fold the same event from the same state gets
 * the first one's result instead of running `evolve` again.
 *
 * Pure: a memo of the last fold (event object, state folded from, result), only used when both the event and
 * the state are the very same objects, which `evolve` never changes. The runner and the rebuild fold event by
 * event through every projection, so the table view and the hand history fold each event one after the
 * other from the same state: the second gets the first one's result. Both states start from `initialState`
 * and then hold the memo's results, so they stay the same objects for as long as the process keeps them
 * (states reloaded from JSON are separate objects: then each is folded on its own). Anything else (e.g.
 * MemoryProjection, one projection at a time) misses the memo and folds again: the same result. One entry
 * instead of a WeakMap of every event of a batch: no entry per event for the garbage collector.
 */
import { type TableState, evolve } from '@coup/table';
import { withoutSecrets } from './secrets';
import type { ProjectionEvent } from './types';

let lastEvent: ProjectionEvent | null = null;
let lastBefore: TableState | null = null;
let lastAfter: TableState | null = null;

/** `withoutSecrets(evolve(before, e.event))`, computed once when folded twice in a row from the same state. */
export function tableAfter(before: TableState, e: ProjectionEvent): TableState {
  if (lastEvent === e && lastBefore === before && lastAfter !== null) return lastAfter;
  const after = withoutSecrets(evolve(before, e.event));
  lastEvent = e;
  lastBefore = before;
  lastAfter = after;
  return after;
}
