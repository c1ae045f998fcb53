/**
 * Field readers. Client objects (commands, rules) are read by their own properties only: a field the client did
 * not send reads as undefined, never as something inherited (from a polluted Object.prototype, or an object made
 * with a prototype). Each reader checks one field's shape and refuses with its 400 code.
 */
import { ALL_SPOTS, cardFromSpelling, isSpot } from '@coup/engine';
import { type Card, PLAYER_ID_PATTERN, SEED_PATTERN, type Spot } from '../vocabulary';
import { Refusal, describe, refuse } from './refusal';

/** A command's data, read by its own fields (an object without a prototype). */
export type Data = Record<string, unknown>;

/** The own enumerable fields of `value`, copied into an object without a prototype. */
export function ownFields(value: object): Record<string, unknown> {
  const fields = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) fields[key] = (value as Record<string, unknown>)[key];
  return fields;
}

/** Objects (plain or DTO class instances), not arrays or null. */
export function isPlainObject(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readRoundNo(v: unknown): number | Refusal {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) {
    return refuse('INVALID_COMMAND', `roundNo must be a positive integer, got ${describe(v)}`, {
      field: 'roundNo',
    });
  }
  return v;
}

export function readPlayerId(v: unknown): string | Refusal {
  if (typeof v !== 'string' || !PLAYER_ID_PATTERN.test(v)) {
    return refuse(
      'INVALID_PLAYER_ID',
      `playerId must be 1 to 64 characters of letters, digits and _ . : @ + - (starting with a letter or digit), got ${describe(v)}`,
      { field: 'playerId' },
    );
  }
  return v;
}

export function readAmount(v: unknown, field = 'amount'): number | Refusal {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) {
    return refuse('INVALID_AMOUNT', `${field} must be a positive whole number of cents, got ${describe(v)}`, {
      field,
      amount: v,
    });
  }
  return v;
}

/** An optional seed, lowercased. */
export function readSeed(v: unknown, field: string): string | undefined | Refusal {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !SEED_PATTERN.test(v)) {
    return refuse(
      'INVALID_SEED',
      `${field} must be 64 hexadecimal characters (32 bytes), got ${describe(v)}`,
      {
        field,
      },
    );
  }
  return v.toLowerCase();
}

/** A card in any spelling `cardFromSpelling` accepts (`Th`, `th`, `10h`), recorded as the engine's `Th`. */
export function readCard(v: unknown, field = 'card'): Card | Refusal {
  const card = cardFromSpelling(v);
  if (card === null) {
    return refuse(
      'INVALID_CARD',
      `${field} must be a card: a rank (A 2 3 4 5 6 7 8 9 T J Q K, or 10) then a suit (c d h s), either case, e.g. 'Ah', 'Td', '10d', got ${describe(v)}`,
      { field, card: v },
    );
  }
  return card;
}

export function readSpot(v: unknown): Spot | Refusal {
  if (!isSpot(v)) {
    return refuse('INVALID_SPOT', `spot must be one of ${ALL_SPOTS.join(', ')}, got ${describe(v)}`, {
      field: 'spot',
    });
  }
  return v;
}

/**
 * The characters free text a person types as a reason (a void's, a correction's, a staff account's disabling) may
 * hold: one line of visible text. `REASON_TEXT` refuses, anywhere in the text,
 * - control characters (Cc: C0 with tab, CR and LF, DEL, C1): a reason is one line, and an escape sequence must not
 *   reach a terminal that prints it (`coup replay`);
 * - format characters (Cf): the bidi controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), zero-width
 *   spaces and joiners (U+200B-U+200D, U+2060), the byte-order mark (U+FEFF), the soft hyphen, tags: text that
 *   reorders or hides what is shown. (Emoji built with a zero-width joiner are refused with them.)
 * - line and paragraph separators (U+2028, U+2029) and lone surrogates (ill-formed UTF-16);
 * and it needs at least one visible character: one that is not white space nor default-ignorable (variation
 * selectors, Hangul fillers...) nor the blank braille pattern, so a reason cannot look blank.
 * The lengths are checked apart (`REASON_MIN_LENGTH`, `REASON_MAX_LENGTH`, code units of the trimmed text). The one
 * rule the decider and the service's validation share. Events recorded before it may hold such characters: they
 * still fold; whatever prints them escapes them.
 */
export const REASON_TEXT =
  /^(?=[^]*[^\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800])[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]*$/u;
export const REASON_MIN_LENGTH = 3;
export const REASON_MAX_LENGTH = 500;

/**
 * A reason for a void or a correction: 3 to 500 characters once trimmed, one line of visible text (`REASON_TEXT`).
 */
export function readReason(v: unknown, what = 'A void'): string | Refusal {
  const reason = typeof v === 'string' ? v.trim() : '';
  if (reason.length < REASON_MIN_LENGTH || reason.length > REASON_MAX_LENGTH) {
    return refuse(
      'INVALID_REASON',
      `${what} needs a reason of ${REASON_MIN_LENGTH} to ${REASON_MAX_LENGTH} characters`,
      { field: 'reason' },
    );
  }
  if (!REASON_TEXT.test(v as string)) {
    return refuse(
      'INVALID_REASON',
      `${what} needs a reason of one line of visible text: no control, bidi or zero-width characters`,
      { field: 'reason' },
    );
  }
  return reason;
}
