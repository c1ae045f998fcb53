/** A compliance search as the hand-history API takes it: the form checked, times read in the casino's zone. */
import { PLAYER_ID_PATTERN, TABLE_ID_PATTERN } from '@coup/table';
import type { HandFilter } from '@coup/projections/wire';
import { queryString } from '../replay/http';
import type { SearchForm } from './route';
import { gamingDayRange, zonedToIso } from './zoned';

/** The hands filter of a search (`corrected`: only hands with a corrected card). */
export type HandQuery = HandFilter & { readonly corrected?: true };

export interface Search {
  readonly tableId: string;
  readonly filter: HandQuery;
}

/** Where gaming days start: the cut-over (HH:mm) in the casino's time zone (IANA; none: the browser's own). */
export interface GamingDayClock {
  readonly cutover: string;
  readonly timeZone?: string;
}

/** Why a form is not a search: the message's key in the `compliance` catalogue and the field to fix. */
export interface SearchProblem {
  readonly field: keyof SearchForm;
  readonly message: string;
}

const OUTCOMES = ['player', 'banker', 'tie', 'void'] as const;

function timeBounds(form: SearchForm, clock: GamingDayClock): SearchProblem | { from?: string; to?: string } {
  if (form.day !== '') {
    if (form.from !== '' || form.to !== '') return { field: 'day', message: 'errors.dayOrRange' };
    const r = gamingDayRange(form.day, clock.cutover, clock.timeZone);
    return r ?? { field: 'day', message: 'errors.day' };
  }
  const from = form.from === '' ? undefined : zonedToIso(form.from, clock.timeZone);
  const to = form.to === '' ? undefined : zonedToIso(form.to, clock.timeZone);
  if (from === null) return { field: 'from', message: 'errors.time' };
  if (to === null) return { field: 'to', message: 'errors.time' };
  if (from !== undefined && to !== undefined && from >= to) return { field: 'to', message: 'errors.range' };
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** The search a form asks for, or the first problem with it. */
export function toSearch(form: SearchForm, clock: GamingDayClock): Search | SearchProblem {
  const tableId = form.table.trim();
  if (!TABLE_ID_PATTERN.test(tableId)) return { field: 'table', message: 'errors.table' };
  const shoe = form.shoe.trim();
  if (shoe !== '' && !/^[1-9][0-9]{0,8}$/.test(shoe)) return { field: 'shoe', message: 'errors.shoe' };
  const player = form.player.trim();
  if (player !== '' && !PLAYER_ID_PATTERN.test(player)) return { field: 'player', message: 'errors.player' };
  const outcome = OUTCOMES.find((o) => o === form.outcome);
  if (form.outcome !== '' && outcome === undefined) return { field: 'outcome', message: 'errors.outcome' };
  const times = timeBounds(form, clock);
  if ('field' in times) return times;
  return {
    tableId,
    filter: {
      ...(shoe === '' ? {} : { shoe: Number(shoe) }),
      ...times,
      ...(player === '' ? {} : { player }),
      ...(outcome === undefined ? {} : { outcome }),
      ...(form.corrected === 'true' ? { corrected: true as const } : {}),
    },
  };
}

export const isProblem = (s: Search | SearchProblem): s is SearchProblem => 'field' in s;

/** The API path of a page of the search's hands. */
export function handsPath(search: Search, cursor: string | null, limit: number): string {
  const { filter } = search;
  return `/tables/${encodeURIComponent(search.tableId)}/hands${queryString({
    shoe: filter.shoe,
    from: filter.from,
    to: filter.to,
    player: filter.player,
    outcome: filter.outcome,
    corrected: filter.corrected ? 'true' : undefined,
    cursor,
    limit,
  })}`;
}
