/**
 * CorrectCard (live tables, supervisor): replaces a mis-entered card (0-based index in dealing order) before the
 * coup resolves. The whole corrected sequence is re-validated: a correction that completes the coup before the
 * last dealt card is refused (the supervisor voids the round); one that completes it exactly resolves it.
 */
import { resolveCoup } from '@coup/engine';
import { nextFor } from '../../coup';
import {
  type Command,
  type CommandSpec,
  type CoupReply,
  Refusal,
  by,
  coupReply,
  currentRound,
  describe,
  find,
  readCard,
  readReason,
  readRoundNo,
  refuse,
  resolution,
  shoeIn,
} from '../../kernel';
import type { Card, NextPosition, TableEvent } from '../../vocabulary';
import { completesEarly, liveOnly, replaceCard } from './card-check';
import { correctSettledCard, settledOrPast, settledRound } from './settled-coup';

type Data = {
  readonly roundNo: number;
  readonly index: number;
  readonly card: string;
  readonly reason?: string;
};
export type CorrectCard = Command<'CorrectCard', Data>;
type Parsed = {
  readonly roundNo: number;
  readonly index: number;
  readonly card: Card;
  readonly reason: string | null;
};
type CardReply = { roundNo: number; index: number; oldCard: Card; newCard: Card; next: NextPosition };
type SettledReply = CoupReply & { correctedIndex: number; oldCard: Card; newCard: Card; reason: string };

export const correctCard: CommandSpec<'CorrectCard', Parsed, CoupReply | CardReply | SettledReply> = {
  type: 'CorrectCard',
  roles: ['supervisor'],
  fields: ['roundNo', 'index', 'card', 'reason'],
  seeds: [],
  actsForPlayer: false,
  closedTable: false,
  personal: null,
  parse(data) {
    const roundNo = readRoundNo(data['roundNo']);
    if (roundNo instanceof Refusal) return roundNo;
    const index = data['index'];
    if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) {
      return refuse('INVALID_INDEX', `index must be a whole number from 0, got ${describe(index)}`, {
        field: 'index',
      });
    }
    const card = readCard(data['card']);
    if (card instanceof Refusal) return card;
    if (data['reason'] === undefined) return { roundNo, index, card, reason: null };
    const reason = readReason(data['reason'], 'A correction');
    return reason instanceof Refusal ? reason : { roundNo, index, card, reason };
  },
  decide({ roundNo, index, card, reason }, ctx) {
    if (settledOrPast(ctx, roundNo)) {
      // the coup just settled: a correction with a reason, recorded as compensating events
      const settled = settledRound(ctx, roundNo);
      if (settled instanceof Refusal) return settled;
      if (reason === null) return readReason(undefined, 'A correction of a settled coup') as Refusal;
      return correctSettledCard(ctx, settled, index, card, reason);
    }
    const notLive = liveOnly(ctx);
    if (notLive !== null) return notLive;
    const round = currentRound(ctx, roundNo, ['dealing']);
    if (round instanceof Refusal) return round;
    const shoe = shoeIn(ctx);
    if (shoe instanceof Refusal) return shoe;
    const replaced = replaceCard(
      shoe,
      round.cards.map((c) => c.card),
      index,
      card,
    );
    if (replaced instanceof Refusal) return replaced;
    const { oldCard, corrected } = replaced;
    const early = completesEarly(corrected);
    if (early !== null) {
      return refuse(
        'CORRECTION_CONFLICT',
        `With ${card} as card ${index} the coup is complete after ${early} cards, but ${corrected.length} were dealt: void the round instead`,
        { index, card, cardsNeeded: early, cardsDealt: corrected.length },
      );
    }
    const next = nextFor(corrected);
    const events: TableEvent[] = [
      { type: 'CardCorrected', data: { roundNo, index, oldCard, newCard: card, next, ...by(ctx) } },
    ];
    if (next.to === 'complete' && ctx.rules.confirmResult !== true) {
      events.push(...resolution(ctx, shoe, round, resolveCoup(corrected)).events);
    }
    return events;
  },
  reply(events) {
    const settled = find(events, 'SettledCoupCorrected');
    if (settled) {
      return {
        roundNo: settled.roundNo,
        playerCards: settled.playerCards,
        bankerCards: settled.bankerCards,
        playerTotal: settled.playerTotal,
        bankerTotal: settled.bankerTotal,
        outcome: settled.outcome,
        natural: settled.natural,
        settlements: settled.settlements,
        shoeEnded: null,
        nextShoe: null,
        nextRound: null,
        correctedIndex: settled.index,
        oldCard: settled.oldCard,
        newCard: settled.newCard,
        reason: settled.reason,
      };
    }
    const coup = coupReply(events);
    if (coup) return coup;
    const d = find(events, 'CardCorrected');
    return d && { roundNo: d.roundNo, index: d.index, oldCard: d.oldCard, newCard: d.newCard, next: d.next };
  },
};
