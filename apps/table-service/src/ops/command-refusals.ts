/**
 * The refusals each table command can get from the decider: the checks `decide` runs for every command, read from
 * the command's spec (kernel/decide.ts: the envelope, the table exists, the role, a personal table's rule, the table
 * open), and the command's own. A test runs the decider's golden corpus and holds every refusal it sees to this.
 */
import { COMMAND_SPECS, type DomainErrorCode, type TableCommandType } from '@coup/table';

/** What checkStakes refuses (a bet or a rebet's stakes). */
const STAKES: readonly DomainErrorCode[] = [
  'INVALID_AMOUNT',
  'SPOT_NOT_OFFERED',
  'MAIN_BET_REQUIRED',
  'BET_LIMIT',
  'PLAYER_AND_BANKER',
  'INSUFFICIENT_CHIPS',
  'ROUND_FULL',
];
/** A bettor's checks: its player id, betting open on its round, seated. */
const BETTOR: readonly DomainErrorCode[] = [
  'INVALID_PLAYER_ID',
  'BETTING_CLOSED',
  'WRONG_ROUND',
  'UNKNOWN_PLAYER',
];

/** Each command's own refusals, beyond the checks every command passes. */
const OWN: Readonly<Record<TableCommandType, readonly DomainErrorCode[]>> = {
  OpenTable: ['INVALID_TABLE_ID', 'INVALID_RULES', 'PERSONAL_TABLE', 'TABLE_EXISTS'],
  CloseTable: ['WRONG_PHASE', 'PLAYERS_SEATED'],
  BuyIn: ['INVALID_PLAYER_ID', 'INVALID_AMOUNT'],
  CashOut: ['INVALID_PLAYER_ID', 'UNKNOWN_PLAYER', 'BETS_IN_PLAY'],
  StartShoe: ['INVALID_SEED', 'INVALID_CARD', 'WRONG_DEALING_MODE', 'SHOE_IN_PROGRESS'],
  OpenBetting: ['INVALID_SEED', 'WRONG_DEALING_MODE', 'WRONG_PHASE', 'SHOE_IN_PROGRESS', 'SHOE_NOT_STARTED'],
  PlaceBet: [...BETTOR, 'INVALID_SPOT', ...STAKES],
  ClearBets: [...BETTOR, 'NO_BETS'],
  Rebet: [...BETTOR, 'NO_PREVIOUS_BETS', ...STAKES],
  CloseBetting: ['WRONG_PHASE', 'WRONG_ROUND', 'DEADLINE_NOT_REACHED', 'MINIMUM_BET_REQUIRED'],
  Deal: [
    'INVALID_SEED',
    'WRONG_DEALING_MODE',
    'UNKNOWN_PLAYER',
    'WRONG_PHASE',
    'WRONG_ROUND',
    'MINIMUM_BET_REQUIRED',
    'SHOE_NOT_STARTED',
  ],
  DealCard: [
    'INVALID_CARD',
    'WRONG_DEALING_MODE',
    'CARD_NOT_DUE',
    'WRONG_ROUND',
    'SHOE_NOT_STARTED',
    'CARD_NOT_IN_SHOE',
  ],
  ConfirmResult: ['WRONG_DEALING_MODE', 'WRONG_PHASE', 'WRONG_ROUND', 'CARD_NOT_DUE', 'SHOE_NOT_STARTED'],
  CorrectCard: [
    'INVALID_INDEX',
    'INVALID_CARD',
    'INVALID_REASON',
    'WRONG_DEALING_MODE',
    'WRONG_PHASE',
    'WRONG_ROUND',
    'CORRECTION_WINDOW_CLOSED',
    'CORRECTION_CONFLICT',
    'SHOE_NOT_STARTED',
    'CARD_NOT_IN_SHOE',
  ],
  VoidRound: [
    'INVALID_REASON',
    'WRONG_PHASE',
    'WRONG_ROUND',
    'CORRECTION_WINDOW_CLOSED',
    'CORRECTION_CONFLICT',
  ],
  EndShoe: ['SHOE_NOT_STARTED', 'WRONG_PHASE'],
};

/** Every refusal the decider can give a command of this type. */
export function commandRefusals(type: TableCommandType): DomainErrorCode[] {
  const spec: { readonly opensTable?: true; readonly personal: unknown; readonly closedTable: boolean } =
    COMMAND_SPECS[type];
  // Every command: its envelope (INVALID_COMMAND: roundNo and other fields) and its role (FORBIDDEN).
  const codes = new Set<DomainErrorCode>(['INVALID_COMMAND', 'FORBIDDEN']);
  if (spec.opensTable !== true) codes.add('UNKNOWN_TABLE');
  if (spec.personal !== null) codes.add('PERSONAL_TABLE');
  if (spec.opensTable !== true && !spec.closedTable) codes.add('TABLE_CLOSED');
  for (const code of OWN[type]) codes.add(code);
  return [...codes];
}
