/**
 * Table rules: the defaults, and `normalizeRules`, which validates a raw rules object (from the wire) and fills
 * the defaults. Only the input's own keys are read; unknown ones (`toString` and `constructor` as much as `foo`)
 * are refused; every failure is `INVALID_RULES` with `details.field`.
 */
import type { Result } from '@coup/engine';
import { ownFields } from './kernel/fields';
import {
  type Fail,
  MAX_LIMIT,
  chipUnit,
  invalid,
  isPlainObject,
  isPositiveInt,
  normalizeLimit as limitWithin,
  oneOf,
} from './rule-fields';
import { normalizeGame, normalizeSideBets } from './side-bet-rules';
import { type DomainError, type Limit, MAX_STAKES, type TableRules } from './vocabulary';

export { MAX_LIMIT, chipUnit };

/** A main spot's limit, its default from {@link DEFAULT_RULES}. */
function normalizeLimit(
  input: unknown,
  spot: 'player' | 'banker' | 'tie',
  unit: number,
): Result<Limit, DomainError> {
  return limitWithin(input, DEFAULT_RULES.limits[spot], unit, `limits.${spot}`);
}

/**
 * The smallest cut card accepted: the coup in which the cut card comes out and one more coup (up to 6 cards each)
 * must always find enough cards. Same bound as the engine's shoe progress.
 */
export const MIN_CUT_CARD = 12;

/**
 * The defaults: rng, 8 decks, one shuffle per shoe, dealer-dealt, tie 8:1, commission deducted, player and
 * banker 1..5,000 dollars, tie 1..1,000 dollars, chips $1 $5 $25 $100 $500, no player+banker, no timer, cut card 16.
 */
export const DEFAULT_RULES: TableRules = Object.freeze({
  dealing: 'rng',
  decks: 8,
  shuffle: 'shoe',
  dealtBy: 'dealer',
  tiePays: 8,
  commission: 'deducted',
  limits: Object.freeze({
    player: Object.freeze({ min: 100, max: 500_000 }),
    banker: Object.freeze({ min: 100, max: 500_000 }),
    tie: Object.freeze({ min: 100, max: 100_000 }),
  }),
  chips: Object.freeze([100, 500, 2500, 10_000, 50_000]),
  allowPlayerAndBanker: false,
  bettingSeconds: null,
  cutCard: 16,
}) as TableRules;

const RULE_KEYS: readonly (keyof TableRules)[] = [
  'dealing',
  'decks',
  'shuffle',
  'dealtBy',
  'tiePays',
  'commission',
  'limits',
  'chips',
  'allowPlayerAndBanker',
  'bettingSeconds',
  'cutCard',
  'game',
  'sideBets',
  'correctionSeconds',
  'confirmResult',
  'maxStakes',
];

type Choices = Pick<TableRules, 'dealing' | 'shuffle' | 'dealtBy' | 'tiePays' | 'commission'>;

/** The rules chosen from a list: `dealing`, `shuffle`, `dealtBy`, `tiePays`, `commission`. */
function normalizeChoices(input: Record<string, unknown>): Result<Choices, DomainError> {
  const dealing = oneOf(input, 'dealing', ['rng', 'live'] as const, DEFAULT_RULES.dealing);
  if (!dealing.ok) return dealing;
  const shuffle = oneOf(input, 'shuffle', ['shoe', 'every-coup'] as const, DEFAULT_RULES.shuffle);
  if (!shuffle.ok) return shuffle;
  const dealtBy = oneOf(input, 'dealtBy', ['dealer', 'player'] as const, DEFAULT_RULES.dealtBy);
  if (!dealtBy.ok) return dealtBy;
  const tiePays = oneOf(input, 'tiePays', [8, 9] as const, DEFAULT_RULES.tiePays);
  if (!tiePays.ok) return tiePays;
  const commission = oneOf(input, 'commission', ['deducted', 'box'] as const, DEFAULT_RULES.commission);
  if (!commission.ok) return commission;
  return {
    ok: true,
    value: {
      dealing: dealing.value,
      shuffle: shuffle.value,
      dealtBy: dealtBy.value,
      tiePays: tiePays.value,
      commission: commission.value,
    },
  };
}

/** `chips`: 1 to 20 positive integers of cents, strictly ascending. */
function normalizeChips(input: Record<string, unknown>): Result<number[], DomainError> {
  const chipsInput = input['chips'] === undefined ? DEFAULT_RULES.chips : input['chips'];
  if (!Array.isArray(chipsInput) || chipsInput.length < 1 || chipsInput.length > 20) {
    return invalid('chips', 'must be an array of 1 to 20 chip values in cents', chipsInput);
  }
  for (let i = 0; i < chipsInput.length; i++) {
    const chip: unknown = Object.hasOwn(chipsInput, i) ? chipsInput[i] : undefined;
    if (!isPositiveInt(chip))
      return invalid(`chips[${i}]`, `must be a positive integer of cents up to ${MAX_LIMIT}`, chip);
    if (i > 0 && chip <= (chipsInput[i - 1] as number)) {
      return invalid(`chips[${i}]`, 'must be greater than the previous chip (ascending, unique)', chip);
    }
  }
  return { ok: true, value: [...(chipsInput as number[])] };
}

/** `limits`: each spot's limit, made of the chips (multiples of their `unit`). */
function normalizeLimits(
  input: Record<string, unknown>,
  unit: number,
): Result<TableRules['limits'], DomainError> {
  const limitsInput = input['limits'];
  if (limitsInput !== undefined && !isPlainObject(limitsInput)) {
    return invalid('limits', 'must be an object { player, banker, tie }', limitsInput);
  }
  const limitsObject = ownFields(limitsInput ?? {});
  for (const key of Object.keys(limitsObject)) {
    if (key !== 'player' && key !== 'banker' && key !== 'tie') {
      return invalid(`limits.${key}`, 'is not a spot (player, banker, tie)', limitsObject[key]);
    }
  }
  const player = normalizeLimit(limitsObject['player'], 'player', unit);
  if (!player.ok) return player;
  const banker = normalizeLimit(limitsObject['banker'], 'banker', unit);
  if (!banker.ok) return banker;
  const tie = normalizeLimit(limitsObject['tie'], 'tie', unit);
  if (!tie.ok) return tie;
  return { ok: true, value: { player: player.value, banker: banker.value, tie: tie.value } };
}

/** `cutCard`: an integer from {@link MIN_CUT_CARD} to half the shoe of `decks` decks. */
function normalizeCutCard(input: Record<string, unknown>, decks: number): Result<number, DomainError> {
  const maxCut = Math.floor((decks * 52) / 2);
  const cutCard = input['cutCard'] === undefined ? DEFAULT_RULES.cutCard : input['cutCard'];
  if (
    typeof cutCard !== 'number' ||
    !Number.isInteger(cutCard) ||
    cutCard < MIN_CUT_CARD ||
    cutCard > maxCut
  ) {
    return invalid(
      'cutCard',
      `must be an integer from ${MIN_CUT_CARD} to ${maxCut} (half the shoe)`,
      cutCard,
    );
  }
  return { ok: true, value: cutCard };
}

/** The combinations a table cannot have, or null: live tables shuffle per shoe and are dealer-dealt; player-dealt tables have no timer. */
function invalidCombination(choices: Choices, seconds: number | null): Fail | null {
  if (choices.dealing === 'live' && choices.shuffle === 'every-coup') {
    return invalid(
      'shuffle',
      'must be "shoe" on live tables (a live shoe is shuffled by hand)',
      choices.shuffle,
    );
  }
  if (choices.dealing === 'live' && choices.dealtBy === 'player') {
    return invalid(
      'dealtBy',
      'must be "dealer" on live tables (players deal only on rng tables)',
      choices.dealtBy,
    );
  }
  if (choices.dealtBy === 'player' && seconds !== null) {
    return invalid(
      'bettingSeconds',
      'must be null on player-dealt tables (the player deals when ready)',
      seconds,
    );
  }
  return null;
}

type Optional = Pick<TableRules, 'game' | 'sideBets' | 'correctionSeconds' | 'confirmResult' | 'maxStakes'>;

/**
 * The rules recorded only when not the default (so a table without them records exactly what it did before they
 * existed): `game`, `sideBets`, `correctionSeconds`, `confirmResult` (live tables only), `maxStakes`.
 */
function normalizeOptional(
  input: Record<string, unknown>,
  table: {
    dealing: TableRules['dealing'];
    shuffle: TableRules['shuffle'];
    decks: number;
    unit: number;
    limits: TableRules['limits'];
  },
): Result<Optional, DomainError> {
  const confirm = input['confirmResult'] ?? false;
  if (typeof confirm !== 'boolean') return invalid('confirmResult', 'must be a boolean', confirm);
  if (confirm && table.dealing !== 'live') {
    return invalid(
      'confirmResult',
      'applies to live tables only (an rng table deals the coup at once)',
      confirm,
    );
  }
  const game = normalizeGame(input);
  if (!game.ok) return game;
  const sideBets = normalizeSideBets(input, { ...table, game: game.value });
  if (!sideBets.ok) return sideBets;
  const correctionSeconds = input['correctionSeconds'];
  const maxStakes = input['maxStakes'];
  if (maxStakes !== undefined && !isPositiveInt(maxStakes, MAX_STAKES)) {
    return invalid('maxStakes', `must be an integer from 1 to ${MAX_STAKES} (stakes in a round)`, maxStakes);
  }
  if (correctionSeconds !== undefined && !isPositiveInt(correctionSeconds, 600)) {
    return invalid(
      'correctionSeconds',
      'must be an integer from 1 to 600 (absent: until the next betting opens)',
      correctionSeconds,
    );
  }
  return {
    ok: true,
    value: {
      ...(game.value === 'commission' ? {} : { game: game.value }),
      ...(Object.keys(sideBets.value).length === 0 ? {} : { sideBets: sideBets.value }),
      ...(correctionSeconds === undefined ? {} : { correctionSeconds }),
      ...(confirm ? { confirmResult: true as const } : {}),
      ...(maxStakes === undefined ? {} : { maxStakes }),
    },
  };
}

/**
 * Validates a raw rules object and fills the defaults ({@link DEFAULT_RULES}). `undefined` gives the defaults.
 *
 * Checks: only known keys; `dealing` rng|live; `decks` integer 1..8; `shuffle` shoe|every-coup; `dealtBy`
 * dealer|player; `tiePays` 8|9; `commission` deducted|box; `chips` 1..20 positive integers (cents, up to
 * {@link MAX_LIMIT}) strictly ascending; `limits.{player,banker,tie}.{min,max}` positive integers, min <= max, both
 * multiples of the chips' gcd; `allowPlayerAndBanker` boolean; `bettingSeconds` integer 1..600 or null; `cutCard`
 * integer {@link MIN_CUT_CARD}..decks*52/2; `game` commission|no-commission|ez (`commission` only with the
 * commission game); `sideBets.<spot>.{paytable,min,max}` a side bet the mode and shuffle allow (the engine's
 * `sideBetRefusal`), a paytable of the catalogue, limits made of the chips with a max no higher than the
 * table's largest main-spot max (min and max default to the tie's). Combinations: live tables shuffle per shoe and are dealer-dealt;
 * player-dealt tables are rng and have no betting timer (the player deals when ready).
 *
 * @returns the complete rules, or `INVALID_RULES` with `details.field` naming the first bad rule.
 */
export function normalizeRules(raw: unknown): Result<TableRules, DomainError> {
  if (raw === undefined) raw = {};
  if (!isPlainObject(raw)) return invalid('rules', 'must be an object', raw);
  const input = ownFields(raw);
  for (const key of Object.keys(input)) {
    if (!(RULE_KEYS as readonly string[]).includes(key))
      return invalid(key, 'is not a table rule', input[key]);
  }
  const choices = normalizeChoices(input);
  if (!choices.ok) return choices;
  const decks = input['decks'] === undefined ? DEFAULT_RULES.decks : input['decks'];
  if (!isPositiveInt(decks, 8)) return invalid('decks', 'must be an integer from 1 to 8', decks);
  const chips = normalizeChips(input);
  if (!chips.ok) return chips;
  const limits = normalizeLimits(input, chipUnit(chips.value));
  if (!limits.ok) return limits;
  const allow = input['allowPlayerAndBanker'] ?? DEFAULT_RULES.allowPlayerAndBanker;
  if (typeof allow !== 'boolean') return invalid('allowPlayerAndBanker', 'must be a boolean', allow);
  const seconds =
    input['bettingSeconds'] === undefined ? DEFAULT_RULES.bettingSeconds : input['bettingSeconds'];
  if (seconds !== null && !isPositiveInt(seconds, 600)) {
    return invalid('bettingSeconds', 'must be an integer from 1 to 600, or null for no timer', seconds);
  }
  const cutCard = normalizeCutCard(input, decks);
  if (!cutCard.ok) return cutCard;
  const combination = invalidCombination(choices.value, seconds);
  if (combination) return combination;
  const c = choices.value;
  const extra = normalizeOptional(input, {
    dealing: c.dealing,
    shuffle: c.shuffle,
    decks,
    unit: chipUnit(chips.value),
    limits: limits.value,
  });
  if (!extra.ok) return extra;
  return {
    ok: true,
    value: {
      dealing: c.dealing,
      decks,
      shuffle: c.shuffle,
      dealtBy: c.dealtBy,
      tiePays: c.tiePays,
      commission: c.commission,
      limits: limits.value,
      chips: chips.value,
      allowPlayerAndBanker: allow,
      bettingSeconds: seconds,
      cutCard: cutCard.value,
      ...extra.value,
    },
  };
}
