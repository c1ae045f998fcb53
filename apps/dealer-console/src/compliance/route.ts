/**
 * The compliance screen's hash routes: `#/compliance?table=T1&player=alice&...` (a hand search, its fields in the
 * address so a search can be linked to and comes back after a replay) and `#/compliance/players/<id>` (a player's
 * audit trail).
 */
import { PLAYER_ID_PATTERN } from '@coup/table';

/** The search form as typed (strings: kept in the address as they are). */
export interface SearchForm {
  readonly table: string;
  readonly shoe: string;
  /** A gaming day, YYYY-MM-DD (instead of from/to). */
  readonly day: string;
  /** Casino local times, YYYY-MM-DDTHH:mm. */
  readonly from: string;
  readonly to: string;
  readonly player: string;
  readonly outcome: string;
  /** 'true': only hands with a corrected card. */
  readonly corrected: string;
}

export const SEARCH_FIELDS = [
  'table',
  'shoe',
  'day',
  'from',
  'to',
  'player',
  'outcome',
  'corrected',
] as const;

export const EMPTY_SEARCH: SearchForm = {
  table: '',
  shoe: '',
  day: '',
  from: '',
  to: '',
  player: '',
  outcome: '',
  corrected: '',
};

export type ComplianceRoute =
  | { readonly kind: 'search'; readonly form: SearchForm }
  | { readonly kind: 'player'; readonly playerId: string };

const ROUTE = /^#\/compliance(?:\/players\/([^/?]+))?(?:\?(.*))?$/;

/** The compliance route an address shows, or null when it is another screen's. */
export function parseComplianceRoute(hash: string): ComplianceRoute | null {
  const m = ROUTE.exec(hash);
  if (!m) return null;
  if (m[1] !== undefined) {
    let id: string;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      return null;
    }
    return PLAYER_ID_PATTERN.test(id) ? { kind: 'player', playerId: id } : null;
  }
  const q = new URLSearchParams(m[2] ?? '');
  const form = Object.fromEntries(SEARCH_FIELDS.map((k) => [k, q.get(k) ?? ''])) as unknown as SearchForm;
  return { kind: 'search', form };
}

/** The address of a search (empty fields left out). */
export function searchHash(form: SearchForm): string {
  const q = new URLSearchParams();
  for (const k of SEARCH_FIELDS) if (form[k] !== '') q.set(k, form[k]);
  const s = q.toString();
  return s === '' ? '#/compliance' : `#/compliance?${s}`;
}

/** The address of a player's audit trail. */
export function playerHash(playerId: string): string {
  return `#/compliance/players/${encodeURIComponent(playerId)}`;
}
