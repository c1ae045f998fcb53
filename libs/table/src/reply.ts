/**
 * `replyFor`: the API's answer to a command, computed from the events just decided (they carry everything an
 * answer needs, so the answer is the same whenever it is recomputed, e.g. for an idempotent retry).
 */
import type { NextPosition } from '@coup/engine';
import type { TableState } from './state';
import type {
  EventData,
  Returned,
  Settlement,
  Spot,
  TableCommand,
  TableEvent,
  TableEventType,
} from './types';

/** The coup's answer (Deal, or the DealCard / CorrectCard that completes the coup). */
export interface CoupReply {
  readonly roundNo: number;
  readonly playerCards: readonly string[];
  readonly bankerCards: readonly string[];
  readonly playerTotal: number;
  readonly bankerTotal: number;
  readonly outcome: 'player' | 'banker' | 'tie';
  readonly natural: boolean;
  readonly settlements: readonly Settlement[];
  /** The shoe that ended with this coup (its seed revealed on rng tables), or null. */
  readonly shoeEnded: {
    readonly shoeNo: number;
    readonly seed: string | null;
    readonly reason: string;
  } | null;
  /** The next shoe started by `nextSeed` (its commitment), or null. */
  readonly nextShoe: { readonly shoeNo: number; readonly commitment: string | null } | null;
  /** The next round opened automatically (player-dealt tables), or null. */
  readonly nextRound: { readonly roundNo: number; readonly deadline: string | null } | null;
}

function find<T extends TableEventType>(events: readonly TableEvent[], type: T) {
  const found = events.find((x) => x.type === type);
  return found === undefined ? undefined : (found.data as unknown as EventData<T>);
}

function findAll<T extends TableEventType>(events: readonly TableEvent[], type: T) {
  return events.filter((x) => x.type === type).map((x) => x.data as unknown as EventData<T>);
}

function coupReply(events: readonly TableEvent[]): CoupReply | undefined {
  const coup = find(events, 'CoupResolved');
  if (coup === undefined) return undefined;
  const ended = find(events, 'ShoeEnded');
  const started = find(events, 'ShoeStarted');
  const opened = find(events, 'BettingOpened');
  return {
    roundNo: coup.roundNo,
    playerCards: coup.playerCards,
    bankerCards: coup.bankerCards,
    playerTotal: coup.playerTotal,
    bankerTotal: coup.bankerTotal,
    outcome: coup.outcome,
    natural: coup.natural,
    settlements: coup.settlements,
    shoeEnded: ended === undefined ? null : { shoeNo: ended.shoeNo, seed: ended.seed, reason: ended.reason },
    nextShoe: started === undefined ? null : { shoeNo: started.shoeNo, commitment: started.commitment },
    nextRound: opened === undefined ? null : { roundNo: opened.roundNo, deadline: opened.deadline },
  };
}

/**
 * The API answer for `command`, from the `events` decide returned for it:
 * - OpenTable `{ tableId, rules }`; CloseTable `{ tableId, closed: true }`;
 * - BuyIn `{ playerId, amount, chips }`; CashOut `{ playerId, paid, commissionCollected, commissionOwed }`;
 * - StartShoe `{ shoeNo, commitment, burnCard, burnCount, cardsLeft }`;
 * - OpenBetting `{ roundNo, deadline, shoeNo, commitment }` (commitment of the shoe, if this command started one);
 * - PlaceBet `{ roundNo, playerId, spot, amount, spotTotal, chips }`; ClearBets `{ roundNo, playerId, returned,
 *   bets, chips }`; Rebet `{ roundNo, playerId, bets: [{ spot, amount, spotTotal }], chips }`;
 * - CloseBetting `{ roundNo, by }`;
 * - Deal, or a DealCard/CorrectCard that completes the coup: {@link CoupReply};
 * - DealCard otherwise `{ roundNo, card, dealtTo, slot, next }`; CorrectCard otherwise `{ roundNo, index,
 *   oldCard, newCard, next }`;
 * - VoidRound `{ roundNo, reason, returned }`; EndShoe `{ shoeNo, seed, reason }`.
 *
 * @param _state unused: every answer comes from the events (kept for the contract's signature).
 */
export function replyFor(command: TableCommand, events: readonly TableEvent[], _state?: TableState): unknown {
  switch (command.type) {
    case 'OpenTable': {
      const d = find(events, 'TableOpened');
      return d && { tableId: d.tableId, rules: d.rules };
    }
    case 'CloseTable': {
      const d = find(events, 'TableClosed');
      return d && { tableId: d.tableId, closed: true };
    }
    case 'BuyIn': {
      const d = find(events, 'PlayerBoughtIn');
      return d && { playerId: d.playerId, amount: d.amount, chips: d.chips };
    }
    case 'CashOut': {
      const d = find(events, 'PlayerCashedOut');
      return (
        d && {
          playerId: d.playerId,
          paid: d.paid,
          commissionCollected: d.commissionCollected,
          commissionOwed: d.commissionOwed,
        }
      );
    }
    case 'StartShoe': {
      const d = find(events, 'ShoeStarted');
      return (
        d && {
          shoeNo: d.shoeNo,
          commitment: d.commitment,
          burnCard: d.burnCard,
          burnCount: d.burnCount,
          cardsLeft: d.length - d.firstCoupIndex,
        }
      );
    }
    case 'OpenBetting': {
      const d = find(events, 'BettingOpened');
      const started = find(events, 'ShoeStarted');
      return (
        d && {
          roundNo: d.roundNo,
          deadline: d.deadline,
          shoeNo: d.shoeNo,
          commitment: started?.commitment ?? null,
        }
      );
    }
    case 'PlaceBet': {
      const d = find(events, 'BetPlaced');
      return (
        d && {
          roundNo: d.roundNo,
          playerId: d.playerId,
          spot: d.spot,
          amount: d.amount,
          spotTotal: d.spotTotal,
          chips: d.chips,
        }
      );
    }
    case 'ClearBets': {
      const d = find(events, 'BetsCleared');
      return (
        d && { roundNo: d.roundNo, playerId: d.playerId, returned: d.returned, bets: d.bets, chips: d.chips }
      );
    }
    case 'Rebet': {
      const placed = findAll(events, 'BetPlaced');
      const last = placed[placed.length - 1];
      return (
        last && {
          roundNo: last.roundNo,
          playerId: last.playerId,
          bets: placed.map((p): { spot: Spot; amount: number; spotTotal: number } => ({
            spot: p.spot,
            amount: p.amount,
            spotTotal: p.spotTotal,
          })),
          chips: last.chips,
        }
      );
    }
    case 'CloseBetting': {
      const d = find(events, 'BettingClosed');
      return d && { roundNo: d.roundNo, by: d.by };
    }
    case 'Deal':
      return coupReply(events);
    case 'DealCard': {
      const coup = coupReply(events);
      if (coup) return coup;
      const d = find(events, 'CardDealt');
      return (
        d && { roundNo: d.roundNo, card: d.card, dealtTo: d.to, slot: d.slot, next: d.next as NextPosition }
      );
    }
    case 'CorrectCard': {
      const coup = coupReply(events);
      if (coup) return coup;
      const d = find(events, 'CardCorrected');
      return (
        d && { roundNo: d.roundNo, index: d.index, oldCard: d.oldCard, newCard: d.newCard, next: d.next }
      );
    }
    case 'VoidRound': {
      const d = find(events, 'RoundVoided');
      return d && { roundNo: d.roundNo, reason: d.reason, returned: d.returned as readonly Returned[] };
    }
    case 'EndShoe': {
      const d = find(events, 'ShoeEnded');
      return d && { shoeNo: d.shoeNo, seed: d.seed, reason: d.reason };
    }
    default: {
      const unknown: never = command;
      void unknown;
      return undefined;
    }
  }
}
