/**
 * Every stable error code the HTTP API answers, with its status and what it means: the decider's codes (their
 * status from `ERROR_HTTP_STATUS`), the staff accounts' (`STAFF_ERROR_STATUS`), the read side's, the event store's
 * and the edge's own. The OpenAPI document lists them per operation from here (openapi-errors.ts); a test holds
 * every code the service's source can answer to this catalogue.
 */
import { ERROR_HTTP_STATUS, type DomainErrorCode } from '@coup/table';
import { staff } from '@coup/auth';
import type { QueryErrorCode, ReplayErrorCode } from '@coup/projections';
import type { EventStoreUnavailableErrorCode } from '@coup/event-store';

/** What a client reads a domain refusal as (the decider's `ERROR_HTTP_STATUS` gives the status). */
const DOMAIN: Readonly<Record<DomainErrorCode, string>> = {
  INVALID_COMMAND: 'a field of the command is malformed (details.field)',
  INVALID_TABLE_ID: 'tableId is not 1 to 64 letters, digits, _ or -',
  INVALID_PLAYER_ID: 'playerId is not a player id',
  INVALID_RULES: 'a table rule is not valid (details.field names it)',
  INVALID_AMOUNT: "not a positive whole number of cents, or not made of the table's chips",
  INVALID_SPOT: 'not a spot of the catalogue',
  SPOT_NOT_OFFERED: "a side bet this table's rules do not offer",
  MAIN_BET_REQUIRED: 'a side bet needs a bet on player, banker or tie in the round',
  INVALID_CARD: 'not a card (rank and suit, like Ah, Td or 10d)',
  INVALID_SEED: 'a shuffle seed is not 64 hexadecimal characters',
  INVALID_INDEX: 'the card index is not a dealt card of this coup',
  INVALID_REASON:
    'the reason is not 3 to 500 characters of one line of visible text (no control, bidi or zero-width characters)',
  BET_LIMIT: "the spot's total would leave the table's limits (details: spot, min, max, spotTotal)",
  PLAYER_AND_BANKER: 'player and banker together, on a table that forbids it',
  WRONG_DEALING_MODE: 'a command or field of another dealing or shuffle mode',
  FORBIDDEN:
    'the role may not do this, or a player acting for another, or a table the token is not limited to',
  PERSONAL_TABLE: "a player's online table: only its player bets and deals there",
  UNKNOWN_TABLE: 'no such table (open it first)',
  UNKNOWN_PLAYER: 'the player is not seated at this table (buy in first)',
  TABLE_EXISTS: 'a table with this id exists',
  TABLE_CLOSED: 'the table is closed',
  ROUND_FULL: 'the round holds the most stakes a coup takes (the rule maxStakes)',
  CORRECTION_WINDOW_CLOSED: 'the settled coup can no longer be corrected or voided (the next betting opened)',
  PLAYERS_SEATED:
    'players still hold chips: close with cashOutAll=true (details.players); past the 500 a close cashes out at once (details.cashOutAllMax), cash some out first',
  WRONG_PHASE: 'not in this phase of the table',
  WRONG_ROUND: 'roundNo is not the current round',
  BETTING_CLOSED: 'betting is closed (phase, or past the deadline)',
  INSUFFICIENT_CHIPS: 'the player has not enough chips',
  NO_BETS: 'the player has no bets in this round',
  NO_PREVIOUS_BETS: 'the player has no bets of a previous round to repeat',
  MINIMUM_BET_REQUIRED: 'a player-dealt coup needs a bet, every staked spot at least its minimum',
  BETS_IN_PLAY: 'the player has bets in the open round',
  CARD_NOT_DUE: 'no card is due (not dealing, or the coup is complete)',
  CARD_NOT_IN_SHOE: 'the live shoe holds no more of that card',
  DEADLINE_NOT_REACHED: 'the betting timer has not run out',
  SHOE_NOT_STARTED: 'no shoe is in progress',
  SHOE_IN_PROGRESS: 'a shoe is in progress',
  CORRECTION_CONFLICT: 'the correction changes nothing, or conflicts with what happened since',
};

/**
 * The staff accounts' refusals; null: never an HTTP answer (the edge checks the user name first, and makes the
 * password hash and the times itself: these guard the decider's other callers, the CLI).
 */
const STAFF: Readonly<Record<staff.StaffErrorCode, string | null>> = {
  INVALID_USERNAME: null,
  INVALID_ROLES: 'roles must be one or more staff roles, each once',
  INVALID_TABLES: 'tables must be table ids, each once',
  INVALID_REASON:
    'the reason is not 3 to 500 characters of one line of visible text (no control, bidi or zero-width characters)',
  INVALID_PASSWORD_HASH: null,
  INVALID_INSTANT: null,
  ACCOUNT_EXISTS: 'an account with this user name exists',
  UNKNOWN_ACCOUNT: 'no such staff account',
  LAST_ADMIN: 'the change would leave no enabled admin',
  NOT_A_PASSWORD_ACCOUNT: 'a single-sign-on account has no password here',
  INVALID_CREDENTIALS: 'wrong user name or password',
  ACCOUNT_DISABLED: 'the account is disabled',
  ACCOUNT_LOCKED: 'too many wrong passwords: locked until details.until',
  ROLE_NOT_HELD: 'the account does not hold the role asked for',
  NO_STAFF_ROLE: 'the identity provider gave no Coup staff role',
};

const READ_SIDE: Readonly<Record<QueryErrorCode | ReplayErrorCode, readonly [number, string]>> = {
  INVALID_QUERY: [400, 'a query parameter is malformed, unknown or given twice (details.field)'],
  INVALID_CURSOR: [400, 'the cursor is not one this list gave'],
  UNKNOWN_HAND: [404, 'no such hand (round) at this table'],
  HAND_EVENTS_MISSING: [409, "the hand's events are not in the store"],
};

const STORE: Readonly<Record<EventStoreUnavailableErrorCode, string>> = {
  STORE_UNAVAILABLE: 'the event store cannot be reached now; retry',
  STORE_FULL: 'the event store has no space left',
  STORE_READ_ONLY: 'the event store cannot be written',
  STORE_CLOSED: 'the event store is closed (the service is stopping)',
  STORE_CORRUPT: "the event store's file is damaged",
  STORE_OUTCOME_UNKNOWN: 'the store did not confirm the write: retry with the same Idempotency-Key',
};

/** The edge's own codes: [status, meaning]. */
const EDGE = {
  BAD_REQUEST: [400, 'the request is not valid HTTP'],
  INVALID_URL: [400, 'the URL is malformed (a bad % escape)'],
  INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body'],
  INVALID_JSON: [400, 'the body is not valid JSON, or has __proto__ or constructor.prototype keys'],
  JSON_TOO_DEEP: [400, 'the body nests deeper than COUP_JSON_MAX_DEPTH'],
  VALIDATION_FAILED: [400, 'the body breaks its schema (the message names the field)'],
  INVALID_PARAMETER: [400, 'a path parameter is malformed (details.field)'],
  INVALID_IDEMPOTENCY_KEY: [400, 'Idempotency-Key is not 1 to 128 visible ASCII characters'],
  SSO_NO_FLOW: [400, 'no sign-in under way in this browser, or its state does not match'],
  UNAUTHENTICATED: [401, 'no valid bearer token (missing, malformed, expired, or signed out)'],
  SSO_FAILED: [401, 'the identity provider refused the sign-in, or its token did not verify'],
  SSO_INVALID_TABLES: [403, "the identity provider's tables claim is not a list of table ids"],
  NOT_FOUND: [404, 'no such route'],
  SSO_NOT_CONFIGURED: [404, 'single sign-on is not configured (COUP_OIDC_ISSUER)'],
  UNKNOWN_SHOE: [404, 'no such shoe at this table'],
  METHOD_NOT_ALLOWED: [405, 'the route does not take this method'],
  NOT_ACCEPTABLE: [406, 'the answer cannot be given in the media type asked for'],
  REQUEST_TIMEOUT: [408, 'the request did not arrive within COUP_REQUEST_TIMEOUT_MS'],
  CONCURRENCY_CONFLICT: [409, 'the table changed while the command was decided, too often: retry it'],
  NOT_SEATED: [409, 'you have no chips on this table'],
  COUP_INCOMPLETE: [409, 'a coup is incomplete: DEAL it or clear your bets, then exit'],
  NOT_A_SIGN_IN: [409, 'this token does not come from a sign-in'],
  STREAM_DELETED: [410, "the table's stream was deleted in the event store"],
  PAYLOAD_TOO_LARGE: [413, 'the body is over COUP_BODY_LIMIT'],
  PARAMETER_TOO_LONG: [414, 'a path parameter is too long'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'the body is not application/json'],
  IDEMPOTENCY_KEY_REUSED: [422, 'the Idempotency-Key was used for another request (caller or body)'],
  IDEMPOTENCY_KEY_EXPIRED: [422, 'the Idempotency-Key was used more than COUP_IDEMPOTENCY_DAYS ago'],
  APPEND_TOO_LARGE: [422, "the command's events are more than the event store takes at once"],
  RATE_LIMITED: [429, 'too many commands or sign-ins a minute: retry after Retry-After seconds'],
  TOO_MANY_AUTH_FAILURES: [429, 'too many bad tokens from this address: retry after Retry-After seconds'],
  TOO_MANY_REQUESTS: [429, 'too many requests'],
  HEADERS_TOO_LARGE: [431, 'the request headers are too large'],
  INTERNAL_ERROR: [500, 'an unexpected failure, logged with the correlation id'],
  SSO_UNAVAILABLE: [502, 'the identity provider cannot be reached now'],
  SHUTTING_DOWN: [503, 'the service is stopping: retry shortly'],
  READ_MODELS_UNAVAILABLE: [
    503,
    'the read models cannot be read now (PostgreSQL not reachable, or not built yet): retry',
  ],
  STORE_INCONSISTENT: [503, 'the store answered an unexpected revision: retry'],
} as const satisfies Readonly<Record<string, readonly [number, string]>>;

export type ServiceErrorCode =
  | DomainErrorCode
  | staff.StaffErrorCode
  | QueryErrorCode
  | ReplayErrorCode
  | EventStoreUnavailableErrorCode
  | keyof typeof EDGE;

export interface ErrorCodeInfo {
  readonly status: number;
  readonly meaning: string;
}

function catalogue(): Readonly<Record<string, ErrorCodeInfo>> {
  const all: Record<string, ErrorCodeInfo> = {};
  const add = (code: string, status: number, meaning: string) => {
    const known = all[code];
    if (known && known.status !== status)
      throw new Error(`error code ${code} has two statuses: ${known.status} and ${status}`);
    all[code] = known ?? { status, meaning };
  };
  for (const [code, meaning] of Object.entries(DOMAIN))
    add(code, ERROR_HTTP_STATUS[code as DomainErrorCode], meaning);
  for (const [code, meaning] of Object.entries(STAFF))
    if (meaning !== null) add(code, staff.STAFF_ERROR_STATUS[code as staff.StaffErrorCode], meaning);
  for (const [code, [status, meaning]] of Object.entries({ ...READ_SIDE, ...EDGE }))
    add(code, status, meaning);
  for (const [code, meaning] of Object.entries(STORE)) add(code, 503, meaning);
  return Object.freeze(all);
}

/** Every code the HTTP API answers: its status and meaning. */
export const ERROR_CODES: Readonly<Record<string, ErrorCodeInfo>> = catalogue();

/**
 * Codes any request may get, whatever its route: the HTTP server's and the framework's refusals of a request that
 * never reaches an operation (not HTTP, a bad URL, no such route, too slow, headers too large).
 */
export const ANY_REQUEST_CODES: readonly ServiceErrorCode[] = [
  'BAD_REQUEST',
  'INVALID_URL',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'REQUEST_TIMEOUT',
  'TOO_MANY_REQUESTS',
  'HEADERS_TOO_LARGE',
];

/** What any command (POST, PUT, DELETE under /api) may answer: its body's parsing, its limits, the store's writes. */
export const COMMAND_CODES: readonly ServiceErrorCode[] = [
  'INVALID_JSON',
  'JSON_TOO_DEEP',
  'INVALID_CONTENT_LENGTH',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'CONCURRENCY_CONFLICT',
  'APPEND_TOO_LARGE',
  'STREAM_DELETED',
  ...(Object.keys(STORE) as EventStoreUnavailableErrorCode[]),
];

/** What a route that reads a table from the store may answer (its read, the store's answers). */
export const TABLE_READ_CODES: readonly ServiceErrorCode[] = [
  'SHUTTING_DOWN',
  'STORE_UNAVAILABLE',
  'STORE_CLOSED',
  'STORE_CORRUPT',
  'STREAM_DELETED',
];
