import type { Actor, TableEvent } from '@coup/table';

const SEES_ALL = new Set(['admin', 'dealer', 'supervisor', 'compliance', 'analyst']);

/**
 * What a viewer may see of one event on the live feed. Nobody sees an unrevealed seed (it is revealed by
 * ShoeEnded); a player sees the table and its own bets, chips and settlements, not other players'.
 * Returns null when the event is not for this viewer at all.
 */
export function redactEvent(event: TableEvent, viewer: Actor): TableEvent | null {
  if (event.type === 'ShoeStarted' && event.data.seed !== null) {
    event = { ...event, data: { ...event.data, seed: null } };
  }
  if (SEES_ALL.has(viewer.role)) return event;
  switch (event.type) {
    case 'PlayerBoughtIn':
    case 'PlayerCashedOut':
    case 'BetPlaced':
    case 'BetsCleared':
      return event.data.playerId === viewer.id ? event : null;
    case 'CoupResolved':
      return {
        ...event,
        data: { ...event.data, settlements: event.data.settlements.filter((s) => s.playerId === viewer.id) },
      };
    case 'RoundVoided':
      return {
        ...event,
        data: { ...event.data, returned: event.data.returned.filter((r) => r.playerId === viewer.id) },
      };
    default:
      return event;
  }
}
