/**
 * Replay and verification of one hand. The hand-history index gives the hand's span in the table stream (first
 * and last revision) and the table state just before it, so a hand is read with ONE bounded `readStream` (plus,
 * on rng tables, the shoe's ShoeStarted and ShoeEnded events by revision): the cost does not grow with the
 * table's history.
 *
 * - replay: the hand's events and the table view after each, folded with @coup/table's `evolve` (the same code
 *   the service and the browser run), unrevealed seeds never shown;
 * - verify: named checks, each pass / fail / pending / skipped:
 *   `index`       the events at the indexed revisions are this hand's, at the indexed positions;
 *   `chain`       every event's hash recomputed from its contents, each prevHash linking to the event before, the
 *                 first linking to the hash the index recorded, the last equal to the indexed head;
 *   `coup`        the coup re-resolved by the engine from the recorded cards (corrections applied) equals the
 *                 recorded result, and each card went where the engine says; after it settled, each correction
 *                 replaced the card then there and the corrected cards re-resolve to its recorded result;
 *   `settlements` each stake (folded from the hand's bets) settled with `settleBet` equals the recorded
 *                 settlement, none missing or extra; for a void, every stake returned; after it settled, each
 *                 correction or void reverses exactly the settlement in force, each new settlement recomputed;
 *   `commitment`  rng tables once the seed is revealed: sha256(seed) equals the commitment published at
 *                 ShoeStarted (and both shoe events' hashes check);
 *   `shuffle`     rng tables once revealed: `shuffleShoe(decks, seed)` has exactly the recorded cards at the
 *                 recorded shoe positions (and the turned card at 0).
 */
import type { RecordedEvent } from '@coup/event-store';
import { type TableEvent, evolve, redactEvent, tableView } from '@coup/table';
import { withoutSecrets } from '../read-models/kernel/secrets';
import { indexed, readSpan, streamOf } from './span';
import { type HandReplay, type HandSource, type ReplayEvent, ReplayError, type ReplayStep } from './types';

export * from './types';
export { verifyHand } from './verify';
export { oddsBeforeHand } from './odds';

const asTableEvent = (e: RecordedEvent): TableEvent =>
  ({ type: e.type, data: e.data }) as unknown as TableEvent;

function shown(e: RecordedEvent): ReplayEvent {
  const redacted = redactEvent(asTableEvent(e)) ?? asTableEvent(e);
  const actor = e.metadata.actor;
  return {
    revision: Number(e.streamRevision),
    position: Number(e.globalPosition),
    type: e.type,
    data: redacted.data,
    recordedAt: e.recordedAt,
    actor: typeof actor === 'string' ? actor : null,
    hash: e.hash,
    prevHash: e.prevHash,
  };
}

/**
 * The hand's events and the table view after each: folded from the nearest stored state (at most 10 hands
 * back), reading only the events from there to the hand's last.
 */
export async function replayHand(src: HandSource, tableId: string, roundNo: number): Promise<HandReplay> {
  const { hand, start } = await indexed(src, tableId, roundNo);
  const from = hand.replayFrom.revision;
  const count = hand.span.lastRevision - from + 1;
  const events = await readSpan(src.store, streamOf(tableId), from, count);
  if (events.length !== count) {
    throw new ReplayError(
      'HAND_EVENTS_MISSING',
      `Hand ${roundNo} at table ${tableId} needs revisions ${from}-${hand.span.lastRevision}, but the store has ${events.length} of those ${count} events`,
    );
  }
  let state = start;
  let before = start;
  const steps: ReplayStep[] = [];
  for (const e of events) {
    const inHand = Number(e.streamRevision) >= hand.span.firstRevision;
    if (inHand && steps.length === 0) before = state;
    state = withoutSecrets(evolve(state, asTableEvent(e)));
    if (inHand) steps.push({ event: shown(e), view: tableView(state) });
  }
  return { tableId, roundNo, shoeNo: hand.shoeNo, status: hand.status, before: tableView(before), steps };
}
