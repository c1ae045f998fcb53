/**
 * The odds of each bet before a hand, from the events of its shoe before it (`shoeOddsBefore`): what the edge
 * monitor computed for that round, recomputed on demand for any hand of any table (monitored or not).
 */
import type { TableEvent, TableState } from '@coup/table';
import { shoeOddsBefore } from '../read-models/edge-monitor/shoe-odds';
import { indexed, readSpan, streamOf } from './span';
import { type HandOdds, type HandSource, ReplayError } from './types';

/**
 * Each offered bet's exact odds before hand `roundNo`: reads the hand's shoe from its ShoeStarted to the hand's
 * first event (one bounded `readStream`), and values the bets on the cards not seen by then.
 */
export async function oddsBeforeHand(src: HandSource, tableId: string, roundNo: number): Promise<HandOdds> {
  const { hand, start } = await indexed(src, tableId, roundNo);
  const rules = (start as TableState).rules;
  const shoe = await src.readModels.shoe(tableId, hand.shoeNo);
  if (rules === null || shoe === null) return { tableId, roundNo, shoeNo: hand.shoeNo, odds: null };
  const count = Math.max(1, hand.span.firstRevision - shoe.startedRevision + 1);
  const events = await readSpan(src.store, streamOf(tableId), shoe.startedRevision, count);
  if (events.length !== count) {
    throw new ReplayError(
      'HAND_EVENTS_MISSING',
      `Hand ${roundNo} at table ${tableId} needs revisions ${shoe.startedRevision}-${shoe.startedRevision + count - 1}, but the store has ${events.length} of those ${count} events`,
    );
  }
  const table = events.map((e) => ({ type: e.type, data: e.data }) as unknown as TableEvent);
  return { tableId, roundNo, shoeNo: hand.shoeNo, odds: shoeOddsBefore(table, rules, roundNo) };
}
