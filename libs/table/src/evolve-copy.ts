/**
 * Fresh copies of the state's parts for `evolve` to change before it returns them: object literals with every
 * field written out, in the order the state has them (its JSON is unchanged). V8 (Node 20) builds an object
 * spread with changed fields (`{ ...state, phase }`) some thirty times slower than such a literal, and `evolve`
 * copies the state, the round and a player for most events: the fold of every read model that keeps the table
 * state (and the service's) pays for it per event. A copy is never shared before it is returned, so changing
 * it keeps `evolve` pure.
 */
import type { PlayerState, RoundState, ShoeState, TableState } from './state';
import type { Spot, SpotAmounts } from './vocabulary';

export type Draft<T> = { -readonly [K in keyof T]: T[K] };

export function copyState(s: TableState): Draft<TableState> {
  return {
    version: s.version,
    phase: s.phase,
    tableId: s.tableId,
    rules: s.rules,
    roundNo: s.roundNo,
    shoeNo: s.shoeNo,
    shoe: s.shoe,
    round: s.round,
    players: s.players,
    lastResult: s.lastResult,
  };
}

/** The round's copy; a round with its optional fields (a settled coup's, rarely copied) is spread, in its order. */
export function copyRound(r: RoundState): Draft<RoundState> {
  if ('ownShoe' in r || 'cashedOut' in r) return { ...r };
  return {
    roundNo: r.roundNo,
    shoeNo: r.shoeNo,
    status: r.status,
    openedAt: r.openedAt,
    deadline: r.deadline,
    cards: r.cards,
    result: r.result,
    voided: r.voided,
    stakes: r.stakes,
  };
}

export function copyShoe(s: ShoeState): Draft<ShoeState> {
  return {
    shoeNo: s.shoeNo,
    dealing: s.dealing,
    everyCoup: s.everyCoup,
    decks: s.decks,
    length: s.length,
    seed: s.seed,
    commitment: s.commitment,
    burnCard: s.burnCard,
    burnCount: s.burnCount,
    progress: s.progress,
    position: s.position,
    remaining: s.remaining,
    coups: s.coups,
    ended: s.ended,
    endReason: s.endReason,
    revealed: s.revealed,
  };
}

export function copyPlayer(p: PlayerState): Draft<PlayerState> {
  return {
    playerId: p.playerId,
    chips: p.chips,
    commissionOwed: p.commissionOwed,
    bets: p.bets,
    lastBets: p.lastBets,
  };
}

/**
 * `addStake(bets, spot, amount)` (the same object, fields in the same order), written out for the main spots
 * when `bets` has no side bet.
 */
export function stakeAdded(bets: SpotAmounts, spot: Spot, amount: number): SpotAmounts {
  const main = spot === 'player' || spot === 'banker' || spot === 'tie';
  if (!main || Object.keys(bets).length !== 3) return { ...bets, [spot]: (bets[spot] ?? 0) + amount };
  return {
    player: spot === 'player' ? bets.player + amount : bets.player,
    banker: spot === 'banker' ? bets.banker + amount : bets.banker,
    tie: spot === 'tie' ? bets.tie + amount : bets.tie,
  };
}
