/**
 * Corrections of the coup just settled (a supervisor, with a reason), until the next round's betting opens or the
 * table's `correctionSeconds` pass: a mis-entered card put right, or the coup voided. Recorded as compensating
 * events that hold the reversed settlement and the new one; nothing recorded is changed.
 */
import { resolveCoup } from '@coup/engine';
import { nextFor, settleRound } from '../../coup';
import { type OpenCtx, Refusal, by, refuse } from '../../kernel';
import { completesEarly, liveOnly, replaceCard } from './card-check';
import type { RoundState } from '../../state';
import {
  type Card,
  type Returned,
  type Settlement,
  type SpotAmounts,
  type TableEvent,
  addStake,
  totalOf,
} from '../../vocabulary';

/** Whether a correction or void of `roundNo` is one of a settled coup: the one just settled, or an earlier round. */
export function settledOrPast(ctx: OpenCtx, roundNo: number): boolean {
  const round = ctx.state.round;
  return (round?.roundNo === roundNo && round.status === 'resolved') || roundNo < ctx.state.roundNo;
}

/** The round whose coup was settled and may still be corrected, or why not. */
export function settledRound(ctx: OpenCtx, roundNo: number): RoundState | Refusal {
  const round = ctx.state.round;
  if (round === null || round.roundNo !== roundNo || round.status !== 'resolved' || round.result === null) {
    return refuse(
      'CORRECTION_WINDOW_CLOSED',
      `Round ${roundNo} is not the coup just settled: a settled coup is corrected only until the next round's betting opens`,
      { roundNo, currentRoundNo: ctx.state.roundNo },
    );
  }
  const seconds = ctx.rules.correctionSeconds;
  if (seconds !== undefined && ctx.atMs > Date.parse(round.result.at) + seconds * 1000) {
    return refuse(
      'CORRECTION_WINDOW_CLOSED',
      `The ${seconds} seconds to correct round ${roundNo} after it settled have passed`,
      { roundNo, correctionSeconds: seconds, settledAt: round.result.at },
    );
  }
  return round;
}

/** Each player's stakes in a settled coup, from its settlements (in player id order). */
function stakesOf(settlements: readonly Settlement[]): { playerId: string; bets: SpotAmounts }[] {
  const byPlayer = new Map<string, SpotAmounts>();
  for (const s of settlements) {
    byPlayer.set(
      s.playerId,
      addStake(byPlayer.get(s.playerId) ?? { player: 0, banker: 0, tie: 0 }, s.spot, s.amount),
    );
  }
  return [...byPlayer].map(([playerId, bets]) => ({ playerId, bets }));
}

/**
 * Refused unless every player of the coup is still seated and can give back what the correction takes (a player
 * who cashed out since, or moved the chips, keeps the coup as it was settled: CORRECTION_CONFLICT).
 */
function chipsAllow(ctx: OpenCtx, change: ReadonlyMap<string, number>): Refusal | null {
  const short: string[] = [];
  for (const [playerId, delta] of change) {
    const p = ctx.state.players.find((x) => x.playerId === playerId);
    if (p === undefined || p.chips + delta < 0) short.push(playerId);
  }
  return short.length === 0
    ? null
    : refuse(
        'CORRECTION_CONFLICT',
        `The correction takes back chips that ${short.join(', ')} no longer hold at this table (cashed out since)`,
        { players: short },
      );
}

function paidBy(settlements: readonly Settlement[]): Map<string, number> {
  const paid = new Map<string, number>();
  for (const s of settlements) paid.set(s.playerId, (paid.get(s.playerId) ?? 0) + s.paid);
  return paid;
}

/** The coup's cards with card `index` replaced, checked: live, dealt, in the shoe, using exactly the cards dealt. */
function correctedCards(ctx: OpenCtx, round: RoundState, index: number, card: Card): Card[] | Refusal {
  const notLive = liveOnly(ctx);
  if (notLive !== null) return notLive;
  const replaced = replaceCard(
    ctx,
    round.cards.map((c) => c.card),
    index,
    card,
  );
  if (replaced instanceof Refusal) return replaced;
  const { corrected } = replaced;
  if (nextFor(corrected).to !== 'complete' || completesEarly(corrected) !== null) {
    return refuse(
      'CORRECTION_CONFLICT',
      `With ${card} as card ${index} the coup would not use exactly the ${corrected.length} cards dealt: void it instead`,
      { index, card, cardsDealt: corrected.length },
    );
  }
  return corrected;
}

/** CorrectCard on the coup just settled: the card replaced, the coup resolved again and settled anew. */
export function correctSettledCard(
  ctx: OpenCtx,
  round: RoundState,
  index: number,
  card: Card,
  reason: string,
): TableEvent[] | Refusal {
  const corrected = correctedCards(ctx, round, index, card);
  if (corrected instanceof Refusal) return corrected;
  const oldCard = round.cards[index]?.card ?? card;
  const reversed = round.result?.settlements ?? [];
  const result = resolveCoup(corrected);
  const settlements = settleRound(stakesOf(reversed), result, ctx.rules);
  const before = paidBy(reversed);
  const after = paidBy(settlements);
  const change = new Map([...before].map(([id, paid]) => [id, (after.get(id) ?? 0) - paid]));
  const refused = chipsAllow(ctx, change);
  if (refused) return refused;
  return [
    {
      type: 'SettledCoupCorrected',
      data: {
        roundNo: round.roundNo,
        shoeNo: round.shoeNo,
        index,
        oldCard,
        newCard: card,
        reason,
        reversed,
        ...result,
        commissionMode: ctx.rules.commission,
        settlements,
        ...by(ctx),
      },
    },
  ];
}

/** VoidRound on the coup just settled: its settlement reversed, every stake returned. */
export function voidSettledCoup(ctx: OpenCtx, round: RoundState, reason: string): TableEvent[] | Refusal {
  const reversed = round.result?.settlements ?? [];
  const stakes = stakesOf(reversed);
  const returned: Returned[] = stakes.map(({ playerId, bets }) => ({ playerId, amount: totalOf(bets) }));
  const paid = paidBy(reversed);
  const change = new Map(returned.map((r) => [r.playerId, r.amount - (paid.get(r.playerId) ?? 0)]));
  const refused = chipsAllow(ctx, change);
  if (refused) return refused;
  return [
    {
      type: 'SettledCoupVoided',
      data: { roundNo: round.roundNo, shoeNo: round.shoeNo, reason, reversed, returned, ...by(ctx) },
    },
  ];
}
