/**
 * The table rules as the OpenAPI document describes them. These classes only document: the rules arrive as a raw
 * object (`@RawObject`) and `normalizeRules` validates them (400 INVALID_RULES naming the field). The game modes,
 * side bets and paytables come from the engine's catalogue, so the document lists every bet the service takes.
 */
import { ApiPropertyOptional } from '@nestjs/swagger';
import { GAME_MODES, SIDE_BETS, SIDE_SPOTS, type SideSpot } from '@coup/engine';
import { DEFAULT_RULES, MAX_LIMIT } from '@coup/table';

/** What each game mode does to banker wins. */
export const GAME_MODE_TEXT: Readonly<Record<(typeof GAME_MODES)[number], string>> = {
  commission: 'banker wins pay 1:1 less 5% commission (deducted, or owed to the commission box)',
  'no-commission': 'banker wins pay 1:1, a banker win with 6 pays 1:2',
  ez: 'EZ Baccarat: no commission, a banker win with a three-card 7 pushes banker bets',
};

/** A paytable's numbers as people read them: `[11]` "11:1", `[54, 100]` "0.54:1", Dragon Bonus's list. */
export function paytableText(spot: SideSpot, name: string): string {
  const numbers = SIDE_BETS[spot].paytables[name] ?? [];
  return `${name} (${numbers.join(', ')})`;
}

/** Where a side bet may be offered: its game modes and whether it needs a shoe game. */
export function sideBetWhere(spot: SideSpot): string {
  const def = SIDE_BETS[spot];
  const modes = def.modes ? `${def.modes.join(' or ')} tables` : 'every game mode';
  const decks = def.minDecks === undefined ? '' : `, at least ${def.minDecks} decks`;
  return `${modes}${def.shoeOnly ? ', shoe games only (not every-coup)' : ''}${decks}`;
}

function sideBetSchema(spot: SideSpot) {
  const def = SIDE_BETS[spot];
  const names = Object.keys(def.paytables);
  return {
    type: 'object' as const,
    description: `${def.label}: offered on ${sideBetWhere(spot)}. Paytables: ${names.map((n) => paytableText(spot, n)).join('; ')}`,
    additionalProperties: false,
    properties: {
      paytable: { type: 'string' as const, enum: names, default: names[0] },
      min: {
        type: 'integer' as const,
        minimum: 1,
        maximum: MAX_LIMIT,
        description: "Cents (default: the tie's min)",
      },
      max: {
        type: 'integer' as const,
        minimum: 1,
        maximum: MAX_LIMIT,
        description: "Cents, at most the table's largest main-spot max (default: the tie's max)",
      },
    },
  };
}

export class LimitDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: 'Cents' })
  min?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: 'Cents' })
  max?: number;
}

export class LimitsDto {
  @ApiPropertyOptional({ type: LimitDto, default: DEFAULT_RULES.limits.player })
  player?: LimitDto;

  @ApiPropertyOptional({ type: LimitDto, default: DEFAULT_RULES.limits.banker })
  banker?: LimitDto;

  @ApiPropertyOptional({ type: LimitDto, default: DEFAULT_RULES.limits.tie })
  tie?: LimitDto;
}

export class TableRulesDto {
  @ApiPropertyOptional({ enum: ['rng', 'live'], default: DEFAULT_RULES.dealing })
  dealing?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 8, default: DEFAULT_RULES.decks })
  decks?: number;

  @ApiPropertyOptional({ enum: ['shoe', 'every-coup'], default: DEFAULT_RULES.shuffle })
  shuffle?: string;

  @ApiPropertyOptional({ enum: ['dealer', 'player'], default: DEFAULT_RULES.dealtBy })
  dealtBy?: string;

  @ApiPropertyOptional({ enum: [8, 9], default: DEFAULT_RULES.tiePays, description: 'Tie pays 8:1 or 9:1' })
  tiePays?: number;

  @ApiPropertyOptional({
    enum: ['deducted', 'box'],
    default: DEFAULT_RULES.commission,
    description: 'The commission game only (refused with another mode)',
  })
  commission?: string;

  @ApiPropertyOptional({
    enum: [...GAME_MODES],
    default: 'commission',
    description: GAME_MODES.map((m) => `${m}: ${GAME_MODE_TEXT[m]}`).join('; '),
  })
  game?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: false,
    description:
      'The side bets offered (none by default), each { paytable, min, max }: a side bet its mode or shuffle does ' +
      'not allow, or a paytable that does not exist, is 400 INVALID_RULES',
    properties: Object.fromEntries(SIDE_SPOTS.map((spot) => [spot, sideBetSchema(spot)])),
  })
  sideBets?: Record<string, unknown>;

  @ApiPropertyOptional({ type: LimitsDto, description: 'Per main spot, in cents, made of the chips' })
  limits?: LimitsDto;

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    default: DEFAULT_RULES.chips,
    description: 'Chip values in cents, 1 to 20, strictly ascending',
  })
  chips?: number[];

  @ApiPropertyOptional({ default: DEFAULT_RULES.allowPlayerAndBanker })
  allowPlayerAndBanker?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 600,
    nullable: true,
    default: null,
    description: 'Betting timer in seconds, or null for none',
  })
  bettingSeconds?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    default: DEFAULT_RULES.cutCard,
    description: 'Cards behind the cut card (12 to half the shoe)',
  })
  cutCard?: number;
}
