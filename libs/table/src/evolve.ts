/**
 * `evolve(state, event) -> state`: total and pure. Folding the same events always gives the same state; an
 * event that does not fit the state (it cannot come from `decide`) is applied as far as it makes sense, never
 * thrown on. Unknown event types (from a newer writer) leave the state unchanged.
 */
import { type ShoeCounts, fullShoeCounts, startShoeProgress } from '@coup/engine';
import { afterCoup, afterVoid } from './coup';
import { type Draft, copyPlayer, copyRound, copyShoe, copyState, stakeAdded } from './evolve-copy';
import {
  attempt,
  cardSwapped,
  keepOwnShoe,
  noteCashOut,
  settledCoupCorrected,
  settledCoupVoided,
  takeOut,
  withCardReplaced,
} from './evolve-settled';
import {
  type CoupSummary,
  NO_BETS,
  type PlayerState,
  type RoundState,
  type ShoeState,
  type TableState,
  initialState,
  seatOf,
} from './state';
import { type EventData, type SpotAmounts, type TableEvent, stakedSpots, totalOf } from './vocabulary';

/**
 * The state with one player updated (seated first if new; removed if `update` returns null). Copies the players
 * array (pointers) once: cheap even with a thousand players at the table.
 */
function withPlayer(
  state: TableState,
  playerId: string,
  update: (p: PlayerState) => PlayerState | null,
): TableState {
  const seat = seatOf(state.players, playerId);
  const current = seat >= 0 ? state.players[seat] : undefined;
  const next = update(current ?? { playerId, chips: 0, commissionOwed: 0, bets: null, lastBets: null });
  const players = state.players.slice();
  if (seat >= 0) {
    if (next === null) players.splice(seat, 1);
    else players[seat] = next;
  } else if (next !== null) {
    players.splice(-seat - 1, 0, next);
  } else {
    return state;
  }
  const out = copyState(state);
  out.players = players;
  return out;
}

/** Every player with stakes: `update` applied (one pass, one copy). Players without stakes are kept as they are. */
function withStakes(
  state: TableState,
  update: (p: PlayerState, bets: SpotAmounts) => PlayerState,
): PlayerState[] {
  return state.players.map((p) => (p.bets !== null && totalOf(p.bets) > 0 ? update(p, p.bets) : p));
}

function shoeStarted(state: TableState, d: EventData<'ShoeStarted'>): TableState {
  const everyCoup = d.shuffle === 'every-coup';
  let remaining: ShoeCounts | null = null;
  if (d.dealing === 'live') {
    remaining = attempt(() => fullShoeCounts(d.decks), null);
    if (d.burnCard !== null) remaining = takeOut(remaining, d.burnCard);
  }
  const burnCard = d.burnCard;
  const cutCard = d.cutCard;
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
      everyCoup || burnCard === null || cutCard === null
        ? null
        : attempt(() => startShoeProgress(d.length, burnCard, cutCard), null),
    position: d.firstCoupIndex,
    remaining,
    coups: 0,
    ended: false,
    endReason: null,
    revealed: false,
  };
  return {
    ...keepOwnShoe(state),
    shoe,
    shoeNo: d.shoeNo,
    phase: state.phase === 'closed' ? 'closed' : 'ready',
  };
}

/** What a resolved (or corrected) coup showed and paid. */
function summaryOf(d: EventData<'CoupResolved'> | EventData<'SettledCoupCorrected'>): CoupSummary {
  const { roundNo, shoeNo, playerCards, bankerCards, playerTotal, bankerTotal, outcome, natural } = d;
  return {
    roundNo,
    shoeNo,
    playerCards,
    bankerCards,
    playerTotal,
    bankerTotal,
    outcome,
    natural,
    settlements: d.settlements,
    at: d.at,
  };
}

function coupResolved(state: TableState, d: EventData<'CoupResolved'>): TableState {
  const summary = summaryOf(d);
  // settlements are sorted by player id, like the players: walk both in one pass
  const players = state.players.slice();
  let i = 0;
  for (const s of d.settlements) {
    while (i < players.length && (players[i]?.playerId ?? '') < s.playerId) i++;
    const p = players[i];
    if (p === undefined || p.playerId !== s.playerId) continue;
    const paid = copyPlayer(p);
    paid.chips = p.chips + s.paid;
    if (d.commissionMode === 'box') paid.commissionOwed = p.commissionOwed + s.commission;
    players[i] = paid;
  }
  const out = copyState(state);
  out.players = players;
  out.players = withStakes(out, (p, bets) => {
    const remembered = copyPlayer(p);
    remembered.lastBets = bets;
    return remembered;
  });
  const shoe = state.shoe;
  if (shoe !== null) {
    const progress = shoe.progress === null ? null : afterCoup(shoe.progress, d.cardsUsed);
    const next = copyShoe(shoe);
    next.progress = progress;
    next.position = progress === null ? shoe.position + d.cardsUsed : progress.position;
    next.coups = shoe.coups + 1;
    out.shoe = next;
  }
  if (state.round !== null) {
    const round = copyRound(state.round);
    round.status = 'resolved';
    round.result = summary;
    out.round = round;
  }
  out.lastResult = summary;
  out.phase = state.phase === 'closed' ? 'closed' : 'ready';
  return out;
}

function roundVoided(state: TableState, d: EventData<'RoundVoided'>): TableState {
  const returned = new Map(d.returned.map((r) => [r.playerId, r.amount]));
  const players = withStakes(state, (p, bets) => ({
    ...p,
    chips: p.chips + (returned.get(p.playerId) ?? 0),
    lastBets: bets,
  }));
  const round = state.round;
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
  if (state.round === null) return state;
  const out = copyState(state);
  out.round = update(state.round);
  return out;
}

function bettingOpened(state: TableState, d: EventData<'BettingOpened'>): TableState {
  const out = copyState(state);
  out.roundNo = d.roundNo;
  out.phase = 'betting';
  if (state.players.some((p) => p.bets !== null))
    out.players = state.players.map((p) => {
      if (p.bets === null) return p;
      const cleared = copyPlayer(p);
      cleared.bets = null;
      return cleared;
    });
  out.round = {
    roundNo: d.roundNo,
    shoeNo: d.shoeNo,
    status: 'betting',
    openedAt: d.at,
    deadline: d.deadline,
    cards: [],
    result: null,
    voided: null,
    stakes: 0,
  };
  return out;
}

function cardDealt(state: TableState, d: EventData<'CardDealt'>): TableState {
  const after = withRound(state, (r) => {
    const round = copyRound(r);
    round.cards = [...r.cards, { card: d.card, to: d.to, slot: d.slot }];
    return round;
  });
  const shoe = after.shoe;
  if (shoe === null || shoe.remaining === null) return after;
  const out = after === state ? copyState(state) : (after as Draft<TableState>);
  const next = copyShoe(shoe);
  next.remaining = takeOut(shoe.remaining, d.card);
  out.shoe = next;
  return out;
}

function cardCorrected(state: TableState, d: EventData<'CardCorrected'>): TableState {
  const after = withRound(state, (r) => withCardReplaced(r, d.index, d.newCard));
  return after.shoe === null ? after : { ...after, shoe: cardSwapped(after.shoe, d.oldCard, d.newCard) };
}

type Evolvers = { readonly [K in TableEvent['type']]: (state: TableState, d: EventData<K>) => TableState };

/** One handler per event type (every type has one: the compiler checks the record is complete). */
const EVOLVERS: Evolvers = {
  TableOpened: (_, d) => ({ ...initialState, phase: 'idle', tableId: d.tableId, rules: d.rules }),
  TableClosed: (state) => {
    const out = copyState(state);
    out.phase = 'closed';
    return out;
  },
  PlayerBoughtIn: (state, d) =>
    withPlayer(state, d.playerId, (p) => {
      const next = copyPlayer(p);
      next.chips = p.chips + d.amount;
      return next;
    }),
  PlayerCashedOut: (state, d) => {
    const { commissionOwed } = d;
    return withPlayer(noteCashOut(state, d.playerId), d.playerId, (p) =>
      commissionOwed > 0 ? { ...p, chips: 0, commissionOwed } : null,
    );
  },
  ShoeStarted: shoeStarted,
  ShoeEnded: (state, d) => {
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
  },
  BettingOpened: bettingOpened,
  BetPlaced: (state, d) => {
    // a new (player, spot) stake when the spot total is the bet itself
    const after =
      d.spotTotal === d.amount
        ? withRound(state, (r) => {
            const round = copyRound(r);
            round.stakes = r.stakes + 1;
            return round;
          })
        : state;
    return withPlayer(after, d.playerId, (p) => {
      const next = copyPlayer(p);
      next.chips = p.chips - d.amount;
      next.bets = stakeAdded(p.bets ?? NO_BETS, d.spot, d.amount);
      return next;
    });
  },
  BetsCleared: (state, d) =>
    withPlayer(
      withRound(state, (r) => ({ ...r, stakes: Math.max(0, r.stakes - stakedSpots(d.bets).length) })),
      d.playerId,
      (p) => ({ ...p, chips: p.chips + d.returned, bets: null }),
    ),
  BettingClosed: (state) => {
    const round = state.round === null ? null : copyRound(state.round);
    if (round !== null) round.status = 'dealing';
    const out = copyState(state);
    out.round = round;
    out.phase = 'dealing';
    return out;
  },
  CardDealt: cardDealt,
  CardCorrected: cardCorrected,
  CoupResolved: coupResolved,
  RoundVoided: roundVoided,
  SettledCoupCorrected: (state, d) => settledCoupCorrected(state, d, summaryOf(d)),
  SettledCoupVoided: settledCoupVoided,
};

/**
 * Applies one event. Pure and total: returns a new state (the input is never changed).
 */
export function evolve(state: TableState, event: TableEvent): TableState {
  if (!Object.hasOwn(EVOLVERS, event.type)) return state; // a newer writer's event
  return (EVOLVERS[event.type] as (state: TableState, d: TableEvent['data']) => TableState)(
    state,
    event.data,
  );
}

/** Folds events onto a state (default: {@link initialState}). */
export function fold(events: Iterable<TableEvent>, state: TableState = initialState): TableState {
  let s = state;
  for (const e of events) s = evolve(s, e);
  return s;
}
