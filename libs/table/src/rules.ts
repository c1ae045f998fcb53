/**
 * Table rules: the defaults, and `normalizeRules`, which validates a raw rules object (from the wire) and fills
 * the defaults. Only the input's own keys are read; unknown ones (`toString` and `constructor` as much as `foo`)
 * are refused; every failure is `INVALID_RULES` with `details.field`.
 */
import {
  GAME_MODES,
  type GameMode,
  type Result,
  SIDE_SPOTS,
  type SideSpot,
  defaultPaytable,
  isSideSpot,
  sideBetRefusal,
} from '@coup/engine';
import { type DomainError, domainError } from './vocabulary';
import { ownFields } from './kernel/fields';
import type { Limit, SideBetRule, TableRules } from './vocabulary';

/** The largest limit or chip value accepted, in cents (ten billion dollars): keeps every payout a safe integer. */
export const MAX_LIMIT = 1_000_000_000_000;

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
];

type Fail = { readonly ok: false; readonly error: DomainError };

function invalid(field: string, message: string, value?: unknown): Fail {
  return {
    ok: false,
    error: domainError('INVALID_RULES', `Invalid table rules: ${field} ${message}`, { field, value }),
  };
}

/** Objects (plain or DTO class instances), not arrays or null. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPositiveInt(value: unknown, max = MAX_LIMIT): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= max;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** The smallest amount step of a chip set: the gcd of the chip values (every bet is a multiple of it). */
export function chipUnit(chips: readonly number[]): number {
  return chips.reduce((g, c) => gcd(g, c), 0);
}

function oneOf<T extends string | number>(
  input: Record<string, unknown>,
  key: keyof TableRules,
  allowed: readonly T[],
  fallback: T,
): Result<T, DomainError> {
  if (!Object.hasOwn(input, key) || input[key] === undefined) return { ok: true, value: fallback };
  const value = input[key];
  if ((allowed as readonly unknown[]).includes(value)) return { ok: true, value: value as T };
  return invalid(key, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`, value);
}

function normalizeLimit(
  input: unknown,
  spot: 'player' | 'banker' | 'tie',
  unit: number,
  field = `limits.${spot}`,
): Result<Limit, DomainError> {
  const fallback = DEFAULT_RULES.limits[spot];
  if (input === undefined) {
    if (fallback.min % unit !== 0 || fallback.max % unit !== 0) {
      return invalid(
        field,
        `defaults (${fallback.min}..${fallback.max}) are not made of the chips: set the limits`,
      );
    }
    return { ok: true, value: fallback };
  }
  if (!isPlainObject(input)) return invalid(field, 'must be an object { min, max }', input);
  const limit = ownFields(input);
  for (const key of Object.keys(limit)) {
    if (key !== 'min' && key !== 'max')
      return invalid(`${field}.${key}`, 'is not a limit field (min, max)', limit[key]);
  }
  const min = limit['min'] === undefined ? fallback.min : limit['min'];
  const max = limit['max'] === undefined ? fallback.max : limit['max'];
  if (!isPositiveInt(min))
    return invalid(`${field}.min`, `must be a positive integer of cents up to ${MAX_LIMIT}`, min);
  if (!isPositiveInt(max))
    return invalid(`${field}.max`, `must be a positive integer of cents up to ${MAX_LIMIT}`, max);
  if (min > max) return invalid(`${field}.min`, `(${min}) must not exceed max (${max})`, min);
  if (min % unit !== 0)
    return invalid(`${field}.min`, `(${min}) must be a multiple of the chip unit ${unit}`, min);
  if (max % unit !== 0)
    return invalid(`${field}.max`, `(${max}) must be a multiple of the chip unit ${unit}`, max);
  return { ok: true, value: { min, max } };
}

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

/**
 * `game`: the mode (default `commission`). The commission box belongs to the commission game: `box` with another
 * mode is refused (`deducted`, the recorded default, is accepted so that recorded rules normalize again).
 */
function normalizeGame(input: Record<string, unknown>): Result<GameMode, DomainError> {
  const game = oneOf(input, 'game', GAME_MODES, 'commission');
  if (!game.ok) return game;
  if (game.value !== 'commission' && input['commission'] === 'box') {
    return invalid('commission', `'box' applies only to the commission game, not to ${game.value}`, 'box');
  }
  return game;
}

/** What a side bet's rule is checked against: the table's mode, shuffle, decks, chip unit and main limits. */
type SideBetContext = {
  game: GameMode;
  shuffle: TableRules['shuffle'];
  decks: number;
  unit: number;
  limits: TableRules['limits'];
};

/** One side bet's rule: offered in this mode and shuffle, a known paytable, limits made of the chips and within the table's. */
function normalizeSideBet(
  spot: SideSpot,
  input: unknown,
  context: SideBetContext,
): Result<SideBetRule, DomainError> {
  const field = `sideBets.${spot}`;
  if (!isPlainObject(input)) return invalid(field, 'must be an object { paytable, min, max }', input);
  const rule = ownFields(input);
  for (const key of Object.keys(rule)) {
    if (key !== 'paytable' && key !== 'min' && key !== 'max')
      return invalid(`${field}.${key}`, 'is not a side bet field (paytable, min, max)', rule[key]);
  }
  const paytable = rule['paytable'] === undefined ? defaultPaytable(spot) : rule['paytable'];
  if (typeof paytable !== 'string') return invalid(`${field}.paytable`, 'must be a paytable name', paytable);
  const refusal = sideBetRefusal(spot, { ...context, paytable });
  if (refusal) return invalid(field, `is not allowed: ${refusal}`, input);
  // absent limits default to the tie's, within the table's maximum bet; null is not a limit
  const tableMax = Math.max(context.limits.player.max, context.limits.banker.max);
  const max = rule['max'] === undefined ? Math.min(context.limits.tie.max, tableMax) : rule['max'];
  const min = rule['min'] === undefined ? Math.min(context.limits.tie.min, tableMax) : rule['min'];
  const limit = normalizeLimit({ min, max }, 'tie', context.unit, field);
  if (!limit.ok) return limit;
  if (limit.value.max > tableMax) {
    return invalid(
      `${field}.max`,
      `(${limit.value.max}) must not exceed the table's maximum bet (${tableMax})`,
      limit.value.max,
    );
  }
  return { ok: true, value: { paytable, ...limit.value } };
}

/** `sideBets`: the side bets offered by spot (none by default), in catalogue order. */
function normalizeSideBets(
  input: Record<string, unknown>,
  context: SideBetContext,
): Result<Partial<Record<SideSpot, SideBetRule>>, DomainError> {
  const raw = input['sideBets'];
  if (raw === undefined) return { ok: true, value: {} };
  if (!isPlainObject(raw)) return invalid('sideBets', 'must be an object of side bets by spot', raw);
  const given = ownFields(raw);
  for (const key of Object.keys(given)) {
    if (!isSideSpot(key))
      return invalid(`sideBets.${key}`, `is not a side bet (${SIDE_SPOTS.join(', ')})`, given[key]);
  }
  const out: Partial<Record<SideSpot, SideBetRule>> = {};
  for (const spot of SIDE_SPOTS) {
    if (given[spot] === undefined) continue;
    const rule = normalizeSideBet(spot, given[spot], context);
    if (!rule.ok) return rule;
    out[spot] = rule.value;
  }
  return { ok: true, value: out };
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
  const game = normalizeGame(input);
  if (!game.ok) return game;
  const sideBets = normalizeSideBets(input, {
    game: game.value,
    shuffle: c.shuffle,
    decks,
    unit: chipUnit(chips.value),
    limits: limits.value,
  });
  if (!sideBets.ok) return sideBets;
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
      // the commission game without side bets records exactly the rules it did before modes and side bets
      ...(game.value === 'commission' ? {} : { game: game.value }),
      ...(Object.keys(sideBets.value).length === 0 ? {} : { sideBets: sideBets.value }),
    },
  };
}
