/** Query and path parameters, checked: anything malformed is a 400 with a stable code naming the field. */
import { PLAYER_ID_PATTERN, TABLE_ID_PATTERN } from '@coup/table';
import { ApiError } from '../common/api-error';

const ID = TABLE_ID_PATTERN;
const PLAYER_ID = PLAYER_ID_PATTERN;

export function tableIdParam(value: string): string {
  if (!ID.test(value))
    throw new ApiError(400, 'INVALID_PARAMETER', 'tableId must be 1 to 64 letters, digits, _ or -', {
      field: 'tableId',
    });
  return value;
}

export function playerIdParam(value: string, field = 'playerId'): string {
  if (!PLAYER_ID.test(value))
    throw new ApiError(400, 'INVALID_PARAMETER', `${field} must be a player id (1 to 64 characters)`, {
      field,
    });
  return value;
}

export function positiveInt(value: string, field: string): number {
  if (!/^[1-9]\d{0,14}$/.test(value))
    throw new ApiError(400, 'INVALID_QUERY', `${field} must be a positive whole number`, { field });
  return Number(value);
}

export type Query = Readonly<Record<string, unknown>>;

/**
 * The query string as single strings, refusing parameters this endpoint does not take and repeated ones
 * (400 INVALID_QUERY naming the parameter).
 */
export function queryOf(query: unknown, allowed: readonly string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries((query ?? {}) as Query)) {
    if (!allowed.includes(key)) {
      throw new ApiError(
        400,
        'INVALID_QUERY',
        `unknown query parameter '${key}' (this endpoint takes ${allowed.join(', ') || 'none'})`,
        { field: key },
      );
    }
    if (typeof value !== 'string')
      throw new ApiError(400, 'INVALID_QUERY', `query parameter '${key}' must be given once`, { field: key });
    out[key] = value;
  }
  return out;
}

export function optionalInt(q: Record<string, string | undefined>, field: string): number | undefined {
  const v = q[field];
  return v === undefined ? undefined : positiveInt(v, field);
}
