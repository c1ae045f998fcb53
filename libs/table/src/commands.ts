/**
 * Every command the table takes, by capability: the record of their specs (a command type without a spec, or a
 * spec without its type in `TableCommand`, does not compile), and what is derived from it (roles, fields, seeds,
 * typed replies). A command's rules live in `capabilities/<capability>/<command>.ts`.
 */
import { type BuyIn, buyIn } from './capabilities/tables-and-players/buy-in';
import { type CashOut, cashOut } from './capabilities/tables-and-players/cash-out';
import { type CloseTable, closeTable } from './capabilities/tables-and-players/close-table';
import { type OpenTable, openTable } from './capabilities/tables-and-players/open-table';
import { type EndShoe, endShoe } from './capabilities/shoes/end-shoe';
import { type StartShoe, startShoe } from './capabilities/shoes/start-shoe';
import { type ClearBets, clearBets } from './capabilities/betting/clear-bets';
import { type CloseBetting, closeBetting } from './capabilities/betting/close-betting';
import { type OpenBetting, openBetting } from './capabilities/betting/open-betting';
import { type PlaceBet, placeBet } from './capabilities/betting/place-bet';
import { type Rebet, rebet } from './capabilities/betting/rebet';
import { type Deal, deal } from './capabilities/dealing/deal';
import { type DealCard, dealCard } from './capabilities/dealing/deal-card';
import { type ConfirmResult, confirmResult } from './capabilities/dealing/confirm-result';
import { type CorrectCard, correctCard } from './capabilities/corrections/correct-card';
import { type VoidRound, voidRound } from './capabilities/corrections/void-round';
import type { CommandSpec } from './kernel';
import type { Role } from './vocabulary';

/**
 * Every command the table takes. `data` is validated by `decide` (it may come from the wire): bad input is
 * refused with a typed error, never thrown.
 */
export type TableCommand =
  | OpenTable
  | CloseTable
  | BuyIn
  | CashOut
  | StartShoe
  | OpenBetting
  | PlaceBet
  | ClearBets
  | Rebet
  | CloseBetting
  | Deal
  | DealCard
  | ConfirmResult
  | CorrectCard
  | VoidRound
  | EndShoe;

/** The command type names. */
export type TableCommandType = TableCommand['type'];
/** The data of the command of type `T`. */
export type CommandData<T extends TableCommandType> = Extract<TableCommand, { type: T }>['data'];

/** Every command's spec, keyed by its type. */
export const COMMAND_SPECS = {
  OpenTable: openTable,
  CloseTable: closeTable,
  BuyIn: buyIn,
  CashOut: cashOut,
  StartShoe: startShoe,
  OpenBetting: openBetting,
  PlaceBet: placeBet,
  ClearBets: clearBets,
  Rebet: rebet,
  CloseBetting: closeBetting,
  Deal: deal,
  DealCard: dealCard,
  ConfirmResult: confirmResult,
  CorrectCard: correctCard,
  VoidRound: voidRound,
  EndShoe: endShoe,
} as const satisfies { readonly [T in TableCommandType]: CommandSpec<T, unknown, unknown> };

/** The API's answer to a command of type `T` (what `replyFor` returns for it). */
export type CommandReply<T extends TableCommandType> = NonNullable<
  ReturnType<(typeof COMMAND_SPECS)[T]['reply']>
>;

const TYPES = Object.keys(COMMAND_SPECS) as TableCommandType[];
const derived = <V>(of: (type: TableCommandType) => V): Readonly<Record<TableCommandType, V>> =>
  Object.fromEntries(TYPES.map((type) => [type, of(type)])) as Record<TableCommandType, V>;

/** Which roles may send each command (players are further limited to their own bets and their own DEAL). */
export const COMMAND_ROLES: Readonly<Record<TableCommandType, readonly Role[]>> = derived(
  (type) => COMMAND_SPECS[type].roles,
);
/** The data fields each command accepts (others are refused). */
export const COMMAND_FIELDS: Readonly<Record<TableCommandType, readonly string[]>> = derived(
  (type) => COMMAND_SPECS[type].fields,
);
/** The data fields of each command that carry shuffle seeds (secret until the shoe ends). */
export const COMMAND_SEEDS: Readonly<Record<TableCommandType, readonly string[]>> = derived(
  (type) => COMMAND_SPECS[type].seeds,
);
