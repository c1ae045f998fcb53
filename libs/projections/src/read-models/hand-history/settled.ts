/**
 * The hand history's coup last settled (`SettledHand`, until the next betting opens): kept at its CoupResolved,
 * amended by a correction or void after it settled (its row updated in place, its players' rows rewritten, its
 * span extended to the amending event); and the pieces of a hand's ending shared with the other handlers.
 */
import { type CoupResult, fullShoeCounts, nextPosition } from '@coup/engine';
import type { Card, Returned, Slot } from '@coup/table';
import type { DataOf, Step } from './handlers';
import { type Ending, amendedRows, shoeRow } from './rows';
import { type OpenHand, type SettledHand, endAt } from './state';
import type { Amendment, SettledResult } from './wire';

const ONE_DECK = fullShoeCounts(1);

/** Where each card of a coup goes, from the sequence (a correction may move a third card). */
export function placesOf(cards: readonly Card[]): { to: 'player' | 'banker'; slot: Slot }[] {
  return cards.map((_, i) => {
    const next = nextPosition({ cards: cards.slice(0, i), remaining: ONE_DECK });
    return next.to === 'complete' ? { to: 'banker', slot: 'banker3' } : { to: next.to, slot: next.slot };
  });
}

/** A coup's result as the hand records it. */
export const resultOf = (d: CoupResult) => ({
  outcome: d.outcome,
  natural: d.natural,
  playerCards: [...d.playerCards],
  bankerCards: [...d.bankerCards],
  playerTotal: d.playerTotal,
  bankerTotal: d.bankerTotal,
});

/** A hand voided, before its coup settled or after: no result, every stake returned, who and why. */
export const voidedEnding = (d: {
  readonly at: string;
  readonly reason: string;
  readonly by: string;
  readonly returned: readonly Returned[];
}): Ending => ({
  status: 'voided',
  at: d.at,
  outcome: null,
  natural: null,
  playerCards: null,
  bankerCards: null,
  playerTotal: null,
  bankerTotal: null,
  settlements: [],
  commissionMode: null,
  void: { reason: d.reason, by: d.by, returned: d.returned },
});

/** The coup's result as settled: `resultOf` and more fields set on it (a spread of it with them is slow in V8). */
function originalOf(d: DataOf<'CoupResolved'>, position: number): SettledResult {
  const original: Record<string, unknown> = resultOf(d);
  original['settlements'] = [...d.settlements];
  original['at'] = d.at;
  original['by'] = d.by;
  original['position'] = position;
  return original as unknown as SettledResult;
}

/** The coup of `hand` just settled (`d`, ending as `ending`), kept for a correction or void until the next betting. */
export function settledHand(
  hand: OpenHand,
  d: DataOf<'CoupResolved'>,
  ending: Ending,
  stakes: ReadonlyMap<string, number>,
  position: number,
): SettledHand {
  return {
    roundNo: hand.roundNo,
    shoeNo: hand.shoeNo,
    firstRevision: hand.firstRevision,
    stakes: [...stakes],
    cards: hand.cards,
    ending,
    original: originalOf(d, position),
    amendments: [],
    shoe: null,
  };
}

/**
 * The settled coup `roundNo` amended by the event being folded: its state and rows follow, its span now ends at
 * this event (the events since its coup resolved included).
 */
function amend(x: Step, settled: SettledHand, ending: Ending, amendment: Amendment, cards = settled.cards) {
  const next: SettledHand = {
    ...settled,
    cards,
    ending,
    amendments: [...settled.amendments, amendment],
  };
  x.settled = next;
  const end = endAt(x.e, x.e.revision - settled.firstRevision + 1);
  x.writes.push(...amendedRows(x.s.tableId, next, end));
}

/** What every amendment records: the settlement it reversed, why, when, who, and its event's position. */
const amendedBy = (x: Step, d: DataOf<'SettledCoupCorrected'> | DataOf<'SettledCoupVoided'>) => ({
  reversed: [...d.reversed],
  reason: d.reason,
  at: d.at,
  by: d.by,
  role: d.role,
  position: x.e.position,
});

const settledOf = (x: Step, roundNo: number): SettledHand | null =>
  x.settled !== null && x.settled.roundNo === roundNo && x.settled.ending.status === 'resolved'
    ? x.settled
    : null;

export function settledCoupCorrected(x: Step, d: DataOf<'SettledCoupCorrected'>): void {
  const settled = settledOf(x, d.roundNo);
  if (settled === null) return;
  const corrected = settled.cards.map((c, i) => (i === d.index ? d.newCard : c.card));
  const placed = placesOf(corrected);
  const cards = settled.cards.map((c, i) => ({
    ...c,
    ...placed[i],
    ...(i === d.index ? { card: d.newCard, correctedFrom: c.correctedFrom ?? d.oldCard } : {}),
  }));
  const result = resultOf(d);
  const ending: Ending = {
    ...settled.ending,
    ...result,
    settlements: d.settlements,
    commissionMode: d.commissionMode,
  };
  amend(
    x,
    settled,
    ending,
    {
      kind: 'correction',
      index: d.index,
      oldCard: d.oldCard,
      newCard: d.newCard,
      ...result,
      settlements: [...d.settlements],
      ...amendedBy(x, d),
    },
    cards,
  );
}

export function settledCoupVoided(x: Step, d: DataOf<'SettledCoupVoided'>): void {
  const settled = settledOf(x, d.roundNo);
  if (settled === null) return;
  amend(x, settled, voidedEnding(d), {
    kind: 'void',
    returned: [...d.returned],
    ...amendedBy(x, d),
  });
  // the coup no longer counts in its shoe: a void instead
  const shoe =
    x.shoe !== null && x.shoe.shoeNo === settled.shoeNo
      ? x.shoe
      : settled.shoe !== null && settled.shoe.shoeNo === settled.shoeNo
        ? settled.shoe
        : null;
  if (shoe === null) return;
  const counted = { ...shoe, coups: Math.max(0, shoe.coups - 1), voids: shoe.voids + 1 };
  if (shoe === x.shoe) x.shoe = counted;
  else if (x.settled !== null) x.settled = { ...x.settled, shoe: counted };
  x.writes.push(shoeRow(x.s.tableId, counted));
}
