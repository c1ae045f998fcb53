/**
 * Every id, seed and instant pattern, in one place: the decider checks commands with them, and the service's
 * DTOs, route parameters and gateway take them from here.
 */

/** A table id inside a larger pattern (a route): 1..64 characters of `[A-Za-z0-9_-]`. */
export const TABLE_ID_SOURCE = '[A-Za-z0-9_-]{1,64}';
/** Table ids: 1..64 characters of `[A-Za-z0-9_-]`. */
export const TABLE_ID_PATTERN = new RegExp(`^${TABLE_ID_SOURCE}$`);
/** Player ids: 1..64 characters of `[A-Za-z0-9_.:@+-]`, the first a letter or digit. */
export const PLAYER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:@+-]{0,63}$/;
/** What follows `online-` in a personal table's id: a player id made of table-id characters (no `.:@+`). */
export const PERSONAL_TABLE_OWNER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** Shuffle seeds: 64 hexadecimal characters (32 bytes), either case (the decider records them lowercase). */
export const SEED_PATTERN = /^[0-9a-fA-F]{64}$/;
/** ISO-8601 instants with an offset or `Z` (seconds and fractions optional): `meta.at`. */
export const ISO_INSTANT_PATTERN =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
/** An actor id (`meta.actor.id`, the token's subject): 1 to this many characters. */
export const ACTOR_ID_MAX_LENGTH = 128;
