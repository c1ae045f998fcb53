/** The read-side calls of the replay screen and the roads (`GET` only). */
import type { Fetch } from '../api';
import { getJson, queryString } from './http';
import type { HandFilter, HandPage, HandReplay, HandSummary, HandVerification } from '@coup/projections/wire';

export const PAGE_SIZE = 20;

export function readApi(token: string, fetchFn?: Fetch) {
  const t = (tableId: string) => `/tables/${encodeURIComponent(tableId)}`;
  return {
    hands: (tableId: string, filter: HandFilter, cursor?: string | null, limit = PAGE_SIZE) =>
      getJson<HandPage>(
        token,
        `${t(tableId)}/hands${queryString({ ...filter, cursor: cursor ?? undefined, limit })}`,
        fetchFn,
      ),
    hand: (tableId: string, roundNo: number) =>
      getJson<HandSummary>(token, `${t(tableId)}/hands/${roundNo}`, fetchFn),
    replay: (tableId: string, roundNo: number) =>
      getJson<HandReplay>(token, `${t(tableId)}/hands/${roundNo}/replay`, fetchFn),
    verify: (tableId: string, roundNo: number) =>
      getJson<HandVerification>(token, `${t(tableId)}/hands/${roundNo}/verify`, fetchFn),
  };
}

export type ReadApi = ReturnType<typeof readApi>;
