/** The hand-history list's query string, checked and read into the read model's filter and page. */
import type { HandFilter } from '@coup/projections';
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
  'outcome',
  'player',
  'corrected',
  'order',
  'cursor',
  'limit',
] as const;

/**
 * The filter and page of `GET /api/tables/:tableId/hands`: numbers, the player id and `corrected` checked here (400 naming the
 * field); the dates, outcome, order and cursor are checked by the read model's `checkHandsQuery`.
 */
export function handsQueryOf(query: unknown): {
  filter: HandFilter;
  page: { cursor: string | undefined; limit: number | undefined };
} {
  const q = queryOf(query, HANDS_PARAMETERS);
  const filter: HandFilter = {
    shoe: optionalInt(q, 'shoe'),
    roundFrom: optionalInt(q, 'roundFrom'),
    roundTo: optionalInt(q, 'roundTo'),
    from: q['from'],
    to: q['to'],
    outcome: q['outcome'] as HandFilter['outcome'],
    player: q['player'] === undefined ? undefined : playerIdParam(q['player'], 'player'),
    corrected: optionalBoolean(q, 'corrected'),
    order: q['order'] as HandFilter['order'],
  };
  return { filter, page: { cursor: q['cursor'], limit: optionalInt(q, 'limit') } };
}
