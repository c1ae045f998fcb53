/**
 * The open-a-table form as data: what the pit types (amounts in dollars), the raw rules it sends, and the check the
 * service makes. The check is the table library's own `normalizeRules`, run in the browser, so the form refuses
 * exactly what the API refuses, naming the same field (`details.field`).
 */
import { SIDE_BETS, SIDE_SPOTS, type GameMode, type SideSpot, defaultPaytable } from '@coup/engine';
import { DEFAULT_RULES, MIN_CUT_CARD, TABLE_ID_PATTERN, normalizeRules } from '@coup/table';

export interface LimitForm {
  readonly min: string;
  readonly max: string;
}

export interface SideBetForm extends LimitForm {
  readonly offered: boolean;
  readonly paytable: string;
}

/** Every rule of a table, as the form holds it (text for what is typed). */
export interface RulesForm {
  readonly tableId: string;
  readonly dealing: 'rng' | 'live';
  readonly decks: string;
  readonly shuffle: 'shoe' | 'every-coup';
  readonly dealtBy: 'dealer' | 'player';
  readonly game: GameMode;
  readonly commission: 'deducted' | 'box';
  readonly tiePays: '8' | '9';
  /** Chip values in dollars, separated by commas or spaces. */
  readonly chips: string;
  readonly limits: { readonly player: LimitForm; readonly banker: LimitForm; readonly tie: LimitForm };
  readonly allowPlayerAndBanker: boolean;
  /** Empty: no betting timer. */
  readonly bettingSeconds: string;
  readonly cutCard: string;
  /** Empty: until the next round's betting opens. */
  readonly correctionSeconds: string;
  readonly confirmResult: boolean;
  /** Empty: the most the service takes. */
  readonly maxStakes: string;
  readonly sideBets: Readonly<Record<SideSpot, SideBetForm>>;
}

/**
 * A refusal of a rule: the field it names (as the API names it), the code, and the check's own words (English, as
 * the API says them; null for the table id, which the form checks itself).
 */
export interface FieldRefusal {
  readonly field: string;
  readonly code: string;
  readonly message: string | null;
}

/** Cents as the dollars the form shows (`2500` -> `25`, `250` -> `2.5`). */
export const dollars = (cents: number): string => String(cents / 100);

/**
 * Dollars typed as cents: `25` -> 2500, `2.5` -> 250; empty -> undefined (the rule's default). Anything else is
 * passed on as typed, for the check to refuse with its field.
 */
export function centsOf(text: string): number | string | undefined {
  const s = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (s === '') return undefined;
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return text;
  const [whole = '0', part = ''] = s.split('.');
  return Number(whole) * 100 + Number(part.padEnd(2, '0'));
}

/** A whole number typed: empty -> undefined, digits -> the number, anything else as typed (refused by the check). */
export function wholeOf(text: string): number | string | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  return /^-?\d{1,15}$/.test(s) ? Number(s) : text;
}

const limitForm = (l: { min: number; max: number }): LimitForm => ({
  min: dollars(l.min),
  max: dollars(l.max),
});

/** The form as it opens: the table library's defaults, no side bets. */
export function initialForm(): RulesForm {
  const d = DEFAULT_RULES;
  return {
    tableId: '',
    dealing: d.dealing,
    decks: String(d.decks),
    shuffle: d.shuffle,
    dealtBy: d.dealtBy,
    game: 'commission',
    commission: d.commission,
    tiePays: String(d.tiePays) as '8' | '9',
    chips: d.chips.map(dollars).join(', '),
    limits: {
      player: limitForm(d.limits.player),
      banker: limitForm(d.limits.banker),
      tie: limitForm(d.limits.tie),
    },
    allowPlayerAndBanker: d.allowPlayerAndBanker,
    bettingSeconds: d.bettingSeconds === null ? '' : String(d.bettingSeconds),
    cutCard: String(d.cutCard),
    correctionSeconds: '',
    confirmResult: false,
    maxStakes: '',
    sideBets: Object.fromEntries(
      SIDE_SPOTS.map((s) => [s, { offered: false, paytable: defaultPaytable(s), min: '', max: '' }]),
    ) as Record<SideSpot, SideBetForm>,
  };
}

/** A limit's fields, each left out when empty (the rule's default). */
function limitOf(l: LimitForm): Record<string, unknown> {
  const min = centsOf(l.min);
  const max = centsOf(l.max);
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

function sideBetsOf(form: RulesForm): Record<string, unknown> | undefined {
  const offered = SIDE_SPOTS.filter((s) => form.sideBets[s].offered);
  if (offered.length === 0) return undefined;
  return Object.fromEntries(
    offered.map((s) => [s, { paytable: form.sideBets[s].paytable, ...limitOf(form.sideBets[s]) }]),
  );
}

/** The raw rules the form sends (`POST /api/tables`), each optional rule only when set. */
export function rawRules(form: RulesForm): Record<string, unknown> {
  const optional: Record<string, unknown> = {
    decks: wholeOf(form.decks),
    cutCard: wholeOf(form.cutCard),
    correctionSeconds: wholeOf(form.correctionSeconds),
    maxStakes: wholeOf(form.maxStakes),
    sideBets: sideBetsOf(form),
  };
  return {
    dealing: form.dealing,
    shuffle: form.shuffle,
    dealtBy: form.dealtBy,
    game: form.game,
    // the commission's rule belongs to the commission game
    ...(form.game === 'commission' ? { commission: form.commission } : {}),
    tiePays: Number(form.tiePays),
    chips: form.chips
      .split(/[\s,]+/)
      .filter((c) => c !== '')
      .map((c) => centsOf(c)),
    limits: {
      player: limitOf(form.limits.player),
      banker: limitOf(form.limits.banker),
      tie: limitOf(form.limits.tie),
    },
    allowPlayerAndBanker: form.allowPlayerAndBanker,
    bettingSeconds: wholeOf(form.bettingSeconds) ?? null,
    ...(form.confirmResult ? { confirmResult: true } : {}),
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}

/**
 * The raw rules without the rule `field` names (`chips[2]`: the chips), so that its default is checked instead; null
 * when the rules do not hold it.
 */
function withoutRule(raw: Record<string, unknown>, field: string): Record<string, unknown> | null {
  const path = field.replace(/\[\d+\]$/, '').split('.');
  const copy = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) return null;
    node = next as Record<string, unknown>;
  }
  const last = path[path.length - 1] ?? '';
  if (!Object.hasOwn(node, last)) return null;
  delete node[last];
  return copy;
}

/**
 * Every refusal of the form, as the service would refuse it: the table id, then `normalizeRules`, which names the
 * first bad rule; that rule is then left to its default and the rest checked again, until the rules pass (or a
 * refusal names no rule the form sent). Empty when the form is right.
 */
export function checkForm(form: RulesForm): FieldRefusal[] {
  const refusals: FieldRefusal[] = [];
  if (!TABLE_ID_PATTERN.test(form.tableId))
    refusals.push({ field: 'tableId', code: 'INVALID_TABLE_ID', message: null });
  let raw: Record<string, unknown> | null = rawRules(form);
  while (raw !== null) {
    const checked = normalizeRules(raw);
    if (checked.ok) break;
    const named = checked.error.details?.['field'];
    const field = typeof named === 'string' ? named : 'rules';
    if (refusals.some((r) => r.field === field)) break;
    refusals.push({ field, code: checked.error.code, message: checked.error.message });
    raw = withoutRule(raw, field);
  }
  return refusals;
}

/** The form's controls, in the order they are shown: a refusal is shown at the first control it names. */
export const CONTROLS: readonly string[] = [
  'tableId',
  'dealing',
  'dealtBy',
  'decks',
  'shuffle',
  'cutCard',
  'game',
  'commission',
  'tiePays',
  'chips',
  ...(['player', 'banker', 'tie'] as const).flatMap((s) => [`limits.${s}.min`, `limits.${s}.max`]),
  'allowPlayerAndBanker',
  'bettingSeconds',
  'correctionSeconds',
  'confirmResult',
  'maxStakes',
  ...SIDE_SPOTS.flatMap((s) => [
    `sideBets.${s}`,
    `sideBets.${s}.paytable`,
    `sideBets.${s}.min`,
    `sideBets.${s}.max`,
  ]),
];

/**
 * The control that shows a refusal of `field`: the one of that name (`chips[2]`: the chips), else the first inside
 * it (`limits.player`: the player's minimum), else none (the form shows it at the top).
 */
export function controlOf(field: string): string | null {
  return (
    CONTROLS.find((c) => c === field || field.startsWith(`${c}[`)) ??
    CONTROLS.find((c) => c.startsWith(`${field}.`)) ??
    null
  );
}

/** A side bet's paytables (the first is the default). */
export const paytablesOf = (spot: SideSpot): string[] => Object.keys(SIDE_BETS[spot].paytables);

/**
 * What a refusal of `field` says, as a key of `pit:ruleErrors` and its values: the rule's bounds in words (the
 * cut card's from the decks typed), one sentence per rule whatever the detail.
 */
export function ruleErrorOf(
  field: string,
  form: RulesForm,
): { readonly key: string; readonly values: Readonly<Record<string, number>> } {
  const control = controlOf(field) ?? field;
  const decks = wholeOf(form.decks);
  const shoe = typeof decks === 'number' && decks >= 1 && decks <= 8 ? decks : DEFAULT_RULES.decks;
  const values = { decks: shoe, min: MIN_CUT_CARD, max: Math.floor((shoe * 52) / 2) };
  const key = /^limits\./.test(control)
    ? 'limit'
    : /^sideBets\.[^.]+\.(min|max)$/.test(control)
      ? 'sideLimit'
      : /^sideBets\.[^.]+\.paytable$/.test(control)
        ? 'paytable'
        : /^sideBets\.[^.]+$/.test(control)
          ? 'sideBet'
          : CONTROLS.includes(control) && !control.includes('.')
            ? control
            : 'other';
  return { key, values };
}
