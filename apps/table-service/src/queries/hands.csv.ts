/** The CSV forms of the hand-history answers (`Accept: text/csv`): one module per answer shape, no I/O. */
import type { HandRecord, HandReplay, HandSummary, HandVerification, RoadsView } from '@coup/projections';
import { type Cell, columns, toCsv } from './csv';

const HAND_COLUMNS = columns<HandSummary>([
  'tableId',
  'roundNo',
  'shoeNo',
  'status',
  'openedAt',
  'resolvedAt',
  'outcome',
  'natural',
  'playerTotal',
  'bankerTotal',
  'betCount',
  'totalStaked',
  'totalPaid',
  'commission',
  'houseResult',
  'dealer',
  'voidReason',
]).concat([
  { name: 'playerCards', value: (h) => h.playerCards.join(' ') },
  { name: 'bankerCards', value: (h) => h.bankerCards.join(' ') },
  { name: 'players', value: (h) => h.players.join(' ') },
]);

/** A page of the hand history: one line per hand. */
export function handsCsv(items: readonly HandSummary[]): string {
  return toCsv(HAND_COLUMNS, items);
}

/** One line of a hand's audit trail. */
interface AuditLine {
  position: number;
  at: string;
  kind: string;
  playerId: Cell;
  spot: Cell;
  amount: Cell;
  card: Cell;
  detail: Cell;
  by: Cell;
  role: Cell;
}

const AUDIT_COLUMNS = columns<AuditLine>([
  'position',
  'at',
  'kind',
  'playerId',
  'spot',
  'amount',
  'card',
  'detail',
  'by',
  'role',
]);

/** What happened during the hand, as recorded: bets and clears, cards, corrections. */
function recordedLines(hand: HandRecord): AuditLine[] {
  return [
    ...hand.bets.map((b) => ({
      position: b.position,
      at: b.at,
      kind: b.kind,
      playerId: b.playerId,
      spot: b.spot,
      amount: b.amount,
      card: null,
      detail:
        [b.rebet ? 'rebet' : null, b.paytable ? `paytable ${b.paytable}` : null].filter(Boolean).join(' ') ||
        null,
      by: b.by,
      role: b.role,
    })),
    ...hand.cards.map((c) => ({
      position: c.position,
      at: c.at,
      kind: 'card',
      playerId: null,
      spot: c.to,
      amount: null,
      card: c.card,
      detail: `${c.slot} shoe position ${c.shoePosition}${c.correctedFrom ? ` (entered as ${c.correctedFrom})` : ''}`,
      by: c.by,
      role: c.role,
    })),
    ...hand.corrections.map((c) => ({
      position: c.position,
      at: c.at,
      kind: 'correction',
      playerId: null,
      spot: null,
      amount: null,
      card: c.newCard,
      detail: `card ${c.index}: ${c.oldCard} -> ${c.newCard}`,
      by: c.by,
      role: c.role,
    })),
  ];
}

/** Settlements (or their reversal) as audit lines, at the event that made them, with who and why. */
function settlementLines(
  settlements: HandRecord['settlements'],
  at: { position: number; at: string; by: string | null; role: string | null; reason?: string },
  kind: 'settlement' | 'reversal',
): AuditLine[] {
  return settlements.map((s) => ({
    position: at.position,
    at: at.at,
    kind,
    playerId: s.playerId,
    spot: s.spot,
    amount: s.paid,
    card: null,
    detail:
      `${s.result} stake ${s.amount} commission ${s.commission}${s.paytable ? ` paytable ${s.paytable}` : ''}` +
      (at.reason === undefined ? '' : `: ${at.reason}`),
    by: at.by,
    role: at.role,
  }));
}

/** Stakes returned by a void as audit lines. */
function returnLines(
  returned: readonly { playerId: string; amount: number }[],
  at: { position: number; at: string; by: string | null; role: string | null; reason: string | null },
): AuditLine[] {
  return returned.map((r) => ({
    position: at.position,
    at: at.at,
    kind: 'void-return',
    playerId: r.playerId,
    spot: null,
    amount: r.amount,
    card: null,
    detail: at.reason,
    by: at.by,
    role: at.role,
  }));
}

/**
 * How the hand ended: settlements, or the stakes a void returned, at its last event. A coup corrected or voided
 * after it settled: its settlements as first made (at its CoupResolved), then each amendment at its own event
 * (the settlement reversed, the card corrected and the new settlements, or the stakes returned), with who and why.
 */
function closingLines(hand: HandRecord): AuditLine[] {
  const original = hand.original;
  if (original === null) {
    const at = hand.resolvedAt ?? '';
    return [
      ...settlementLines(
        hand.settlements,
        { position: hand.span.lastPosition, at, by: null, role: null },
        'settlement',
      ),
      ...returnLines(hand.returned ?? [], {
        position: hand.span.lastPosition,
        at,
        by: hand.voidedBy,
        role: null,
        reason: hand.voidReason,
      }),
    ];
  }
  const lines = settlementLines(original.settlements, { ...original, by: null, role: null }, 'settlement');
  for (const a of hand.amendments) {
    lines.push(...settlementLines(a.reversed, a, 'reversal'));
    if (a.kind === 'void') {
      lines.push(...returnLines(a.returned, a));
      continue;
    }
    lines.push(
      {
        position: a.position,
        at: a.at,
        kind: 'correction',
        playerId: null,
        spot: null,
        amount: null,
        card: a.newCard,
        detail: `card ${a.index}: ${a.oldCard} -> ${a.newCard} after the coup settled: ${a.reason}`,
        by: a.by,
        role: a.role,
      },
      ...settlementLines(a.settlements, a, 'settlement'),
    );
  }
  return lines;
}

/**
 * One hand's audit trail: one line per bet, clear, card, correction, settlement, reversal or returned stake, in
 * log order.
 */
export function handAuditCsv(hand: HandRecord): string {
  const lines = [...recordedLines(hand), ...closingLines(hand)].sort((a, b) => a.position - b.position);
  return toCsv(AUDIT_COLUMNS, lines);
}

/** A hand's replay: one line per event, with the table's phase, cards and outcome after it. */
export function replayCsv(replay: HandReplay): string {
  return toCsv(
    [
      { name: 'revision', value: (s) => s.event.revision },
      { name: 'position', value: (s) => s.event.position },
      { name: 'type', value: (s) => s.event.type },
      { name: 'recordedAt', value: (s) => s.event.recordedAt },
      { name: 'actor', value: (s) => s.event.actor },
      { name: 'phase', value: (s) => s.view.phase },
      { name: 'cards', value: (s) => s.view.round?.cards.map((c) => c.card).join(' ') ?? '' },
      { name: 'outcome', value: (s) => s.view.round?.result?.outcome ?? null },
      { name: 'data', value: (s) => JSON.stringify(s.event.data) },
      { name: 'hash', value: (s) => s.event.hash },
    ],
    replay.steps,
  );
}

/** A hand's verification: one line per check. */
export function verifyCsv(verification: HandVerification): string {
  return toCsv(
    [
      { name: 'check', value: (c) => c.name },
      { name: 'status', value: (c) => c.status },
      { name: 'detail', value: (c) => c.detail },
      { name: 'eventRevision', value: (c) => c.event?.revision },
      { name: 'eventPosition', value: (c) => c.event?.position },
      { name: 'eventType', value: (c) => c.event?.type },
    ],
    verification.checks,
  );
}

/** A shoe's roads: one line per coup, its bead plate cell and its big road cell. */
export function roadsCsv(roads: RoadsView): string {
  const big = new Map(roads.bigRoad.map((c) => [c.roundNo, c]));
  return toCsv(
    [
      { name: 'roundNo', value: (b) => b.roundNo },
      { name: 'outcome', value: (b) => b.outcome },
      { name: 'natural', value: (b) => b.natural },
      { name: 'playerPair', value: (b) => b.playerPair },
      { name: 'bankerPair', value: (b) => b.bankerPair },
      { name: 'playerTotal', value: (b) => b.playerTotal },
      { name: 'bankerTotal', value: (b) => b.bankerTotal },
      { name: 'beadCol', value: (b) => b.col },
      { name: 'beadRow', value: (b) => b.row },
      { name: 'bigRoadCol', value: (b) => big.get(b.roundNo)?.col },
      { name: 'bigRoadRow', value: (b) => big.get(b.roundNo)?.row },
      { name: 'tiesAfter', value: (b) => big.get(b.roundNo)?.ties },
    ],
    roads.beadPlate,
  );
}
