/**
 * Domain errors: typed objects with a stable `code` (never thrown strings), a sentence for people, and
 * machine-readable `details`. `ERROR_HTTP_STATUS` maps every code to the HTTP status the service answers with.
 */
import type { Result } from '@coup/engine';

export type { Result };

/** Every stable error code the table produces. */
export type DomainErrorCode =
  | 'TABLE_EXISTS'
  | 'UNKNOWN_TABLE'
  | 'TABLE_CLOSED'
  | 'WRONG_PHASE'
  | 'WRONG_ROUND'
  | 'BETTING_CLOSED'
  | 'BET_LIMIT'
  | 'INVALID_AMOUNT'
  | 'INSUFFICIENT_CHIPS'
  | 'PLAYER_AND_BANKER'
  | 'NO_BETS'
  | 'NO_PREVIOUS_BETS'
  | 'MINIMUM_BET_REQUIRED'
  | 'UNKNOWN_PLAYER'
  | 'BETS_IN_PLAY'
  | 'CARD_NOT_DUE'
  | 'CARD_NOT_IN_SHOE'
  | 'INVALID_CARD'
  | 'INVALID_SEED'
  | 'INVALID_RULES'
  | 'DEADLINE_NOT_REACHED'
  | 'FORBIDDEN'
  | 'WRONG_DEALING_MODE'
  | 'SHOE_NOT_STARTED'
  | 'SHOE_IN_PROGRESS'
  | 'INVALID_INDEX'
  | 'INVALID_REASON'
  // added to the contract:
  | 'INVALID_COMMAND'
  | 'INVALID_TABLE_ID'
  | 'INVALID_PLAYER_ID'
  | 'INVALID_SPOT'
  | 'SPOT_NOT_OFFERED'
  | 'PLAYERS_SEATED'
  | 'MAIN_BET_REQUIRED'
  | 'CORRECTION_WINDOW_CLOSED'
  | 'ROUND_FULL'
  | 'CORRECTION_CONFLICT'
  | 'PERSONAL_TABLE';

/** A refused command: `code` is stable (match on it), `message` is for people, `details` for programs. */
export interface DomainError {
  readonly code: DomainErrorCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * The HTTP status for each code: 400 bad input (the request is wrong whatever the table's state), 403 the role
 * may not do it, 404 no such table or player, 409 the table's current state refuses it (phase, round, shoe,
 * chips, bets on the layout, time).
 */
export const ERROR_HTTP_STATUS: Readonly<Record<DomainErrorCode, number>> = Object.freeze({
  INVALID_COMMAND: 400, // malformed command: unknown type, missing/wrong-typed field, bad meta
  INVALID_TABLE_ID: 400, // tableId not 1..64 chars of [A-Za-z0-9_-]
  INVALID_PLAYER_ID: 400, // playerId not 1..64 chars of [A-Za-z0-9_.:@+-] starting with a letter or digit
  INVALID_RULES: 400, // details.field names the bad rule
  // not a positive safe integer, or not made of the table's chips; or it would let the player's chips (or box
  // commission owed) pass Number.MAX_SAFE_INTEGER: a buy-in, or a bet or rebet if the round paid its best
  INVALID_AMOUNT: 400,
  INVALID_SPOT: 400, // spot not one of the catalogue's spots (main spots and side bets)
  SPOT_NOT_OFFERED: 400, // a side bet this table's rules do not offer
  MAIN_BET_REQUIRED: 400, // a side bet by a player with no bet on player, banker or tie in the round
  INVALID_CARD: 400, // not a card string
  INVALID_SEED: 400, // not 64 hex characters, or missing where required
  INVALID_INDEX: 400, // CorrectCard index not a dealt card of this coup
  INVALID_REASON: 400, // a reason not 3..500 characters of one line of visible text
  BET_LIMIT: 400, // the spot total would leave [min, max] (details: spot, min, max, spotTotal)
  PLAYER_AND_BANKER: 400, // player and banker together on a table that forbids it
  WRONG_DEALING_MODE: 400, // a command or field for another dealing/shuffle mode (Deal on live, firstCard on rng...)
  FORBIDDEN: 403, // the actor's role may not send this command (or a player acting for another)
  PERSONAL_TABLE: 403, // a player's online table: bets and deals only from its player, operations only from its system actors
  UNKNOWN_TABLE: 404, // no table yet
  UNKNOWN_PLAYER: 404, // player not seated (never bought in, or cashed out)
  TABLE_EXISTS: 409,
  TABLE_CLOSED: 409,
  ROUND_FULL: 409, // the round holds the most stakes a coup's record takes (the rule maxStakes, at most 2,000)
  CORRECTION_WINDOW_CLOSED: 409, // a settled coup corrected or voided after the next round's betting opened, or its correctionSeconds
  PLAYERS_SEATED: 409, // CloseTable while players hold chips or owe commission, without cashOutAll or past its 500 (details.players, cashOutAllMax)
  WRONG_PHASE: 409,
  WRONG_ROUND: 409, // roundNo is not the current round
  BETTING_CLOSED: 409, // betting commands outside betting, or after the deadline
  INSUFFICIENT_CHIPS: 409,
  NO_BETS: 409,
  NO_PREVIOUS_BETS: 409,
  MINIMUM_BET_REQUIRED: 409, // player-dealt tables: DEAL needs a bet, every staked spot at its minimum
  BETS_IN_PLAY: 409, // cash-out while the player has bets in an open round
  CARD_NOT_DUE: 409, // no card is due: not dealing, or the coup is complete
  CARD_NOT_IN_SHOE: 409, // the live shoe holds no more of that card
  DEADLINE_NOT_REACHED: 409, // timer close before the deadline (or on a round without one)
  SHOE_NOT_STARTED: 409,
  SHOE_IN_PROGRESS: 409,
  CORRECTION_CONFLICT: 409, // the corrected sequence makes cards already dealt superfluous, or changes nothing
});

/** Builds a domain error. */
export function domainError(
  code: DomainErrorCode,
  message: string,
  details?: Readonly<Record<string, unknown>>,
): DomainError {
  return details === undefined ? { code, message } : { code, message, details };
}

/** True if `value` is a {@link DomainError}-shaped object with a known code. */
export function isDomainError(value: unknown): value is DomainError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    Object.hasOwn(ERROR_HTTP_STATUS, (value as { code: string }).code) &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
