/**
 * The part of `evolve` that follows a coup once it has settled, until the next betting opens: its correction or
 * void (moving money back and forth), the record of its own shoe once another shoe starts, and the players who
 * cash out since it settled. A correction changes the coup's own shoe (by its number), never a newer one.
 */
import { type Card, type ShoeCounts, removeCard } from '@coup/engine';
import { placeCards } from './coup';
import {
  type CoupSummary,
  type PlayerState,
  type RoundState,
  type ShoeRecord,
  type TableState,
} from './state';
import type { EventData } from './vocabulary';

export function takeOut(counts: ShoeCounts | null, card: Card): ShoeCounts | null {
  if (counts === null) return null;
  const removed = removeCard(counts, card);
  return removed.ok ? removed.value : counts;
}

export function putBack(counts: ShoeCounts | null, card: Card): ShoeCounts | null {
  if (counts === null) return null;
  return { ...counts, [card]: (counts[card] ?? 0) + 1 };
}

/** `f()`, or `fallback` if it throws: the engine validates its inputs, and evolve never throws. */
export function attempt<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}

/** The round's cards with card `index` replaced by `card` (placed again). */
export function withCardReplaced(round: RoundState, index: number, card: Card): RoundState {
  const cards = round.cards.map((c, i) => (i === index ? card : c.card));
  return { ...round, cards: attempt(() => placeCards(cards), round.cards) };
}

/** A shoe record with `oldCard` back in its composition and `newCard` out of it. */
export function cardSwapped<S extends ShoeRecord>(shoe: S, oldCard: Card, newCard: Card): S {
  return shoe.remaining === null
    ? shoe
    : { ...shoe, remaining: takeOut(putBack(shoe.remaining, oldCard), newCard) };
}

/**
 * The state with shoe `shoeNo` updated: the current shoe (in progress or ended), or the settled round's own shoe
 * kept after another shoe started; any other shoe is no longer kept, and nothing changes.
 */
function onShoe(state: TableState, shoeNo: number, update: <S extends ShoeRecord>(shoe: S) => S): TableState {
  if (state.shoe !== null && state.shoe.shoeNo === shoeNo) return { ...state, shoe: update(state.shoe) };
  const round = state.round;
  if (round?.ownShoe?.shoeNo === shoeNo)
    return { ...state, round: { ...round, ownShoe: update(round.ownShoe) } };
  return state;
}

/** A new shoe starts: the settled round keeps its own shoe's record while its coup may still be corrected. */
export function keepOwnShoe(state: TableState): TableState {
  const { round, shoe } = state;
  if (round === null || round.status !== 'resolved' || shoe === null || shoe.shoeNo !== round.shoeNo)
    return state;
  const { shoeNo, decks, remaining, coups } = shoe;
  return { ...state, round: { ...round, ownShoe: { shoeNo, decks, remaining, coups } } };
}

/** A player cashes out: noted on the settled round if the player is in its coup (it keeps the coup as settled). */
export function noteCashOut(state: TableState, playerId: string): TableState {
  const round = state.round;
  if (round === null || round.status !== 'resolved') return state;
  if (!(round.result?.settlements ?? []).some((s) => s.playerId === playerId)) return state;
  const cashedOut = round.cashedOut ?? [];
  if (cashedOut.includes(playerId)) return state;
  return { ...state, round: { ...round, cashedOut: [...cashedOut, playerId].sort() } };
}

/** Each player's chips moved by `delta` and box commission owed by `owed` (players not listed are kept). */
function movePlayers(
  state: TableState,
  delta: Map<string, number>,
  owed: Map<string, number>,
): PlayerState[] {
  const moved = (p: PlayerState): PlayerState => ({
    ...p,
    chips: p.chips + (delta.get(p.playerId) ?? 0),
    commissionOwed: p.commissionOwed + (owed.get(p.playerId) ?? 0),
  });
  return state.players.map((p) => (delta.has(p.playerId) || owed.has(p.playerId) ? moved(p) : p));
}

/** Sums `value` per player of `entries`, with `sign`, into `into` (and returns it). */
function sumBy<T extends { readonly playerId: string }>(
  into: Map<string, number>,
  entries: readonly T[],
  value: (e: T) => number,
  sign: 1 | -1,
): Map<string, number> {
  for (const e of entries) into.set(e.playerId, (into.get(e.playerId) ?? 0) + sign * value(e));
  return into;
}

export function settledCoupCorrected(
  state: TableState,
  d: EventData<'SettledCoupCorrected'>,
  summary: CoupSummary,
): TableState {
  const delta = sumBy(
    sumBy(new Map(), d.settlements, (s) => s.paid, 1),
    d.reversed,
    (s) => s.paid,
    -1,
  );
  const owed =
    d.commissionMode === 'box'
      ? sumBy(
          sumBy(new Map(), d.settlements, (s) => s.commission, 1),
          d.reversed,
          (s) => s.commission,
          -1,
        )
      : new Map<string, number>();
  const round = state.round;
  const corrected: TableState = {
    ...state,
    players: movePlayers(state, delta, owed),
    round: round === null ? null : { ...withCardReplaced(round, d.index, d.newCard), result: summary },
    lastResult: summary,
  };
  return onShoe(corrected, d.shoeNo, (shoe) => cardSwapped(shoe, d.oldCard, d.newCard));
}

export function settledCoupVoided(state: TableState, d: EventData<'SettledCoupVoided'>): TableState {
  const delta = sumBy(
    sumBy(new Map(), d.returned, (r) => r.amount, 1),
    d.reversed,
    (s) => s.paid,
    -1,
  );
  const box = state.rules?.commission === 'box' && (state.rules.game ?? 'commission') === 'commission';
  const owed = box ? sumBy(new Map(), d.reversed, (s) => s.commission, -1) : new Map<string, number>();
  const round = state.round;
  const voided: TableState = {
    ...state,
    players: movePlayers(state, delta, owed),
    round:
      round === null
        ? null
        : { ...round, status: 'voided', result: null, voided: { reason: d.reason, by: d.by, role: d.role } },
    lastResult: null,
  };
  return onShoe(voided, d.shoeNo, (shoe) => ({ ...shoe, coups: Math.max(0, shoe.coups - 1) }));
}
