/**
 * A settled coup corrected or voided by a supervisor after it settled (`SettledCoupCorrected`, `SettledCoupVoided`,
 * pushed over the page's socket): the page reads the table again (the chips follow), the history and the ledger, and
 * the coup on the felt, when it is that one, is shown as amended (or taken off when voided).
 */
import { useEffect, useRef } from 'react';
import type { TableEvent, TableView } from '@coup/table';
import { dealingOrder } from './dealing';
import type { PlayerApi } from './playerApi';
import type { Shown } from './usePlayerTable';

const AMENDMENTS: ReadonlySet<TableEvent['type']> = new Set(['SettledCoupCorrected', 'SettledCoupVoided']);

/** Whether `event` puts right a coup already settled. */
export const amendsSettledCoup = (event: TableEvent): boolean => AMENDMENTS.has(event.type);

/** The felt after `view` (read after an amendment of `roundNo`): that coup as it now stands, others unchanged. */
export function shownAfter(shown: Shown | null, roundNo: number, view: TableView): Shown | null {
  if (shown === null || shown.coup.roundNo !== roundNo) return shown;
  if (shown.fresh && shown.count < dealingOrder(shown.coup).length) return shown; // still being dealt
  const now = view.lastResult;
  return now?.roundNo === roundNo ? { coup: now, count: dealingOrder(now).length, fresh: false } : null;
}

export function useAmendments(
  api: PlayerApi,
  tableId: string | null,
  onAmended: (roundNo: number, view: TableView) => void,
  refreshHistory: (tableId: string) => void,
): void {
  const latest = useRef({ onAmended, refreshHistory });
  latest.current = { onAmended, refreshHistory };
  useEffect(() => {
    if (tableId === null || !api.onEvent) return undefined;
    return api.onEvent((event) => {
      if (!amendsSettledCoup(event)) return;
      const { roundNo } = event.data as { roundNo: number };
      api.view(tableId).then(
        (view) => latest.current.onAmended(roundNo, view),
        () => undefined, // the next command shows the table again
      );
      latest.current.refreshHistory(tableId);
    });
  }, [api, tableId]);
}
