/**
 * The events several commands make: a shoe starts (StartShoe, OpenBetting, Deal), betting opens (OpenBetting,
 * Deal), a shoe ends (CloseTable, VoidRound, EndShoe, a coup), a coup resolves (Deal, DealCard, CorrectCard).
 */
import { type Card, type CoupResult, burnCount, commitment, seedFromHex, shuffleShoe } from '@coup/engine';
import { afterCoup, settleRound } from '../coup';
import { type RoundState, type ShoeState, stakesOnLayout } from '../state';
import type { ShoeEndReason, TableEvent } from '../vocabulary';
import { type Ctx, type OpenCtx, by, isoPlus } from './context';

export function shoeStarted(ctx: OpenCtx, source: { seed: string } | { firstCard: Card }): TableEvent {
  const rules = ctx.rules;
  const length = rules.decks * 52;
  const everyCoup = rules.shuffle === 'every-coup';
  let seed: string | null = null;
  let commit: string | null = null;
  let burnCard: Card | null = null;
  if ('seed' in source) {
    seed = source.seed;
    const bytes = seedFromHex(seed);
    commit = commitment(bytes);
    if (!everyCoup) burnCard = shuffleShoe(rules.decks, bytes)[0] ?? null;
  } else {
    burnCard = source.firstCard;
  }
  const burned = burnCard === null ? 0 : burnCount(burnCard);
  return {
    type: 'ShoeStarted',
    data: {
      shoeNo: ctx.state.shoeNo + 1,
      dealing: rules.dealing,
      shuffle: rules.shuffle,
      decks: rules.decks,
      length,
      commitment: commit,
      seed,
      burnCard,
      burnCount: burned,
      firstCoupIndex: burnCard === null ? 0 : 1 + burned,
      cutCard: everyCoup ? null : rules.cutCard,
      ...by(ctx),
    },
  };
}

export function bettingOpened(ctx: OpenCtx, roundNo: number, shoeNo: number): TableEvent {
  const seconds = ctx.rules.bettingSeconds;
  return {
    type: 'BettingOpened',
    data: { roundNo, shoeNo, deadline: seconds === null ? null : isoPlus(ctx.atMs, seconds), ...by(ctx) },
  };
}

export function shoeEnded(ctx: Ctx, shoe: ShoeState, reason: ShoeEndReason): TableEvent {
  return {
    type: 'ShoeEnded',
    data: { shoeNo: shoe.shoeNo, seed: shoe.seed, reason, coups: shoe.coups, ...by(ctx) },
  };
}

/**
 * The events that finish a coup: CoupResolved with every bet settled, then ShoeEnded if this coup ends the shoe.
 * Returns them and whether the shoe ended.
 */
export function resolution(
  ctx: OpenCtx,
  shoe: ShoeState,
  round: RoundState,
  result: CoupResult,
): { events: TableEvent[]; ended: boolean } {
  const events: TableEvent[] = [
    {
      type: 'CoupResolved',
      data: {
        roundNo: round.roundNo,
        shoeNo: shoe.shoeNo,
        playerCards: result.playerCards,
        bankerCards: result.bankerCards,
        playerTotal: result.playerTotal,
        bankerTotal: result.bankerTotal,
        outcome: result.outcome,
        natural: result.natural,
        cardsUsed: result.cardsUsed,
        commissionMode: ctx.rules.commission,
        settlements: settleRound(stakesOnLayout(ctx.state), result, ctx.rules),
        ...by(ctx),
      },
    },
  ];
  let reason: ShoeEndReason | null = null;
  if (shoe.everyCoup) reason = 'every-coup';
  else if (shoe.progress !== null && afterCoup(shoe.progress, result.cardsUsed).ended) {
    // the one more coup after the cut card, or (only after voided live coups) the shoe ran out of cards
    reason = shoe.progress.coupsLeft === 1 ? 'cut-card' : 'exhausted';
  }
  if (reason !== null) {
    events.push({
      type: 'ShoeEnded',
      data: { shoeNo: shoe.shoeNo, seed: shoe.seed, reason, coups: shoe.coups + 1, ...by(ctx) },
    });
  }
  return { events, ended: reason !== null };
}
