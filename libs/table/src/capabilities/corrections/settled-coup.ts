/**
 * Corrections of the coup just settled (a supervisor, with a reason), until the next round's betting opens or the
 * table's `correctionSeconds` pass: a mis-entered card put right, or the coup voided. Recorded as compensating
 * events that hold the reversed settlement and the new one; nothing recorded is changed.
 */
import { resolveCoup } from '@coup/engine';
import { nextFor, settleRound } from '../../coup';
import { type OpenCtx, Refusal, by, refuse } from '../../kernel';
import { completesEarly, liveOnly, replaceCard } from './card-check';
import { type RoundState, type ShoeRecord, playerOf } from '../../state';
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

/** How a correction or void moves one player's money: its chips, and its box commission owed. */
interface Move {
  chips: number;
  owed: number;
}

/**
 * Each player's move from the settlement `reversed` to the new `settlements` (or to the `returned` stakes); the
 * commission owed moves on box-commission tables only (elsewhere it was deducted from what was paid).
 */
function movesOf(
  ctx: OpenCtx,
  reversed: readonly Settlement[],
  after: { readonly settlements: readonly Settlement[] } | { readonly returned: readonly Returned[] },
): Map<string, Move> {
  const moves = new Map<string, Move>();
  const box = ctx.rules.commission === 'box';
  const add = (playerId: string, chips: number, owed: number) => {
    const m = moves.get(playerId) ?? { chips: 0, owed: 0 };
    moves.set(playerId, { chips: m.chips + chips, owed: m.owed + (box ? owed : 0) });
  };
  for (const s of reversed) add(s.playerId, -s.paid, -s.commission);
  if ('settlements' in after) for (const s of after.settlements) add(s.playerId, s.paid, s.commission);
  else for (const r of after.returned) add(r.playerId, r.amount, 0);
  return moves;
}

/**
 * Refused when the correction moves the money of a player who cashed out since the coup settled (it keeps the
 * coup as it was settled: the chips it took away are no longer the table's to take back or add to), or of one
 * whose chips or commission owed would go below zero: CORRECTION_CONFLICT, naming them. A player whose
 * settlement comes out the same is not moved, and does not stop the correction.
 */
function chipsAllow(ctx: OpenCtx, round: RoundState, moves: ReadonlyMap<string, Move>): Refusal | null {
  const left = new Set(round.cashedOut ?? []);
  const short: string[] = [];
  for (const [playerId, move] of moves) {
    if (move.chips === 0 && move.owed === 0) continue;
    const p = playerOf(ctx.state, playerId);
    if (p === undefined || left.has(playerId) || p.chips + move.chips < 0 || p.commissionOwed + move.owed < 0)
      short.push(playerId);
  }
  return short.length === 0
    ? null
    : refuse(
        'CORRECTION_CONFLICT',
        `The correction moves money of ${short.join(', ')}, who cashed out since round ${round.roundNo} settled: a player who left keeps the coup as it was settled`,
        { players: short, roundNo: round.roundNo },
      );
}

/**
 * The settled coup's own shoe, what a correction is checked against: the current shoe (in progress or ended), or
 * the record kept when another shoe started.
 */
function coupShoe(ctx: OpenCtx, round: RoundState): ShoeRecord | Refusal {
  const shoe = ctx.state.shoe;
  if (shoe !== null && shoe.shoeNo === round.shoeNo) return shoe;
  if (round.ownShoe?.shoeNo === round.shoeNo) return round.ownShoe;
  return refuse(
    'CORRECTION_WINDOW_CLOSED',
    `Shoe ${round.shoeNo}, which round ${round.roundNo} was dealt from, is no longer kept`,
    { roundNo: round.roundNo, shoeNo: round.shoeNo },
  );
}

/** The coup's cards with card `index` replaced, checked: live, dealt, in the shoe, using exactly the cards dealt. */
function correctedCards(ctx: OpenCtx, round: RoundState, index: number, card: Card): Card[] | Refusal {
  const notLive = liveOnly(ctx);
  if (notLive !== null) return notLive;
  const shoe = coupShoe(ctx, round);
  if (shoe instanceof Refusal) return shoe;
  const replaced = replaceCard(
    shoe,
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
  const refused = chipsAllow(ctx, round, movesOf(ctx, reversed, { settlements }));
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
  const refused = chipsAllow(ctx, round, movesOf(ctx, reversed, { returned }));
  if (refused) return refused;
  return [
    {
      type: 'SettledCoupVoided',
      data: { roundNo: round.roundNo, shoeNo: round.shoeNo, reason, reversed, returned, ...by(ctx) },
    },
  ];
}
