/**
 * The table's state: what `decide` needs, folded from the events by `evolve`. Plain JSON (objects, arrays,
 * strings, numbers, booleans, null: no Map, Set, class or bigint) so the service can snapshot it, and BOUNDED
 * whatever the history: the current shoe and round, the seated players' balances and each one's last bets (for
 * REBET), the last resolved coup. Never a list of past rounds.
 */
import type { Card, CoupResult, ShoeCounts, ShoeProgress } from '@coup/engine';
import {
  type Role,
  type Settlement,
  type ShoeEndReason,
  type Slot,
  type SpotAmounts,
  type TableRules,
  totalOf,
} from './vocabulary';

export { totalOf };

/** Bump when the state's shape changes (a snapshot of another version must be rebuilt from the events). */
export const STATE_VERSION = 3;

/**
 * The table's phase:
 * - `none`: no table yet; `idle`: open, no shoe in progress; `ready`: a shoe is in progress, between rounds;
 * - `betting`: a round is open for bets; `dealing`: betting closed, the coup is being dealt;
 * - `closed`: the table is closed (only CashOut is still taken).
 */
export type Phase = 'none' | 'idle' | 'ready' | 'betting' | 'dealing' | 'closed';

/** A seated player. Players leave the state when they cash out owing nothing. */
export interface PlayerState {
  readonly playerId: string;
  readonly chips: number;
  /** Box commission owed (box tables): collected from the chips at cash-out. */
  readonly commissionOwed: number;
  /**
   * The player's stakes in the current round (on the layout while it is open; kept for display once it is
   * resolved or voided, until the next round opens); null when none.
   */
  readonly bets: SpotAmounts | null;
  /** The player's stakes in the last round it bet in (resolved or voided), for REBET; null if none yet. */
  readonly lastBets: SpotAmounts | null;
}

/** The current (or last ended) shoe. */
export interface ShoeState {
  readonly shoeNo: number;
  readonly dealing: 'rng' | 'live';
  readonly everyCoup: boolean;
  readonly decks: number;
  readonly length: number;
  /** rng: the seed (lowercase hex). Private until `revealed`: views and redacted events never show it before. */
  readonly seed: string | null;
  readonly commitment: string | null;
  readonly burnCard: Card | null;
  readonly burnCount: number;
  /** Cut card and position (shoe tables); null on every-coup tables (one coup per shoe, no burn, no cut card). */
  readonly progress: ShoeProgress | null;
  /** Index of the next card in the shoe, not counting the current coup's cards. */
  readonly position: number;
  /** live: the composition of the cards not yet seen (full shoe less the turned and dealt cards); rng: null. */
  readonly remaining: ShoeCounts | null;
  /** Coups resolved from this shoe. */
  readonly coups: number;
  readonly ended: boolean;
  readonly endReason: ShoeEndReason | null;
  /** The seed has been revealed (ShoeEnded). */
  readonly revealed: boolean;
}

/** What a settled coup's correction needs of its shoe: the composition it is checked against, its coups. */
export type ShoeRecord = Pick<ShoeState, 'shoeNo' | 'decks' | 'remaining' | 'coups'>;

/** A dealt card of the current coup. */
export interface DealtCard {
  readonly card: Card;
  readonly to: 'player' | 'banker';
  readonly slot: Slot;
}

/** What a resolved coup showed and paid. */
export interface CoupSummary {
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly playerCards: readonly Card[];
  readonly bankerCards: readonly Card[];
  readonly playerTotal: number;
  readonly bankerTotal: number;
  readonly outcome: CoupResult['outcome'];
  readonly natural: boolean;
  readonly settlements: readonly Settlement[];
  readonly at: string;
}

/** The current round (or the last one, once resolved or voided, until the next opens). */
export interface RoundState {
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly status: 'betting' | 'dealing' | 'resolved' | 'voided';
  readonly openedAt: string;
  readonly deadline: string | null;
  readonly cards: readonly DealtCard[];
  readonly result: CoupSummary | null;
  readonly voided: { readonly reason: string; readonly by: string; readonly role: Role } | null;
  /** Stakes on the layout, one per player and spot (bounded by the rule `maxStakes`: see `checkStakes`). */
  readonly stakes: number;
  /**
   * The settled coup's own shoe, kept once another shoe has started (until the next betting opens), so that a
   * correction or void of the coup checks and changes that shoe, never the new one. Absent otherwise.
   */
  readonly ownShoe?: ShoeRecord;
  /**
   * The players of the settled coup who cashed out since it settled (sorted): they keep the coup as it was
   * settled. Absent when none did.
   */
  readonly cashedOut?: readonly string[];
}

/** The table's whole decision state. */
export interface TableState {
  readonly version: number;
  readonly phase: Phase;
  readonly tableId: string | null;
  readonly rules: TableRules | null;
  /** The last round number opened (0 before the first). */
  readonly roundNo: number;
  /** The last shoe number started (0 before the first). */
  readonly shoeNo: number;
  readonly shoe: ShoeState | null;
  readonly round: RoundState | null;
  /**
   * Seated players, sorted by `playerId` (look up with {@link playerOf}: a binary search). An array rather than
   * a record keyed by id: placing a bet copies one array of pointers, not an object of a thousand keys.
   */
  readonly players: readonly PlayerState[];
  /** The last resolved coup (stays when a later round is voided or open). */
  readonly lastResult: CoupSummary | null;
}

/** "No table yet". */
export const initialState: TableState = Object.freeze({
  version: STATE_VERSION,
  phase: 'none',
  tableId: null,
  rules: null,
  roundNo: 0,
  shoeNo: 0,
  shoe: null,
  round: null,
  players: Object.freeze([]) as readonly PlayerState[],
  lastResult: null,
}) as TableState;

/**
 * Where `playerId` sits in `players` (sorted by id): its index if seated, else `-(insertion point) - 1`.
 * Ids compare by UTF-16 code units (`<`), the same order everywhere.
 */
export function seatOf(players: readonly PlayerState[], playerId: string): number {
  let lo = 0;
  let hi = players.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const id = players[mid]?.playerId ?? '';
    if (id < playerId) lo = mid + 1;
    else if (id > playerId) hi = mid - 1;
    else return mid;
  }
  return -lo - 1;
}

/** The seated player `playerId`, or undefined. */
export function playerOf(state: TableState, playerId: string): PlayerState | undefined {
  const seat = seatOf(state.players, playerId);
  return seat >= 0 ? state.players[seat] : undefined;
}

/** The stakes of `playerId` on the layout now: zeros unless a round is open and the player has bets in it. */
export function betsOf(state: TableState, playerId: string): SpotAmounts {
  if (!roundOpen(state.round)) return NO_BETS;
  return playerOf(state, playerId)?.bets ?? NO_BETS;
}

/** Every player's stakes on the layout now (sorted by id), or none unless a round is open. */
export function stakesOnLayout(
  state: TableState,
): { readonly playerId: string; readonly bets: SpotAmounts }[] {
  if (!roundOpen(state.round)) return [];
  const out: { playerId: string; bets: SpotAmounts }[] = [];
  for (const p of state.players)
    if (p.bets !== null && totalOf(p.bets) > 0) out.push({ playerId: p.playerId, bets: p.bets });
  return out;
}

/** Zero stakes. */
export const NO_BETS: SpotAmounts = Object.freeze({ player: 0, banker: 0, tie: 0 });

/** True while the round's stakes are on the layout (betting or dealing). */
export function roundOpen(round: RoundState | null): round is RoundState {
  return round !== null && (round.status === 'betting' || round.status === 'dealing');
}
