/** The game mode and side-bet rules of a table (see `normalizeRules`). */
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
import { ownFields } from './kernel/fields';
import { invalid, isPlainObject, normalizeLimit, oneOf } from './rule-fields';
import type { DomainError, SideBetRule, TableRules } from './vocabulary';

/**
 * `game`: the mode (default `commission`). The commission box belongs to the commission game: `box` with another
 * mode is refused (`deducted`, the recorded default, is accepted so that recorded rules normalize again).
 */
export function normalizeGame(input: Record<string, unknown>): Result<GameMode, DomainError> {
  const game = oneOf(input, 'game', GAME_MODES, 'commission');
  if (!game.ok) return game;
  if (game.value !== 'commission' && input['commission'] === 'box') {
    return invalid('commission', `'box' applies only to the commission game, not to ${game.value}`, 'box');
  }
  return game;
}

/** What a side bet's rule is checked against: the table's mode, shuffle, decks, chip unit and main limits. */
export type SideBetContext = {
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
  const limit = normalizeLimit({ min, max }, context.limits.tie, context.unit, field);
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
export function normalizeSideBets(
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
