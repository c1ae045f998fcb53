/**
 * `evolve(state, event) -> state`: total and pure. Folding the same events always gives the same state; an
 * event that does not fit the state (it cannot come from `decide`) is applied as far as it makes sense, never
 * thrown on. Unknown event types (from a newer writer) leave the state unchanged.
 */
import { type Card, type ShoeCounts, fullShoeCounts, removeCard, startShoeProgress } from '@coup/engine';
import { afterCoup, afterVoid, placeCards } from './coup';
import {
  type CoupSummary,
  type PlayerState,
  type RoundState,
  type ShoeState,
  type TableState,
  betsOf,
  initialState,
  playerOf,
} from './state';
import type { EventData, SpotAmounts, TableEvent } from './types';

function withPlayer(
  state: TableState,
  playerId: string,
  update: (p: PlayerState) => PlayerState | null,
): TableState {
  const current = playerOf(state, playerId) ?? { chips: 0, commissionOwed: 0, lastBets: null };
  const next = update(current);
  const players = { ...state.players };
  if (next === null) delete players[playerId];
  else players[playerId] = next;
  return { ...state, players };
}

function takeOut(counts: ShoeCounts | null, card: Card): ShoeCounts | null {
  if (counts === null) return null;
  const removed = removeCard(counts, card);
  return removed.ok ? removed.value : counts;
}

function putBack(counts: ShoeCounts | null, card: Card): ShoeCounts | null {
  if (counts === null) return null;
  return { ...counts, [card]: (counts[card] ?? 0) + 1 };
}

function shoeStarted(state: TableState, d: EventData<'ShoeStarted'>): TableState {
  const everyCoup = d.shuffle === 'every-coup';
  let remaining: ShoeCounts | null = null;
  if (d.dealing === 'live') {
    remaining = fullShoeCounts(d.decks);
    if (d.burnCard !== null) remaining = takeOut(remaining, d.burnCard);
  }
  const shoe: ShoeState = {
    shoeNo: d.shoeNo,
    dealing: d.dealing,
    everyCoup,
    decks: d.decks,
    length: d.length,
    seed: d.seed,
    commitment: d.commitment,
    burnCard: d.burnCard,
    burnCount: d.burnCount,
    progress:
      everyCoup || d.burnCard === null || d.cutCard === null
        ? null
        : startShoeProgress(d.length, d.burnCard, d.cutCard),
    position: d.firstCoupIndex,
    remaining,
    coups: 0,
    ended: false,
    endReason: null,
    revealed: false,
  };
  return {
    ...state,
    shoe,
    shoeNo: d.shoeNo,
    phase: state.phase === 'closed' ? 'closed' : 'ready',
  };
}

function coupResolved(state: TableState, d: EventData<'CoupResolved'>): TableState {
  const summary: CoupSummary = {
    roundNo: d.roundNo,
    shoeNo: d.shoeNo,
    playerCards: d.playerCards,
    bankerCards: d.bankerCards,
    playerTotal: d.playerTotal,
    bankerTotal: d.bankerTotal,
    outcome: d.outcome,
    natural: d.natural,
    settlements: d.settlements,
    at: d.at,
  };
  const players: Record<string, PlayerState> = { ...state.players };
  for (const s of d.settlements) {
    const p = Object.hasOwn(players, s.playerId) ? players[s.playerId] : undefined;
    if (p === undefined) continue;
    players[s.playerId] = {
      ...p,
      chips: p.chips + s.paid,
      commissionOwed: d.commissionMode === 'box' ? p.commissionOwed + s.commission : p.commissionOwed,
    };
  }
  const round = state.round;
  if (round !== null) rememberBets(players, round.bets);
  let shoe = state.shoe;
  if (shoe !== null) {
    const progress = shoe.progress === null ? null : afterCoup(shoe.progress, d.cardsUsed);
    shoe = {
      ...shoe,
      progress,
      position: progress === null ? shoe.position + d.cardsUsed : progress.position,
      coups: shoe.coups + 1,
    };
  }
  return {
    ...state,
    players,
    shoe,
    round: round === null ? null : { ...round, status: 'resolved', result: summary },
    lastResult: summary,
    phase: state.phase === 'closed' ? 'closed' : 'ready',
  };
}

/** Each player with stakes in the round gets them as its last bets (for REBET). Mutates `players` (a copy). */
function rememberBets(
  players: Record<string, PlayerState>,
  bets: Readonly<Record<string, SpotAmounts>>,
): void {
  for (const [playerId, b] of Object.entries(bets)) {
    const p = Object.hasOwn(players, playerId) ? players[playerId] : undefined;
    if (b.player + b.banker + b.tie <= 0 || p === undefined) continue;
    players[playerId] = { ...p, lastBets: b };
  }
}

function roundVoided(state: TableState, d: EventData<'RoundVoided'>): TableState {
  const players: Record<string, PlayerState> = { ...state.players };
  for (const r of d.returned) {
    const p = Object.hasOwn(players, r.playerId) ? players[r.playerId] : undefined;
    if (p === undefined) continue;
    players[r.playerId] = { ...p, chips: p.chips + r.amount };
  }
  const round = state.round;
  if (round !== null) rememberBets(players, round.bets);
  let shoe = state.shoe;
  if (shoe !== null && d.cardsDealt > 0) {
    const progress = shoe.progress === null ? null : afterVoid(shoe.progress, d.cardsDealt);
    shoe = {
      ...shoe,
      progress,
      position: progress === null ? shoe.position + d.cardsDealt : progress.position,
    };
  }
  return {
    ...state,
    players,
    shoe,
    round:
      round === null
        ? null
        : { ...round, status: 'voided', voided: { reason: d.reason, by: d.by, role: d.role } },
    phase: state.phase === 'closed' ? 'closed' : 'ready',
  };
}

function withRound(state: TableState, update: (r: RoundState) => RoundState): TableState {
  return state.round === null ? state : { ...state, round: update(state.round) };
}

/**
 * Applies one event. Pure and total: returns a new state (the input is never changed).
 */
export function evolve(state: TableState, event: TableEvent): TableState {
  switch (event.type) {
    case 'TableOpened':
      return { ...initialState, phase: 'idle', tableId: event.data.tableId, rules: event.data.rules };
    case 'TableClosed':
      return { ...state, phase: 'closed' };
    case 'PlayerBoughtIn': {
      const { amount } = event.data;
      return withPlayer(state, event.data.playerId, (p) => ({ ...p, chips: p.chips + amount }));
    }
    case 'PlayerCashedOut': {
      const { commissionOwed } = event.data;
      return withPlayer(state, event.data.playerId, (p) =>
        commissionOwed > 0 ? { ...p, chips: 0, commissionOwed } : null,
      );
    }
    case 'ShoeStarted':
      return shoeStarted(state, event.data);
    case 'ShoeEnded': {
      const d = event.data;
      const shoe = state.shoe;
      return {
        ...state,
        shoe:
          shoe === null
            ? null
            : {
                ...shoe,
                ended: true,
                endReason: d.reason,
                seed: d.seed ?? shoe.seed,
                revealed: d.seed !== null,
              },
        phase: state.phase === 'closed' ? 'closed' : 'idle',
      };
    }
    case 'BettingOpened': {
      const d = event.data;
      return {
        ...state,
        roundNo: d.roundNo,
        phase: 'betting',
        round: {
          roundNo: d.roundNo,
          shoeNo: d.shoeNo,
          status: 'betting',
          openedAt: d.at,
          deadline: d.deadline,
          bets: {},
          cards: [],
          result: null,
          voided: null,
        },
      };
    }
    case 'BetPlaced': {
      const d = event.data;
      const round = state.round;
      const after = withPlayer(state, d.playerId, (p) => ({ ...p, chips: p.chips - d.amount }));
      if (round === null) return after;
      const current = betsOf(round, d.playerId);
      return {
        ...after,
        round: {
          ...round,
          bets: { ...round.bets, [d.playerId]: { ...current, [d.spot]: current[d.spot] + d.amount } },
        },
      };
    }
    case 'BetsCleared': {
      const d = event.data;
      const after = withPlayer(state, d.playerId, (p) => ({ ...p, chips: p.chips + d.returned }));
      return withRound(after, (r) => {
        const bets = { ...r.bets };
        delete bets[d.playerId];
        return { ...r, bets };
      });
    }
    case 'BettingClosed':
      return { ...withRound(state, (r) => ({ ...r, status: 'dealing' })), phase: 'dealing' };
    case 'CardDealt': {
      const d = event.data;
      const after = withRound(state, (r) => ({
        ...r,
        cards: [...r.cards, { card: d.card, to: d.to, slot: d.slot }],
      }));
      const shoe = after.shoe;
      return shoe === null || shoe.remaining === null
        ? after
        : { ...after, shoe: { ...shoe, remaining: takeOut(shoe.remaining, d.card) } };
    }
    case 'CardCorrected': {
      const d = event.data;
      const after = withRound(state, (r) => {
        const cards = r.cards.map((c, i) => (i === d.index ? d.newCard : c.card));
        return { ...r, cards: placeCards(cards) };
      });
      const shoe = after.shoe;
      return shoe === null || shoe.remaining === null
        ? after
        : { ...after, shoe: { ...shoe, remaining: takeOut(putBack(shoe.remaining, d.oldCard), d.newCard) } };
    }
    case 'CoupResolved':
      return coupResolved(state, event.data);
    case 'RoundVoided':
      return roundVoided(state, event.data);
    default: {
      const unknown: never = event;
      void unknown;
      return state;
    }
  }
}

/** Folds events onto a state (default: {@link initialState}). */
export function fold(events: Iterable<TableEvent>, state: TableState = initialState): TableState {
  let s = state;
  for (const e of events) s = evolve(s, e);
  return s;
}
