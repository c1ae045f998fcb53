/** The hand-history list's query string, checked and read into the read model's filter and page. */
import type { GamingClock, HandFilter } from '@coup/projections';
import { ApiError } from '../common/api-error';
import { optionalInt, playerIdParam, queryOf } from './params';

/** `true` or `false` (else 400 INVALID_QUERY naming the field). */
function optionalBoolean(q: Record<string, string | undefined>, field: string): boolean | undefined {
  const v = q[field];
  if (v === undefined || v === 'true' || v === 'false') return v === undefined ? undefined : v === 'true';
  throw new ApiError(400, 'INVALID_QUERY', `${field} must be true or false`, { field });
}

const HANDS_PARAMETERS = [
  'shoe',
  'roundFrom',
  'roundTo',
  'from',
  'to',
  'gamingDay',
  'outcome',
  'player',
  'corrected',
  'order',
  'cursor',
  'limit',
] as const;

/**
 * `gamingDay` (YYYY-MM-DD, the casino's day by COUP_GAMING_DAY) as the from..to instants of that day; not with
 * `from` or `to` (400 INVALID_QUERY naming gamingDay).
 */
function gamingDayBounds(
  q: Record<string, string | undefined>,
  clock: GamingClock,
): { from: string | undefined; to: string | undefined } {
  const day = q['gamingDay'];
  if (day === undefined) return { from: q['from'], to: q['to'] };
  const bad = (message: string) => new ApiError(400, 'INVALID_QUERY', message, { field: 'gamingDay' });
  if (q['from'] !== undefined || q['to'] !== undefined) throw bad('give gamingDay or from/to, not both');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
    throw bad('gamingDay must be a date, YYYY-MM-DD');
  const { startsAt, endsAt } = clock.bounds(day);
  return { from: startsAt, to: endsAt };
}

/**
 * The filter and page of `GET /api/tables/:tableId/hands`: numbers, the player id, `corrected` and `gamingDay`
 * (read by the casino's gaming-day clock) checked here (400 naming the field); the dates, outcome, order and
 * cursor are checked by the read model's `checkHandsQuery`.
 */
export function handsQueryOf(
  query: unknown,
  clock: GamingClock,
): {
  filter: HandFilter;
  page: { cursor: string | undefined; limit: number | undefined };
} {
  const q = queryOf(query, HANDS_PARAMETERS);
  const filter: HandFilter = {
    shoe: optionalInt(q, 'shoe'),
    roundFrom: optionalInt(q, 'roundFrom'),
    roundTo: optionalInt(q, 'roundTo'),
    ...gamingDayBounds(q, clock),
    outcome: q['outcome'] as HandFilter['outcome'],
    player: q['player'] === undefined ? undefined : playerIdParam(q['player'], 'player'),
    corrected: optionalBoolean(q, 'corrected'),
    order: q['order'] as HandFilter['order'],
  };
  return { filter, page: { cursor: q['cursor'], limit: optionalInt(q, 'limit') } };
}
