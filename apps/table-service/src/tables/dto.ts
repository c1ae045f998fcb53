import { Body } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CoupValidationPipe, RawObject } from '../common/validation';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ALL_SPOTS, type Spot } from '@coup/engine';
import { PLAYER_ID_PATTERN, REASON_TEXT, TABLE_ID_PATTERN } from '@coup/table';
import { TableRulesDto } from './rules-dto';

/** Largest amount of one request, in cents ($10,000,000,000): far above any table limit, far below 2^53. */
export const MAX_AMOUNT = 1_000_000_000_000;
const ID = TABLE_ID_PATTERN;
const ID_MESSAGE = '$property must be 1 to 64 letters, digits, _ or -';
/** A reason's characters (REASON_TEXT, the decider's own rule), said the validation's way. */
export const REASON_MESSAGE =
  '$property must be one line of visible text: no control, bidi or zero-width characters';
export const PLAYER_ID_MESSAGE =
  '$property must be a player id: 1 to 64 letters, digits, _ . : @ + or -, the first a letter or digit';

export class CreateTableDto {
  @ApiProperty({ example: 'T1', description: 'Unique table id: 1 to 64 of A-Z a-z 0-9 _ -' })
  @IsString()
  @Matches(ID, { message: ID_MESSAGE })
  tableId!: string;

  @ApiPropertyOptional({
    type: TableRulesDto,
    description:
      'Table rules (any subset; defaults for the rest), checked as a whole: a bad rule is 400 INVALID_RULES with ' +
      'details.field naming it (an unknown key, a side bet its game mode or shuffle does not offer, a paytable that ' +
      "does not exist, side-bet limits outside the table's)",
    example: {
      dealing: 'live',
      decks: 8,
      tiePays: 8,
      game: 'ez',
      limits: { player: { min: 500, max: 500000 } },
      sideBets: { dragon7: { paytable: '40-to-1', min: 500, max: 10000 }, panda8: {} },
    },
  })
  @RawObject()
  rules?: Record<string, unknown>;
}

export class AmountDto {
  @ApiProperty({ example: 100000, description: 'Cents, a positive whole number' })
  @IsInt({ message: '$property must be a whole number of cents' })
  @Min(1)
  @Max(MAX_AMOUNT)
  amount!: number;
}

export class StartShoeDto {
  @ApiPropertyOptional({
    example: 'Kh',
    description: 'Live tables: the turned first card (it sets how many to burn)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(8)
  firstCard?: string;
}

export class PlaceBetDto {
  @ApiProperty({ example: 'p1' })
  @IsString()
  @Matches(PLAYER_ID_PATTERN, { message: PLAYER_ID_MESSAGE })
  playerId!: string;

  @ApiProperty({
    enum: ALL_SPOTS,
    description:
      'A main spot (player, banker, tie) or a side bet; a side bet the table does not offer is 400 SPOT_NOT_OFFERED ' +
      "(the offered ones: the table view's rules.sideBets)",
  })
  @IsIn(ALL_SPOTS)
  spot!: Spot;

  @ApiProperty({ example: 2500, description: 'Cents, made of the table chips' })
  @IsInt({ message: '$property must be a whole number of cents' })
  @Min(1)
  @Max(MAX_AMOUNT)
  amount!: number;
}

export class PlayerRefDto {
  @ApiProperty({ example: 'p1' })
  @IsString()
  @Matches(PLAYER_ID_PATTERN, { message: PLAYER_ID_MESSAGE })
  playerId!: string;
}

export class CardDto {
  @ApiProperty({
    example: 'Ah',
    description:
      "Rank A 2-9 T (or 10) J Q K, then suit c d h s, in either case: e.g. 'Ah', 'Td', '10d', 'qs'",
  })
  @IsString()
  @MaxLength(8)
  card!: string;
}

export class CorrectCardDto extends CardDto {
  @ApiPropertyOptional({
    example: 'Dealer typed 2d for 4d',
    description:
      'Why (3 to 500 characters, one line of visible text): required to correct the coup just settled',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  @Matches(REASON_TEXT, { message: REASON_MESSAGE })
  reason?: string;
}

export class VoidDto {
  @ApiProperty({
    example: 'Misdeal: card exposed',
    description: '3 to 500 characters, one line of visible text (no control, bidi or zero-width characters)',
  })
  @IsString()
  @MinLength(3)
  @MaxLength(500)
  @Matches(REASON_TEXT, { message: REASON_MESSAGE })
  reason!: string;
}

const SPOTS: ReadonlySet<unknown> = new Set(ALL_SPOTS);

/**
 * A body PlaceBetDto's rules accept, checked by hand (the hot route: class-validator costs about a tenth of the
 * request thread per bet): exactly `playerId`, `spot` and `amount`, each valid. Anything else, valid or not, is
 * left to class-validator (see CoupValidationPipe).
 */
export function isPlaceBetBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Object.getPrototypeOf(body) !== Object.prototype)
    return false;
  const { playerId, spot, amount } = body as Record<string, unknown>;
  let keys = 0;
  for (const key in body) {
    if (!Object.prototype.hasOwnProperty.call(body, key)) return false;
    if (key !== 'playerId' && key !== 'spot' && key !== 'amount') return false;
    keys++;
  }
  return (
    keys === 3 &&
    typeof playerId === 'string' &&
    PLAYER_ID_PATTERN.test(playerId) &&
    SPOTS.has(spot) &&
    typeof amount === 'number' &&
    Number.isInteger(amount) &&
    amount >= 1 &&
    amount <= MAX_AMOUNT
  );
}

/** The DTOs whose bodies are checked by hand first (CoupValidationPipe). */
export const FAST_BODY_CHECKS = new Map<abstract new () => object, (body: unknown) => boolean>([
  [PlaceBetDto, isPlaceBetBody],
]);

const BODY_VALIDATION = new CoupValidationPipe(FAST_BODY_CHECKS);

/**
 * `@Body()` with the service's validation pipe (class-validator, after the fast checks above). The pipe is bound to
 * the bodies, not installed globally: a global pipe runs Nest's pipe chain (several promises) for every path
 * parameter and every caller of every request, which on the bet route was a measurable part of the request thread.
 * A unit test holds every `@Body()` of every controller to carrying it (valid-body.unit.spec.ts).
 */
export const ValidBody = (): ParameterDecorator => Body(BODY_VALIDATION);
