/**
 * # @coup/table: the baccarat table as a pure decider
 *
 * `decide(command, state) -> events | DomainError` and `evolve(state, event) -> state`, with no I/O, no clock and
 * no randomness: the time (`meta.at`), the shuffle seeds and the ids come in with the commands, and what they
 * produced is recorded in the events, so folding the same events always gives the same state.
 *
 * ## Phases
 * ```text
 *   none ──OpenTable──▶ idle ──StartShoe──▶ ready ──OpenBetting──▶ betting ──CloseBetting──▶ dealing
 *                        ▲  ◀──EndShoe────────┘ ▲                     │  (player-dealt: Deal   │
 *                        │                      │                     │   closes and deals)    │ Deal (rng) /
 *                        │                      └──── VoidRound ──────┴────────────────────────┤ DealCard... (live)
 *                        │                      └──── coup resolved, shoe goes on ◀────────────┤
 *                        └───────────────────────── coup resolved, shoe ended (ShoeEnded) ◀────┘
 *   idle | ready (| betting with no bets) ──CloseTable──▶ closed (CashOut still taken)
 * ```
 * - every-coup tables (rng): one shuffle per coup, no burn, no cut card. `OpenBetting { seed }` in `idle` starts
 *   the coup's shoe (ShoeStarted publishes the commitment) and opens betting; the shoe ends (ShoeEnded reveals the
 *   seed) right after the coup. `Deal { nextSeed }` starts the next coup's shoe at once.
 * - player-dealt tables (rng, the online single-player game): after each coup betting reopens automatically (if
 *   the shoe goes on, or `Deal.nextSeed` started the next one); the player's `Deal` closes betting and deals in
 *   one command once a bet is on the layout and every staked spot is at its minimum.
 * - shoe tables: rng shoes turn their first card and burn per the engine; live shoes record the turned card
 *   (`StartShoe { firstCard }`) and the burn count. The cut card comes out, one more coup, then ShoeEnded.
 *
 * ## Money
 * Integer cents. Chips move to the layout when a bet is placed and back with `paid` (stake included) when it
 * settles; box commission accumulates as `commissionOwed` and is collected from the chips at cash-out. For every
 * table, from its events alone:
 * `Σ chips + Σ stakes on the layout + Σ cashed out + Σ commission collected = Σ bought in − house result`,
 * where the house result is `Σ (amount − paid)` over all settlements.
 *
 * ## State
 * JSON (no Map/Set/class/bigint; see `STATE_VERSION`) and bounded: the current shoe and round, seated players
 * (a player who cashes out owing nothing leaves) with their stakes and last bets (for REBET), the last resolved
 * coup. Players are an array sorted by id (`playerOf` finds one by binary search): a bet copies an array of
 * pointers, so deciding and evolving a bet stays cheap at a thousand players (about 25 µs on this machine).
 * The rng shoe is never stored: `Deal` recomputes it from the seed (one shuffle per coup).
 *
 * ## Choices
 * - CorrectCard re-validates the whole corrected sequence: if the correction makes the coup complete before the
 *   last dealt card, it is refused `CORRECTION_CONFLICT` (nothing is truncated: the supervisor voids the round);
 *   if it makes the coup complete exactly, the coup resolves in the same decision.
 * - A voided coup's dealt cards stay on record and the shoe moves past them; a voided coup never counts as the
 *   "one more coup" after the cut card.
 * - Rebet adds the last round's bets to the current ones (all-or-nothing against limits and chips).
 * - `ShoeStarted.seed` is private: `tableView` and `redactEvent` never show it before `ShoeEnded` reveals it.
 */
export {
  type Actor,
  type Card,
  type CommandMeta,
  type CoupResolvedData,
  EVENT_SCHEMA_VERSION,
  type EventData,
  type Limit,
  type NextPosition,
  type Outcome,
  ROLES,
  type Returned,
  type Role,
  SPOTS,
  type GameMode,
  type MainSpot,
  type SideSpot,
  type SideBetRule,
  addStake,
  amountOn,
  gameOf,
  limitOf,
  offeredSpots,
  payoutRulesOf,
  stakedSpots,
  type Settlement,
  type ShoeEndReason,
  type ShoeStartedData,
  type Slot,
  type Spot,
  type SpotAmounts,
  type TableEvent,
  type TableEventType,
  type TableRules,
  type DomainError,
  type DomainErrorCode,
  ERROR_HTTP_STATUS,
  type Result,
  domainError,
  isDomainError,
  ACTOR_ID_MAX_LENGTH,
  ISO_INSTANT_PATTERN,
  PLAYER_ID_PATTERN,
  SEED_PATTERN,
  TABLE_ID_PATTERN,
  TABLE_ID_SOURCE,
  ONLINE_CROUPIER,
  ONLINE_RULES,
  onlineCashier,
  onlineTableId,
  personalTableOwner,
  SNAPSHOT_STREAM_PREFIX,
  TABLE_STREAM_PREFIX,
  snapshotStream,
  tableIdOf,
  tableStream,
} from './vocabulary';
export { REASON_MAX_LENGTH, REASON_MIN_LENGTH, REASON_TEXT } from './kernel/fields';
export {
  COMMAND_FIELDS,
  COMMAND_ROLES,
  COMMAND_SEEDS,
  COMMAND_SPECS,
  type CommandData,
  type CommandReply,
  type TableCommand,
  type TableCommandType,
} from './commands';
export { DEFAULT_RULES, MAX_LIMIT, MIN_CUT_CARD, chipUnit, normalizeRules } from './rules';
export {
  type CoupSummary,
  type DealtCard,
  type Phase,
  type PlayerState,
  type RoundState,
  STATE_VERSION,
  type ShoeRecord,
  type ShoeState,
  type TableState,
  betsOf,
  roundOpen,
  totalOf,
  initialState,
  playerOf,
  seatOf,
  stakesOnLayout,
} from './state';
export { type Decision, decide } from './decide';
export { evolve, fold } from './evolve';
export {
  type PlayerBetsView,
  type PlayerView,
  type RoundView,
  type ShoeView,
  type TableView,
  redactEvent,
  tableView,
} from './view';
export { type CoupReply, replyFor } from './reply';

import { decide } from './decide';
import { evolve } from './evolve';
import { initialState } from './state';

/** The emmett-style decider bundle: `{ decide, evolve, initialState }`. */
export const tableDecider = { decide, evolve, initialState } as const;
