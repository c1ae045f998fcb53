/** What an identity provider's ID token says of a person, read as Coup reads it: roles and tables. */
import { staff } from '@coup/auth';
import { ApiError } from '../common/api-error';

/** What a missing tables claim means for a dealer or supervisor: no table, or every table (configured). */
export type TablesWhenAbsent = 'none' | 'all';

/** A claim by dotted path (`realm_access.roles`), read from own properties only. */
export function claimAt(claims: Record<string, unknown>, path: string): unknown {
  let value: unknown = claims;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A claim's values: a list of strings, or one string of names separated by spaces or commas. */
export function claimValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((v) => v.length > 0);
  return [];
}

/**
 * The tables a person may run as a dealer or supervisor, from the tables claim: null (every table) only when the
 * claim is absent and the configuration says so. A claim that is present names the tables, and an empty one (or
 * null) names none; a claim that is not a list of table ids (or one string of them) refuses the sign-in rather than be read
 * as more than it says (403 SSO_INVALID_TABLES).
 */
export function tablesOfClaim(value: unknown, whenAbsent: TablesWhenAbsent): readonly string[] | null {
  if (value === undefined) return whenAbsent === 'all' ? null : [];
  if (value === null) return []; // present, naming nothing
  const listed = Array.isArray(value) || typeof value === 'string';
  const tables = listed ? claimValues(value) : [];
  const all = Array.isArray(value) ? value.length : tables.length;
  if (!listed || tables.length !== all || !tables.every((t) => staff.TABLE_ID_PATTERN.test(t)))
    throw new ApiError(
      403,
      'SSO_INVALID_TABLES',
      "the identity provider's tables claim is not a list of table ids: the sign-in is refused (fix the claim)",
    );
  return [...new Set(tables)];
}
