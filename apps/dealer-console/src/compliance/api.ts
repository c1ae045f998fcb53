/** The compliance screen's calls: tables, hand searches with their verification, CSV, a player's ledger. */
import type { Fetch, TableEntry } from '../api';
import { fetchAllCsv } from '../export';
import { getJson, queryString } from '../replay/http';
import type { HandPage, HandVerification, LedgerView } from '@coup/projections/wire';
import { type Search, handsPath } from './search';

export const SEARCH_PAGE_SIZE = 20;
export const LEDGER_PAGE_SIZE = 50;
/** The largest page the API gives: CSV downloads read the whole search in pages of this many. */
const CSV_PAGE_SIZE = 500;

const ledgerPath = (playerId: string, cursor: string | null, limit: number) =>
  `/players/${encodeURIComponent(playerId)}/ledger${queryString({ cursor, limit })}`;

export function complianceApi(token: string, fetchFn?: Fetch) {
  return {
    tables: () => getJson<TableEntry[]>(token, '/tables', fetchFn),
    hands: (search: Search, cursor: string | null) =>
      getJson<HandPage>(token, handsPath(search, cursor, SEARCH_PAGE_SIZE), fetchFn),
    verify: (tableId: string, roundNo: number) =>
      getJson<HandVerification>(
        token,
        `/tables/${encodeURIComponent(tableId)}/hands/${roundNo}/verify`,
        fetchFn,
      ),
    /** The whole search as the API's CSV (every page). */
    handsCsv: (search: Search) =>
      fetchAllCsv(token, (c) => handsPath(search, c, CSV_PAGE_SIZE), fetchFn ? { fetchFn } : {}),
    ledger: (playerId: string, cursor: string | null) =>
      getJson<LedgerView>(token, ledgerPath(playerId, cursor, LEDGER_PAGE_SIZE), fetchFn),
    /** Every entry of the player's ledger as the API's CSV. */
    ledgerCsv: (playerId: string) =>
      fetchAllCsv(token, (c) => ledgerPath(playerId, c, CSV_PAGE_SIZE), fetchFn ? { fetchFn } : {}),
  };
}

export type ComplianceApi = ReturnType<typeof complianceApi>;
