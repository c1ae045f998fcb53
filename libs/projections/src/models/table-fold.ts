/**
 * The table decider's state after an event (seed removed until revealed), shared by the projections that keep
 * it (the table view and the hand history): the second one to fold the same event from the same state gets
 * the first one's result instead of running `evolve` again.
 *
 * Pure: a memo keyed by the event object (a WeakMap, so it lives as long as the batch's events do) that is
 * only used when the state folded from is the very same object, which `evolve` never changes. The runner, the
 * rebuild and MemoryProjection give every projection the same event objects; both states start from
 * `initialState` and then hold the memo's results, so they stay the same objects for as long as the process
 * keeps them (states reloaded from JSON are separate objects: then each is folded on its own, as before).
 */
import { type TableState, evolve } from '@coup/table';
import { withoutSecrets } from './secrets';
import type { ProjectionEvent } from './types';

const memo = new WeakMap<ProjectionEvent, { readonly before: TableState; readonly after: TableState }>();

/** `withoutSecrets(evolve(before, e.event))`, computed once per event and state object. */
export function tableAfter(before: TableState, e: ProjectionEvent): TableState {
  const hit = memo.get(e);
  if (hit !== undefined && hit.before === before) return hit.after;
  const after = withoutSecrets(evolve(before, e.event));
  memo.set(e, { before, after });
  return after;
}
