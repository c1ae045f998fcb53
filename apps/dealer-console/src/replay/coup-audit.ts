/**
 * A replayed hand's coup, checked and explained. The result in force (the hand's `CoupResolved`, or its last
 * `SettledCoupCorrected` when a supervisor corrected a card after the coup settled) is re-resolved by
 * `@coup/engine`'s `resolveCoup` from the hand's cards; a coup put right after it settled has an audit trail: the
 * original result, each correction and a void, with who, when, why and the money moved. Pure: no DOM, no clock.
 */
import { type Card, type CoupResult, resolveCoup } from '@coup/engine';
import type { CoupSummary, EventData, Settlement } from '@coup/table';
import type { FoldedReplay, FoldedStep } from './fold';

export type CoupFieldName =
  'playerCards' | 'bankerCards' | 'playerTotal' | 'bankerTotal' | 'outcome' | 'natural' | 'cardsUsed';

/** A field of the coup: as recorded by the service (the result in force), and as the engine resolves the cards. */
export interface CoupField {
  readonly name: CoupFieldName;
  readonly recorded: string;
  readonly engine: string;
  readonly same: boolean;
}

export type Recheck =
  /** No result yet (betting or dealing when the replay was read). */
  | { readonly kind: 'unfinished' }
  /** Voided, before it settled or after (`afterSettling`): nothing in force to compare. */
  | { readonly kind: 'voided'; readonly reason: string; readonly by: string; readonly afterSettling: boolean }
  | { readonly kind: 'error'; readonly message: string }
  | {
      readonly kind: 'checked';
      readonly same: boolean;
      readonly fields: readonly CoupField[];
      readonly engine: CoupResult;
      /** The result in force is a correction made after the coup settled (not the first CoupResolved). */
      readonly corrected: boolean;
    };

/** The result fields a CoupResolved or a SettledCoupCorrected records. */
type Recorded = Pick<
  EventData<'CoupResolved'>,
  'playerCards' | 'bankerCards' | 'playerTotal' | 'bankerTotal' | 'outcome' | 'natural' | 'settlements'
> & { readonly cardsUsed?: number };

const RESULT_EVENTS: readonly string[] = ['CoupResolved', 'SettledCoupCorrected'];

/** The hand's cards in dealing order at a step (0: before the hand). */
function cardsAt(folded: FoldedReplay, step: number): Card[] {
  const view = step === 0 ? folded.before : (folded.steps[step - 1]?.view ?? folded.before);
  return (view.round?.cards ?? []).map((c) => c.card);
}

const text = (v: unknown): string => (Array.isArray(v) ? v.join(' ') : String(v));

/** The recorded result beside the engine's, field by field. */
function compare(recorded: Recorded, engine: CoupResult): CoupField[] {
  const field = (name: CoupFieldName): CoupField => {
    const a = text(recorded[name]);
    const b = text(engine[name]);
    return { name, recorded: a, engine: b, same: a === b };
  };
  const names: CoupFieldName[] = ['playerCards', 'bankerCards', 'playerTotal', 'bankerTotal', 'outcome'];
  return [
    ...names,
    'natural' as const,
    ...(recorded.cardsUsed === undefined ? [] : ['cardsUsed' as const]),
  ].map(field);
}

/** Whether the engine resolves `cards` to exactly `recorded` (false when it cannot resolve them). */
function agrees(recorded: Recorded, cards: readonly Card[]): boolean {
  try {
    return compare(recorded, resolveCoup(cards)).every((f) => f.same);
  } catch {
    return false;
  }
}

/**
 * The result in force re-resolved by the engine from the hand's last cards, field by field; a voided hand, or one
 * not finished, has nothing in force to compare.
 */
export function recheckCoup(folded: FoldedReplay): Recheck {
  const round = (folded.steps.at(-1)?.view ?? folded.before).round;
  const amended = folded.steps.some((s) => s.event.type === 'SettledCoupVoided');
  if (round?.status === 'voided' && round.voided)
    return { kind: 'voided', reason: round.voided.reason, by: round.voided.by, afterSettling: amended };
  const inForce = folded.steps.findLast((s) => RESULT_EVENTS.includes(s.event.type));
  if (!round || !inForce) return { kind: 'unfinished' };
  let engine: CoupResult;
  try {
    engine = resolveCoup(round.cards.map((c) => c.card));
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  const fields = compare(inForce.event.data as Recorded, engine);
  return {
    kind: 'checked',
    same: fields.every((f) => f.same),
    fields,
    engine,
    corrected: inForce.event.type === 'SettledCoupCorrected',
  };
}

/** A result recorded in the hand, as the audit trail shows it. */
export interface AuditResult extends Pick<
  CoupSummary,
  'outcome' | 'natural' | 'playerTotal' | 'bankerTotal' | 'playerCards' | 'bankerCards'
> {
  /** What its settlement paid players, in cents (stakes returned included). */
  readonly paid: number;
  /** The engine resolves the hand's cards at that step to exactly this result. */
  readonly matchesCards: boolean;
}

interface Amending {
  /** The replay step of the event (1-based). */
  readonly step: number;
  readonly at: string;
  readonly by: string;
  readonly role: string;
  readonly reason: string;
  /** What the settlement it reversed had paid, in cents. */
  readonly reversedPaid: number;
}

export type AuditEntry =
  | { readonly kind: 'original'; readonly step: number; readonly at: string; readonly result: AuditResult }
  | (Amending & {
      readonly kind: 'correction';
      /** 0-based position of the card in the hand's dealing order. */
      readonly index: number;
      readonly oldCard: Card;
      readonly newCard: Card;
      readonly result: AuditResult;
    })
  | (Amending & { readonly kind: 'void'; readonly returned: number });

const paidBy = (settlements: readonly Settlement[]): number => settlements.reduce((n, s) => n + s.paid, 0);

function resultOf(recorded: Recorded, cards: readonly Card[]): AuditResult {
  const { outcome, natural, playerTotal, bankerTotal, playerCards, bankerCards } = recorded;
  return {
    outcome,
    natural,
    playerTotal,
    bankerTotal,
    playerCards,
    bankerCards,
    paid: paidBy(recorded.settlements),
    matchesCards: agrees(recorded, cards),
  };
}

function entryOf(folded: FoldedReplay, s: FoldedStep): AuditEntry | null {
  const step = s.index;
  switch (s.event.type) {
    case 'CoupResolved': {
      const d = s.event.data as EventData<'CoupResolved'>;
      return { kind: 'original', step, at: d.at, result: resultOf(d, cardsAt(folded, step)) };
    }
    case 'SettledCoupCorrected': {
      const d = s.event.data as EventData<'SettledCoupCorrected'>;
      const { at, by, role, reason, index, oldCard, newCard } = d;
      const amending = { step, at, by, role, reason, reversedPaid: paidBy(d.reversed) };
      return {
        ...amending,
        kind: 'correction',
        index,
        oldCard,
        newCard,
        result: resultOf(d, cardsAt(folded, step)),
      };
    }
    case 'SettledCoupVoided': {
      const d = s.event.data as EventData<'SettledCoupVoided'>;
      const { at, by, role, reason } = d;
      const returned = d.returned.reduce((n, r) => n + r.amount, 0);
      return { step, at, by, role, reason, reversedPaid: paidBy(d.reversed), kind: 'void', returned };
    }
    default:
      return null;
  }
}

/**
 * The coup's audit trail after it settled: its original result, then each correction and a void in the order
 * recorded. Empty when the coup was never put right after it settled (the hand's events say all).
 */
export function auditTrail(folded: FoldedReplay): AuditEntry[] {
  const entries = folded.steps.map((s) => entryOf(folded, s)).filter((e) => e !== null);
  return entries.some((e) => e.kind !== 'original') ? entries : [];
}
