/**
 * Replay and verification of one hand. The hand-history index gives the hand's span in the table stream (first
 * and last revision) and the table state just before it, so a hand is read with ONE bounded `readStream` (plus,
 * on rng tables, the shoe's ShoeStarted and ShoeEnded events by revision): the cost does not grow with the
 * table's history.
 *
 * - replay: the hand's events and the table view after each, folded with @coup/table's `evolve` (the same code
 *   the service and the browser run), unrevealed seeds never shown;
 * - verify: named checks, each pass / fail / pending / skipped:
 *   `index`       the events at the indexed revisions are this hand's, at the indexed positions;
 *   `chain`       every event's hash recomputed from its contents, each prevHash linking to the event before, the
 *                 first linking to the hash the index recorded, the last equal to the indexed head;
 *   `coup`        the coup re-resolved by the engine from the recorded cards (corrections applied) equals the
 *                 recorded result, and each card went where the engine says;
 *   `settlements` each stake (folded from the hand's bets) settled with `settleBet` equals the recorded
 *                 settlement, none missing or extra; for a void, every stake returned;
 *   `commitment`  rng tables once the seed is revealed: sha256(seed) equals the commitment published at
 *                 ShoeStarted (and both shoe events' hashes check);
 *   `shuffle`     rng tables once revealed: `shuffleShoe(decks, seed)` has exactly the recorded cards at the
 *                 recorded shoe positions (and the turned card at 0).
 */
import {
  type Card,
  type Outcome,
  commitment as commitmentOf,
  fullShoeCounts,
  nextPosition,
  resolveCoup,
  seedFromHex,
  settleBet,
  shuffleShoe,
} from '@coup/engine';
import {
  type EventStore,
  type JsonValue,
  type RecordedEvent,
  canonicalJson,
  computeEventHash,
} from '@coup/event-store';
import {
  type TableEvent,
  type TableState,
  type TableView,
  evolve,
  redactEvent,
  tableView,
} from '@coup/table';
import { withoutSecrets } from '../read-models/kernel/secrets';
import type { HandRecord, ShoeRecordView } from '../read-models/hand-history/wire';
import type { ReadModels } from '../read/read-models';
import type { RawEvent, RawEventReader } from '../runner/sqlite-store';

export type ReplayErrorCode = 'UNKNOWN_HAND' | 'HAND_EVENTS_MISSING';

export class ReplayError extends Error {
  constructor(
    readonly code: ReplayErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ReplayError';
  }
}

export interface HandSource {
  readonly store: EventStore;
  readonly readModels: ReadModels;
  /**
   * The stored bytes of events (SQLite: `sqliteRawReader(file)`). With it, the chain check hashes exactly what
   * is stored (a changed byte anywhere, even whitespace, fails; upcasting cannot disturb it). Without it, each
   * event's hash is recomputed from its contents as the port returns them.
   */
  readonly raw?: RawEventReader;
}

/** An event of the hand as shown (an unrevealed seed removed). */
export interface ReplayEvent {
  readonly revision: number;
  readonly position: number;
  readonly type: string;
  readonly data: unknown;
  readonly recordedAt: string;
  readonly actor: string | null;
  readonly hash: string;
  readonly prevHash: string;
}

export interface ReplayStep {
  readonly event: ReplayEvent;
  /** The table as staff see it after this event. */
  readonly view: TableView;
}

export interface HandReplay {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly status: HandRecord['status'];
  /** The table just before the hand. */
  readonly before: TableView;
  readonly steps: ReplayStep[];
}

export type CheckStatus = 'pass' | 'fail' | 'pending' | 'skipped';

export interface Check {
  readonly name: 'index' | 'chain' | 'coup' | 'settlements' | 'commitment' | 'shuffle';
  readonly status: CheckStatus;
  readonly detail: string;
  /** The event a failure is about. */
  readonly event?: { readonly revision: number; readonly position: number; readonly type: string };
}

export interface HandVerification {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly ok: boolean;
  readonly checks: Check[];
}

const streamOf = (tableId: string): string => `table-${tableId}`;

async function readSpan(
  store: EventStore,
  stream: string,
  from: number,
  count: number,
): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const e of store.readStream(stream, { fromRevision: BigInt(from), maxCount: count }))
    out.push(e);
  return out;
}

/** The hand's index record and the stored state its replay starts from. */
function indexed(src: HandSource, tableId: string, roundNo: number): { hand: HandRecord; start: TableState } {
  const hand = src.readModels.hand(tableId, roundNo);
  const start = hand ? src.readModels.stateBefore(tableId, hand.replayFrom.roundNo) : null;
  if (!hand || !start)
    throw new ReplayError('UNKNOWN_HAND', `No hand ${roundNo} at table ${tableId} in the hand history`);
  return { hand, start };
}

const asTableEvent = (e: RecordedEvent): TableEvent =>
  ({ type: e.type, data: e.data }) as unknown as TableEvent;

function shown(e: RecordedEvent): ReplayEvent {
  const redacted = redactEvent(asTableEvent(e)) ?? asTableEvent(e);
  const actor = e.metadata.actor;
  return {
    revision: Number(e.streamRevision),
    position: Number(e.globalPosition),
    type: e.type,
    data: redacted.data,
    recordedAt: e.recordedAt,
    actor: typeof actor === 'string' ? actor : null,
    hash: e.hash,
    prevHash: e.prevHash,
  };
}

/**
 * The hand's events and the table view after each: folded from the nearest stored state (at most 10 hands
 * back), reading only the events from there to the hand's last.
 */
export async function replayHand(src: HandSource, tableId: string, roundNo: number): Promise<HandReplay> {
  const { hand, start } = indexed(src, tableId, roundNo);
  const from = hand.replayFrom.revision;
  const count = hand.span.lastRevision - from + 1;
  const events = await readSpan(src.store, streamOf(tableId), from, count);
  if (events.length !== count) {
    throw new ReplayError(
      'HAND_EVENTS_MISSING',
      `Hand ${roundNo} at table ${tableId} needs revisions ${from}-${hand.span.lastRevision}, but the store has ${events.length} of those ${count} events`,
    );
  }
  let state = start;
  let before = start;
  const steps: ReplayStep[] = [];
  for (const e of events) {
    const inHand = Number(e.streamRevision) >= hand.span.firstRevision;
    if (inHand && steps.length === 0) before = state;
    state = withoutSecrets(evolve(state, asTableEvent(e)));
    if (inHand) steps.push({ event: shown(e), view: tableView(state) });
  }
  return { tableId, roundNo, shoeNo: hand.shoeNo, status: hand.status, before: tableView(before), steps };
}

// ---------------------------------------------------------------------------------------------------------------
// verification

const ref = (e: RecordedEvent) => ({
  revision: Number(e.streamRevision),
  position: Number(e.globalPosition),
  type: e.type,
});

function recompute(e: RecordedEvent): string {
  return computeEventHash({
    streamName: e.streamName,
    streamRevision: e.streamRevision,
    type: e.type,
    data: e.data,
    metadata: e.metadata as unknown as JsonValue,
    prevHash: e.prevHash,
  });
}

/** An event of the chain as checked: where it is, its links, and whether its contents match its hash. */
interface ChainLink {
  readonly revision: number;
  readonly position: number;
  readonly type: string;
  readonly prevHash: string;
  readonly hash: string;
  /** Why the stored contents do not match the hash, or null when they do. */
  readonly problem: string | null;
}

const linkRef = (l: ChainLink) => ({ revision: l.revision, position: l.position, type: l.type });
const describeLink = (l: ChainLink) => `event ${l.type} at revision ${l.revision} (position ${l.position})`;

/** A link from the port's event: the hash recomputed from its contents. */
function recordedLink(e: RecordedEvent): ChainLink {
  return {
    ...ref(e),
    prevHash: e.prevHash,
    hash: e.hash,
    problem:
      recompute(e) === e.hash ? null : 'its contents do not match its hash (the stored event was changed)',
  };
}

/** A link from the stored bytes: the text must be the canonical JSON that was hashed, and hash to the stored hash. */
function rawLink(stream: string, r: RawEvent): ChainLink {
  const base = {
    revision: Number(r.revision),
    position: Number(r.position),
    type: r.type,
    prevHash: r.prevHash,
    hash: r.hash,
  };
  let data: JsonValue;
  let metadata: JsonValue;
  try {
    data = JSON.parse(r.dataJson) as JsonValue;
    metadata = JSON.parse(r.metadataJson) as JsonValue;
  } catch {
    return { ...base, problem: 'its stored data is not JSON (the stored event was changed)' };
  }
  if (canonicalJson(data) !== r.dataJson || canonicalJson(metadata) !== r.metadataJson) {
    return {
      ...base,
      problem: 'its stored bytes are not the text that was hashed (the stored event was changed)',
    };
  }
  const hash = computeEventHash({
    streamName: stream,
    streamRevision: BigInt(r.revision),
    type: r.type,
    data,
    metadata,
    prevHash: r.prevHash,
  });
  return {
    ...base,
    problem: hash === r.hash ? null : 'its contents do not match its hash (the stored event was changed)',
  };
}

function checkIndex(
  hand: HandRecord,
  links: readonly ChainLink[],
  events: readonly RecordedEvent[] | null,
): Check {
  const { span } = hand;
  const fail = (detail: string, l?: ChainLink): Check => ({
    name: 'index',
    status: 'fail',
    detail,
    ...(l ? { event: linkRef(l) } : {}),
  });
  if (links.length !== span.eventCount) {
    return fail(
      `the index spans ${span.eventCount} events (revisions ${span.firstRevision}-${span.lastRevision}); the store returned ${links.length}: events are missing`,
    );
  }
  const first = links[0];
  const last = links[links.length - 1];
  if (first === undefined || last === undefined) return fail('the store returned no events for the span');
  if (first.revision !== span.firstRevision || last.revision !== span.lastRevision) {
    return fail(
      `the store returned revisions ${first.revision}-${last.revision} for the indexed ${span.firstRevision}-${span.lastRevision}`,
      first,
    );
  }
  const roundOf = (i: number) => (events?.[i]?.data as { roundNo?: unknown } | undefined)?.roundNo;
  if (first.type !== 'BettingOpened' || (events !== null && roundOf(0) !== hand.roundNo)) {
    return fail(
      `the first event of the span is ${first.type} (round ${String(roundOf(0))}), not BettingOpened of round ${hand.roundNo}`,
      first,
    );
  }
  if (first.position !== span.firstPosition || last.position !== span.lastPosition) {
    return fail(
      `the span's positions ${first.position}-${last.position} differ from the index's ${span.firstPosition}-${span.lastPosition}`,
      first,
    );
  }
  if (hand.status === 'resolved' || hand.status === 'voided') {
    const ending = hand.status === 'resolved' ? 'CoupResolved' : 'RoundVoided';
    if (last.type !== ending || (events !== null && roundOf(links.length - 1) !== hand.roundNo)) {
      return fail(`the last event of the span is ${last.type}, not ${ending} of round ${hand.roundNo}`, last);
    }
  }
  return {
    name: 'index',
    status: 'pass',
    detail: `${links.length} events, revisions ${span.firstRevision}-${span.lastRevision}, positions ${span.firstPosition}-${span.lastPosition}`,
  };
}

function checkChain(
  hand: HandRecord,
  links: readonly ChainLink[],
  shoeLinks: readonly { link: ChainLink; indexedHash: string }[],
  bytes: boolean,
): Check {
  const fail = (detail: string, l: ChainLink): Check => ({
    name: 'chain',
    status: 'fail',
    detail,
    event: linkRef(l),
  });
  let prev: ChainLink | null = null;
  for (const l of links) {
    if (l.problem) return fail(`${describeLink(l)}: ${l.problem}`, l);
    if (prev === null && l.prevHash !== hand.span.firstPrevHash) {
      return fail(`${describeLink(l)}: its prevHash is not the link the index recorded into this hand`, l);
    }
    if (prev !== null && l.prevHash !== prev.hash)
      return fail(`${describeLink(l)}: its prevHash does not match the hash of the event before it`, l);
    prev = l;
  }
  if (prev !== null && prev.hash !== hand.span.lastHash) {
    return fail(
      `${describeLink(prev)}: its hash differs from the hand's head hash in the index (the hand was rewritten)`,
      prev,
    );
  }
  for (const { link, indexedHash } of shoeLinks) {
    if (link.problem) return fail(`${describeLink(link)}: ${link.problem}`, link);
    if (link.hash !== indexedHash)
      return fail(`${describeLink(link)}: its hash differs from the one the shoe index recorded`, link);
  }
  const extra = shoeLinks.length > 0 ? ` and ${shoeLinks.length} shoe event(s)` : '';
  return {
    name: 'chain',
    status: 'pass',
    detail: `${links.length} hand events${extra}: hashes recomputed ${bytes ? 'from the stored bytes' : 'from the contents'}, links intact`,
  };
}

interface CoupData {
  readonly playerCards: readonly Card[];
  readonly bankerCards: readonly Card[];
  readonly playerTotal: number;
  readonly bankerTotal: number;
  readonly outcome: Outcome;
  readonly natural: boolean;
  readonly cardsUsed: number;
  readonly commissionMode: 'deducted' | 'box';
  readonly settlements: readonly {
    playerId: string;
    spot: 'player' | 'banker' | 'tie';
    amount: number;
    result: string;
    paid: number;
    commission: number;
  }[];
}

const ONE_DECK = fullShoeCounts(1);

/** The hand's cards in dealing order, corrections applied, with the events that dealt them. */
function dealtCards(
  events: readonly RecordedEvent[],
): { card: Card; to: string; slot: string; shoePosition: number; e: RecordedEvent }[] {
  const cards: { card: Card; to: string; slot: string; shoePosition: number; e: RecordedEvent }[] = [];
  for (const e of events) {
    if (e.type === 'CardDealt') {
      const d = e.data as { card: Card; to: string; slot: string; shoePosition: number };
      cards.push({ card: d.card, to: d.to, slot: d.slot, shoePosition: d.shoePosition, e });
    } else if (e.type === 'CardCorrected') {
      const d = e.data as { index: number; newCard: Card };
      const at = cards[d.index];
      if (at) cards[d.index] = { ...at, card: d.newCard, e };
    }
  }
  return cards;
}

function checkCoup(hand: HandRecord, events: readonly RecordedEvent[]): Check {
  const resolved = events.find((e) => e.type === 'CoupResolved');
  const cards = dealtCards(events);
  if (!resolved) {
    return {
      name: 'coup',
      status: 'skipped',
      detail:
        hand.status === 'voided'
          ? `voided before the coup resolved (${cards.length} cards on record)`
          : 'the coup has not resolved yet',
    };
  }
  const d = resolved.data as unknown as CoupData;
  const fail = (detail: string, e: RecordedEvent = resolved): Check => ({
    name: 'coup',
    status: 'fail',
    detail,
    event: ref(e),
  });
  for (let i = 0; i < cards.length; i++) {
    const next = nextPosition({ cards: cards.slice(0, i).map((c) => c.card), remaining: ONE_DECK });
    const c = cards[i];
    if (c === undefined) break;
    if (next.to === 'complete')
      return fail(`card ${i} (${c.card}) was dealt after the coup was complete`, c.e);
    if (c.e.type === 'CardDealt' && (next.to !== c.to || next.slot !== c.slot)) {
      return fail(
        `card ${i} (${c.card}) was recorded to ${c.to}/${c.slot}; the engine puts it to ${next.to}/${next.slot}`,
        c.e,
      );
    }
  }
  let engine;
  try {
    engine = resolveCoup(cards.map((c) => c.card));
  } catch (error) {
    return fail(`the recorded cards do not make a coup: ${(error as Error).message}`);
  }
  const same =
    engine.cardsUsed === cards.length &&
    engine.cardsUsed === d.cardsUsed &&
    engine.outcome === d.outcome &&
    engine.natural === d.natural &&
    engine.playerTotal === d.playerTotal &&
    engine.bankerTotal === d.bankerTotal &&
    engine.playerCards.join() === d.playerCards.join() &&
    engine.bankerCards.join() === d.bankerCards.join();
  if (!same) {
    return fail(
      `the engine resolves the cards ${cards.map((c) => c.card).join(' ')} to ${engine.outcome} ${engine.playerTotal}-${engine.bankerTotal}` +
        ` (player ${engine.playerCards.join(' ')}, banker ${engine.bankerCards.join(' ')}); recorded: ${d.outcome} ${d.playerTotal}-${d.bankerTotal}` +
        ` (player ${d.playerCards.join(' ')}, banker ${d.bankerCards.join(' ')})`,
    );
  }
  return {
    name: 'coup',
    status: 'pass',
    detail: `${cards.map((c) => c.card).join(' ')}: ${engine.outcome} ${engine.playerTotal}-${engine.bankerTotal}${engine.natural ? ', natural' : ''}`,
  };
}

/** Stakes per player and spot, folded from the hand's BetPlaced/BetsCleared events. */
function stakesFrom(
  events: readonly RecordedEvent[],
): Map<string, { player: number; banker: number; tie: number }> {
  const stakes = new Map<string, { player: number; banker: number; tie: number }>();
  for (const e of events) {
    if (e.type === 'BetPlaced') {
      const d = e.data as { playerId: string; spot: 'player' | 'banker' | 'tie'; amount: number };
      const s = stakes.get(d.playerId) ?? { player: 0, banker: 0, tie: 0 };
      stakes.set(d.playerId, { ...s, [d.spot]: s[d.spot] + d.amount });
    } else if (e.type === 'BetsCleared') {
      stakes.delete((e.data as { playerId: string }).playerId);
    }
  }
  return stakes;
}

function checkSettlements(hand: HandRecord, before: TableState, events: readonly RecordedEvent[]): Check {
  const stakes = stakesFrom(events);
  const voided = events.find((e) => e.type === 'RoundVoided');
  if (voided) {
    const returned = new Map(
      (voided.data as { returned: { playerId: string; amount: number }[] }).returned.map((r) => [
        r.playerId,
        r.amount,
      ]),
    );
    for (const [playerId, s] of stakes) {
      const total = s.player + s.banker + s.tie;
      if (total > 0 && returned.get(playerId) !== total) {
        return {
          name: 'settlements',
          status: 'fail',
          detail: `player ${playerId} staked ${total}; the void returned ${returned.get(playerId) ?? 0}`,
          event: ref(voided),
        };
      }
      returned.delete(playerId);
    }
    for (const [playerId, amount] of returned) {
      if (amount > 0)
        return {
          name: 'settlements',
          status: 'fail',
          detail: `the void returned ${amount} to ${playerId}, who had no stake`,
          event: ref(voided),
        };
    }
    return {
      name: 'settlements',
      status: 'pass',
      detail: `voided: every stake returned (${stakes.size} players)`,
    };
  }
  const resolved = events.find((e) => e.type === 'CoupResolved');
  if (!resolved) return { name: 'settlements', status: 'skipped', detail: 'the coup has not resolved yet' };
  const d = resolved.data as unknown as CoupData;
  const rules = tableView(before).rules;
  if (!rules)
    return {
      name: 'settlements',
      status: 'fail',
      detail: 'the state before the hand has no table rules',
      event: ref(resolved),
    };
  const recorded = new Map(d.settlements.map((s) => [`${s.playerId}/${s.spot}`, s]));
  let count = 0;
  for (const [playerId, s] of stakes) {
    for (const spot of ['player', 'banker', 'tie'] as const) {
      const amount = s[spot];
      if (amount <= 0) continue;
      count += 1;
      const expected = settleBet(spot, amount, d.outcome, {
        tiePays: rules.tiePays,
        commission: rules.commission,
      });
      const got = recorded.get(`${playerId}/${spot}`);
      recorded.delete(`${playerId}/${spot}`);
      if (!got)
        return {
          name: 'settlements',
          status: 'fail',
          detail: `no settlement recorded for ${playerId}'s ${amount} on ${spot}`,
          event: ref(resolved),
        };
      if (
        got.amount !== amount ||
        got.result !== expected.result ||
        got.paid !== expected.paid ||
        got.commission !== expected.commission
      ) {
        return {
          name: 'settlements',
          status: 'fail',
          detail:
            `${playerId}'s ${amount} on ${spot}: recorded ${got.result}, paid ${got.paid}, commission ${got.commission} (stake ${got.amount}); ` +
            `settleBet gives ${expected.result}, paid ${expected.paid}, commission ${expected.commission}`,
          event: ref(resolved),
        };
      }
    }
  }
  const extra = [...recorded.keys()];
  if (extra.length > 0)
    return {
      name: 'settlements',
      status: 'fail',
      detail: `settlements recorded for stakes never placed: ${extra.join(', ')}`,
      event: ref(resolved),
    };
  return {
    name: 'settlements',
    status: 'pass',
    detail: `${count} settlements recomputed with settleBet (tie ${rules.tiePays}:1, commission ${rules.commission})`,
  };
}

function checkSeed(
  shoe: ShoeRecordView | null,
  started: RecordedEvent | null,
  ended: RecordedEvent | null,
  events: readonly RecordedEvent[],
): [Check, Check] {
  if (shoe === null) {
    const detail = 'the shoe of this hand is not in the index';
    return [
      { name: 'commitment', status: 'fail', detail },
      { name: 'shuffle', status: 'fail', detail },
    ];
  }
  if (shoe.dealing !== 'rng') {
    const detail = 'a live shoe: shuffled by hand, no seed';
    return [
      { name: 'commitment', status: 'skipped', detail },
      { name: 'shuffle', status: 'skipped', detail },
    ];
  }
  if (started === null || started.type !== 'ShoeStarted') {
    const detail = `ShoeStarted of shoe ${shoe.shoeNo} is not at the revision the index recorded (${shoe.startedRevision})`;
    return [
      { name: 'commitment', status: 'fail', detail },
      { name: 'shuffle', status: 'fail', detail },
    ];
  }
  const seed =
    ended === null || ended.type !== 'ShoeEnded' ? null : (ended.data as { seed: string | null }).seed;
  if (seed === null) {
    const detail = `the seed of shoe ${shoe.shoeNo} is revealed when the shoe ends`;
    return [
      { name: 'commitment', status: 'pending', detail },
      { name: 'shuffle', status: 'pending', detail },
    ];
  }
  const s = started.data as { commitment: string | null; decks: number; burnCard: Card | null };
  let bytes: Uint8Array;
  try {
    bytes = seedFromHex(seed);
  } catch {
    const detail = `the revealed seed is not 64 hex characters`;
    return [
      { name: 'commitment', status: 'fail', detail, ...(ended ? { event: ref(ended) } : {}) },
      { name: 'shuffle', status: 'fail', detail, ...(ended ? { event: ref(ended) } : {}) },
    ];
  }
  const commitment: Check =
    commitmentOf(bytes) === s.commitment
      ? {
          name: 'commitment',
          status: 'pass',
          detail: `sha256(seed) = ${s.commitment}, as published before the first bet`,
        }
      : {
          name: 'commitment',
          status: 'fail',
          detail: `sha256(revealed seed) = ${commitmentOf(bytes)}, but ShoeStarted published ${s.commitment}`,
          event: ref(started),
        };
  const order = shuffleShoe(s.decks, bytes);
  if (s.burnCard !== null && order[0] !== s.burnCard) {
    return [
      commitment,
      {
        name: 'shuffle',
        status: 'fail',
        detail: `the seed's shoe starts with ${order[0]}; the recorded turned card is ${s.burnCard}`,
        event: ref(started),
      },
    ];
  }
  for (const c of dealtCards(events)) {
    if (order[c.shoePosition] !== c.card) {
      return [
        commitment,
        {
          name: 'shuffle',
          status: 'fail',
          detail: `shoe position ${c.shoePosition} holds ${order[c.shoePosition]} in the seed's shuffle; ${c.card} was recorded`,
          event: ref(c.e),
        },
      ];
    }
  }
  const n = dealtCards(events).length;
  return [
    commitment,
    {
      name: 'shuffle',
      status: 'pass',
      detail: `shuffleShoe(${s.decks}, seed) has the ${n} recorded cards at their shoe positions`,
    },
  ];
}

async function tryRead(
  store: EventStore,
  stream: string,
  from: number,
  count: number,
): Promise<{ events: RecordedEvent[] | null; error: string | null }> {
  try {
    return { events: await readSpan(store, stream, from, count), error: null };
  } catch (error) {
    return { events: null, error: (error as Error).message };
  }
}

/** Verifies one hand: reads its span and (rng) its shoe's two events, and runs every check. */
export async function verifyHand(
  src: HandSource,
  tableId: string,
  roundNo: number,
): Promise<HandVerification> {
  const { hand, start: before } = indexed(src, tableId, roundNo);
  const shoe = src.readModels.shoe(tableId, hand.shoeNo);
  const stream = streamOf(tableId);
  const { firstRevision, eventCount } = hand.span;
  const read = await tryRead(src.store, stream, firstRevision, eventCount);
  const raw = src.raw ? await src.raw(stream, firstRevision, eventCount) : null;
  const links = raw ? raw.map((r) => rawLink(stream, r)) : (read.events ?? []).map(recordedLink);
  const rng = shoe?.dealing === 'rng';
  const one = async (revision: number | null) => {
    if (revision === null) return { e: null, link: null };
    const e = (await tryRead(src.store, stream, revision, 1)).events?.[0] ?? null;
    const r = src.raw ? (await src.raw(stream, revision, 1))[0] : undefined;
    return { e, link: r ? rawLink(stream, r) : e ? recordedLink(e) : null };
  };
  const started = rng ? await one(shoe.startedRevision) : { e: null, link: null };
  const ended = rng ? await one(shoe.endedRevision) : { e: null, link: null };
  const shoeLinks: { link: ChainLink; indexedHash: string }[] = [];
  if (started.link && shoe) shoeLinks.push({ link: started.link, indexedHash: shoe.startedHash });
  if (ended.link && shoe?.endedHash) shoeLinks.push({ link: ended.link, indexedHash: shoe.endedHash });
  const checks: Check[] = [
    checkIndex(hand, links, read.events),
    checkChain(hand, links, shoeLinks, raw !== null),
  ];
  if (read.events === null) {
    const detail = `the hand's events cannot be read: ${read.error}`;
    checks.push({ name: 'coup', status: 'fail', detail }, { name: 'settlements', status: 'fail', detail });
  } else if (checks[0]?.status === 'pass') {
    const events = read.events;
    checks.push(checkCoup(hand, events), checkSettlements(hand, before, events));
    checks.push(...checkSeed(shoe, started.e, ended.e, events));
  }
  return { tableId, roundNo, shoeNo: hand.shoeNo, ok: checks.every((c) => c.status !== 'fail'), checks };
}
