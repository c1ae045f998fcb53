/**
 * What a live client knows of a table, folded from its frames the way a client does (a view, then events and bet
 * totals), and the same read from a fresh view: two clients that know the same table give equal `Seen`.
 */
import type { TableEvent, TableView } from '@coup/table';
import type { Sent } from './live-fake';

export interface Seen {
  readonly roundNo: number | null;
  readonly status: string | null;
  readonly cards: readonly string[];
  /** The round's totals per spot (staked spots only) and bettors. */
  readonly totals: Readonly<Record<string, number>>;
  readonly bettors: number;
  /** The viewing player's chips and stakes (null: not seated, or staff). */
  readonly mine: { readonly chips: number; readonly bets: Readonly<Record<string, number>> } | null;
}

const staked = (amounts: Readonly<Record<string, unknown>>): Record<string, number> =>
  Object.fromEntries(
    Object.entries(amounts).filter(
      (entry): entry is [string, number] => typeof entry[1] === 'number' && entry[1] > 0,
    ),
  );

/** What a fresh view says. */
export function seenInView(view: TableView | undefined, me: string | null): Seen {
  if (!view) throw new Error('a frame without its view');
  const round = view.round;
  const seat = me === null ? undefined : view.players.find((p) => p.playerId === me);
  const own = me === null ? undefined : round?.bets.players.find((p) => p.playerId === me);
  const { playerId: _id, ...ownBets } = own ?? { playerId: '' };
  return {
    roundNo: round?.roundNo ?? null,
    status: round?.status ?? null,
    cards: round?.cards.map((c) => c.card) ?? [],
    totals: staked(round?.bets.totals ?? {}),
    bettors: round?.bets.bettors ?? 0,
    mine: seat ? { chips: seat.chips, bets: staked(ownBets) } : null,
  };
}

/** `seen` after one frame (views and resumes aside: the caller starts from a view). */
export function applyFrame(seen: Seen, frame: Sent, me: string | null): Seen {
  if (frame.type === 'bets')
    return frame.roundNo === seen.roundNo
      ? { ...seen, totals: staked(frame.totals ?? {}), bettors: frame.bettors ?? 0 }
      : seen;
  if (frame.type !== 'event' || !frame.event) return seen;
  return applyEvent(seen, frame.event, me);
}

function applyEvent(seen: Seen, event: TableEvent, me: string | null): Seen {
  const mine = seen.mine;
  switch (event.type) {
    case 'BettingOpened':
      return {
        roundNo: event.data.roundNo,
        status: 'betting',
        cards: [],
        totals: {},
        bettors: 0,
        mine: mine && { ...mine, bets: {} },
      };
    case 'BettingClosed':
      return { ...seen, status: 'dealing' };
    case 'CardDealt':
      return { ...seen, cards: [...seen.cards, event.data.card] };
    case 'CardCorrected':
      return { ...seen, cards: seen.cards.map((c, i) => (i === event.data.index ? event.data.newCard : c)) };
    case 'CoupResolved': {
      const paid = event.data.settlements.filter((s) => s.playerId === me).reduce((n, s) => n + s.paid, 0);
      return { ...seen, status: 'resolved', mine: mine && { ...mine, chips: mine.chips + paid } };
    }
    case 'RoundVoided': {
      const back = event.data.returned.filter((r) => r.playerId === me).reduce((n, r) => n + r.amount, 0);
      return { ...seen, status: 'voided', mine: mine && { ...mine, chips: mine.chips + back } };
    }
    case 'SettledCoupCorrected': {
      // the reversed settlement taken back, the new one paid; the corrected card in place
      const moved =
        event.data.settlements.filter((s) => s.playerId === me).reduce((n, s) => n + s.paid, 0) -
        event.data.reversed.filter((s) => s.playerId === me).reduce((n, s) => n + s.paid, 0);
      return {
        ...seen,
        cards: seen.cards.map((c, i) => (i === event.data.index ? event.data.newCard : c)),
        mine: mine && { ...mine, chips: mine.chips + moved },
      };
    }
    case 'SettledCoupVoided': {
      const moved =
        event.data.returned.filter((r) => r.playerId === me).reduce((n, r) => n + r.amount, 0) -
        event.data.reversed.filter((s) => s.playerId === me).reduce((n, s) => n + s.paid, 0);
      return { ...seen, status: 'voided', mine: mine && { ...mine, chips: mine.chips + moved } };
    }
    default:
      return me === null ? seen : { ...seen, mine: ownEvent(mine, event, me) };
  }
}

/** The viewing player's seat after one of its own events. */
function ownEvent(mine: Seen['mine'], event: TableEvent, me: string): Seen['mine'] {
  switch (event.type) {
    case 'PlayerBoughtIn':
      return event.data.playerId === me ? { chips: event.data.chips, bets: mine?.bets ?? {} } : mine;
    case 'PlayerCashedOut':
      if (event.data.playerId !== me) return mine;
      return event.data.commissionOwed > 0 ? { chips: 0, bets: mine?.bets ?? {} } : null;
    case 'BetPlaced':
      return event.data.playerId === me && mine
        ? { chips: event.data.chips, bets: { ...mine.bets, [event.data.spot]: event.data.spotTotal } }
        : mine;
    case 'BetsCleared':
      return event.data.playerId === me && mine ? { chips: event.data.chips, bets: {} } : mine;
    default:
      return mine;
  }
}
