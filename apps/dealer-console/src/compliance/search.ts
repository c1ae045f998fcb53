/** A compliance search as the hand-history API takes it: the form checked, times read in the casino's zone. */
import { PLAYER_ID_PATTERN, TABLE_ID_PATTERN } from '@coup/table';
import type { HandFilter } from '@coup/projections/wire';
import { queryString } from '../replay/http';
import type { SearchForm } from './route';
import { zonedToIso } from './zoned';

/** The hands filter of a search: a gaming day (the service knows its cut-over) or instants. */
export type HandQuery = HandFilter & { readonly gamingDay?: string };

export interface Search {
  readonly tableId: string;
  readonly filter: HandQuery;
}

/** The casino's time zone (IANA; none: the browser's own): local times typed in the form are read in it. */
export interface CasinoZone {
  readonly timeZone?: string;
}

/** Why a form is not a search: the message's key in the `compliance` catalogue and the field to fix. */
export interface SearchProblem {
  readonly field: keyof SearchForm;
  readonly message: string;
}

const OUTCOMES = ['player', 'banker', 'tie', 'void'] as const;

const isDate = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day) && zonedToIso(`${day}T00:00`) !== null;

function timeBounds(
  form: SearchForm,
  zone: CasinoZone,
): SearchProblem | Pick<HandQuery, 'from' | 'to' | 'gamingDay'> {
  if (form.day !== '') {
    if (form.from !== '' || form.to !== '') return { field: 'day', message: 'errors.dayOrRange' };
    return isDate(form.day) ? { gamingDay: form.day } : { field: 'day', message: 'errors.day' };
  }
  const from = form.from === '' ? undefined : zonedToIso(form.from, zone.timeZone);
  const to = form.to === '' ? undefined : zonedToIso(form.to, zone.timeZone);
  if (from === null) return { field: 'from', message: 'errors.time' };
  if (to === null) return { field: 'to', message: 'errors.time' };
  if (from !== undefined && to !== undefined && from >= to) return { field: 'to', message: 'errors.range' };
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** The search a form asks for, or the first problem with it. */
export function toSearch(form: SearchForm, zone: CasinoZone): Search | SearchProblem {
  const tableId = form.table.trim();
  if (!TABLE_ID_PATTERN.test(tableId)) return { field: 'table', message: 'errors.table' };
  const shoe = form.shoe.trim();
  if (shoe !== '' && !/^[1-9][0-9]{0,8}$/.test(shoe)) return { field: 'shoe', message: 'errors.shoe' };
  const player = form.player.trim();
  if (player !== '' && !PLAYER_ID_PATTERN.test(player)) return { field: 'player', message: 'errors.player' };
  const outcome = OUTCOMES.find((o) => o === form.outcome);
  if (form.outcome !== '' && outcome === undefined) return { field: 'outcome', message: 'errors.outcome' };
  const times = timeBounds(form, zone);
  if ('field' in times) return times;
  return {
    tableId,
    filter: {
      ...(shoe === '' ? {} : { shoe: Number(shoe) }),
      ...times,
      ...(player === '' ? {} : { player }),
      ...(outcome === undefined ? {} : { outcome }),
      ...(form.corrected === 'true' ? { corrected: true } : {}),
    },
  };
}

export const isProblem = (s: Search | SearchProblem): s is SearchProblem => 'field' in s;

/** The API path of a page of the search's hands. */
export function handsPath(search: Search, cursor: string | null, limit: number): string {
  const { filter } = search;
  return `/tables/${encodeURIComponent(search.tableId)}/hands${queryString({
    shoe: filter.shoe,
    gamingDay: filter.gamingDay,
    from: filter.from,
    to: filter.to,
    player: filter.player,
    outcome: filter.outcome,
    corrected: filter.corrected,
    cursor,
    limit,
  })}`;
}
