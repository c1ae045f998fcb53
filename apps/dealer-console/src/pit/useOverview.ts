/**
 * What the tables overview reads: the table list (`GET /api/tables`, again every few seconds so a new table shows),
 * each table's view (its live feed over the WebSocket, or read again every few seconds beyond the sockets one
 * console keeps), and the edge monitor's favourable bets (`GET /api/edge/favourable`).
 */
import type { EdgeNowView, EdgeTableView } from '@coup/projections/wire';
import type { TableView } from '@coup/table';
import { useEffect, useState } from 'react';
import { type Api, ApiError, type TableEntry } from '../api';
import { getJson } from '../replay/http';
import { asApiError } from './Refusal';

/** Tables followed over their own socket; the rest are read again every {@link POLL_MS} (the service caps sockets). */
export const LIVE_TABLES = 12;
export const POLL_MS = 5_000;
export const LIST_MS = 10_000;

/** Calls `read` now and every `everyMs`, keeping the latest answer and the latest failure. */
function usePoll<T>(read: () => Promise<T>, everyMs: number, deps: readonly unknown[]) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    let live = true;
    const once = () =>
      read().then(
        (v) => {
          if (!live) return;
          setValue(v);
          setError(null);
        },
        (e: unknown) => live && setError(asApiError(e)),
      );
    void once();
    const timer = window.setInterval(() => void once(), everyMs);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
    // `read` is a new function each render: `deps` name what it reads
  }, deps);
  return { value, error };
}

export function useTableList(api: Api) {
  const { value, error } = usePoll(() => api.listTables(), LIST_MS, [api]);
  return { tables: value as readonly TableEntry[] | null, error };
}

/** A table's view read again every {@link POLL_MS}. */
export function usePolledView(api: Api, tableId: string): TableView | null {
  return usePoll(() => api.view(tableId), POLL_MS, [api, tableId]).value;
}

/** The edge monitor's tables with a favourable bet now, by table id (none when the role may not ask). */
export function useFavourable(token: string): ReadonlyMap<string, EdgeTableView> {
  const { value } = usePoll(
    () => getJson<EdgeNowView>(token, '/edge/favourable').catch(() => ({ tables: [] })),
    POLL_MS,
    [token],
  );
  return new Map((value?.tables ?? []).map((t) => [t.tableId, t]));
}
