/**
 * Hand history and audit trail (`hh_`): one row per coup (round), one row per player of each coup, one row per
 * shoe, and the table state just before each hand (to replay a hand without reading the table's history).
 *
 * A hand spans the table stream's events from its `BettingOpened` to its `CoupResolved` or `RoundVoided`,
 * contiguous revisions (a buy-in during betting is inside the span). The row keeps the span's first and last
 * global positions and revisions, the `prevHash` of its first event and the `hash` of its last: verification
 * reads exactly those events and checks the chain between the two.
 */
import { fullShoeCounts, nextPosition } from '@coup/engine';
import type { Card, Role, Settlement, Slot, Spot, SpotAmounts, TableState } from '@coup/table';
import { initialState } from '@coup/table';
import { tableAfter } from './table-fold';
import {
  type Evolution,
  type ProjectionEvent,
  type ProjectionModel,
  type Row,
  type StateStorage,
  type TableDef,
  type Write,
  byTable,
  int,
  only,
  text,
} from './types';

export const HH_HANDS = 'hh_hands';
export const HH_HAND_PLAYERS = 'hh_hand_players';
export const HH_HAND_STATES = 'hh_hand_states';
export const HH_SHOES = 'hh_shoes';
export const HH_OPEN_BETS = 'hh_open_bets';

/**
 * The table state is stored before every {@link SNAPSHOT_EVERY}th hand (and a table's first): a replay folds
 * from the nearest one (at most that many hands of events: bounded, whatever the table's history).
 */
export const SNAPSHOT_EVERY = 10;

/** A bet placed (or cleared) in a hand, with who and when. */
export interface BetEntry {
  readonly kind: 'bet' | 'clear';
  readonly playerId: string;
  /** bet: the spot; clear: null (all the player's stakes). */
  readonly spot: Spot | null;
  /** bet: the amount; clear: the total returned. */
  readonly amount: number;
  /** clear: the stakes taken back per spot. */
  readonly cleared: SpotAmounts | null;
  readonly rebet: boolean;
  readonly at: string;
  readonly by: string;
  readonly role: Role;
  readonly position: number;
}

/** A card of the hand in dealing order, with who entered it. */
export interface CardEntry {
  readonly index: number;
  readonly card: Card;
  readonly to: 'player' | 'banker';
  readonly slot: Slot;
  /** 0-based position of the card in the shoe. */
  readonly shoePosition: number;
  readonly at: string;
  readonly by: string;
  readonly role: Role;
  readonly position: number;
  /** When corrected: the card first entered. */
  readonly correctedFrom: Card | null;
}

export interface CorrectionEntry {
  readonly index: number;
  readonly oldCard: Card;
  readonly newCard: Card;
  readonly at: string;
  readonly by: string;
  readonly role: Role;
  readonly position: number;
}

/**
 * Bets per chunk of a {@link BetLog}. Appending a bet copies the tail (under this many entries) and, once in this
 * many appends, the list of full chunks: about BET_CHUNK / 2 + n / BET_CHUNK² entries per bet for a hand of n
 * bets, instead of n when the whole list was copied.
 */
const BET_CHUNK = 64;

/**
 * Full chunks of bets an open hand keeps inline in the SQLite file (in its hh_hands row's bets_json and its
 * hh_state), rewritten once per batch: up to 16 x 64 = 1,024 bets (plus the tail). Beyond, its bets are kept in
 * {@link HH_OPEN_BETS}, one row per chunk written once, so that a batch costs the same however many bets the
 * round has (see {@link handHistoryStorage}).
 */
export const INLINE_CHUNKS = 16;

/**
 * The bets and clears of an open hand in order, as a persistent list: full chunks of exactly {@link BET_CHUNK}
 * entries, then a tail of fewer. Never mutated: an append returns a new log sharing the full chunks (and the
 * old log stays valid), so a fold state kept by the runner to roll back to is untouched.
 */
export interface BetLog {
  readonly chunks: readonly (readonly BetEntry[])[];
  readonly tail: readonly BetEntry[];
  /**
   * What the full chunks add up to (bets placed, stakes per player), updated once per full chunk: the open
   * hand's row takes its players, bet count and stakes from it and the tail, without going over every bet.
   * (Logs stored before it existed get it when loaded, see {@link currentHand}.)
   */
  readonly summary: BetSummary;
}

/** The bets and clears of a list of entries, added up. */
export interface BetSummary {
  /** Entries of kind 'bet'. */
  readonly bets: number;
  /**
   * Stakes per player in play after the entries (a clear takes back all of a player's stakes: the player is
   * left out until the next bet), as [playerId, stake] sorted by player id.
   */
  readonly stakes: readonly (readonly [string, number])[];
}

const EMPTY_SUMMARY: BetSummary = Object.freeze({ bets: 0, stakes: Object.freeze([]) });

const EMPTY_LOG: BetLog = Object.freeze({
  chunks: Object.freeze([]),
  tail: Object.freeze([]),
  summary: EMPTY_SUMMARY,
});

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The stakes of `summary` with `entries` applied in order (a new map; the summary is not changed). */
function stakesAfter(summary: BetSummary, entries: readonly BetEntry[]): Map<string, number> {
  const stakes = new Map<string, number>(summary.stakes);
  for (const b of entries) {
    if (b.kind === 'bet') stakes.set(b.playerId, (stakes.get(b.playerId) ?? 0) + b.amount);
    else stakes.delete(b.playerId);
  }
  return stakes;
}

/** `summary` with `entries` added (once per full chunk). */
function summaryWith(summary: BetSummary, entries: readonly BetEntry[]): BetSummary {
  let bets = summary.bets;
  for (const b of entries) if (b.kind === 'bet') bets += 1;
  const stakes = [...stakesAfter(summary, entries)].sort(([a], [b]) => byId(a, b));
  return { bets, stakes };
}

/** The log with `bet` appended (the log given is not changed). */
function appendBet(log: BetLog, bet: BetEntry): BetLog {
  if (log.tail.length + 1 < BET_CHUNK)
    return { chunks: log.chunks, tail: [...log.tail, bet], summary: log.summary };
  const chunk = [...log.tail, bet];
  return { chunks: [...log.chunks, chunk], tail: [], summary: summaryWith(log.summary, chunk) };
}

/** Full chunks and a tail as a log (its summary computed). */
function betLogFrom(chunks: readonly (readonly BetEntry[])[], tail: readonly BetEntry[]): BetLog {
  let summary = EMPTY_SUMMARY;
  for (const c of chunks) summary = summaryWith(summary, c);
  return { chunks, tail, summary };
}

/** A flat list as a log (chunked as appending its entries one by one would). */
function betLogOf(bets: readonly BetEntry[]): BetLog {
  const chunks: BetEntry[][] = [];
  const full = bets.length - (bets.length % BET_CHUNK);
  for (let i = 0; i < full; i += BET_CHUNK) chunks.push(bets.slice(i, i + BET_CHUNK));
  return betLogFrom(chunks, bets.slice(full));
}

/** The stakes in play (players with stakes, sorted) and the bets placed, from the summary and the tail. */
function stakesOfLog(log: BetLog): { stakes: Map<string, number>; bets: number } {
  let bets = log.summary.bets;
  for (const b of log.tail) if (b.kind === 'bet') bets += 1;
  const stakes = new Map(
    [...stakesAfter(log.summary, log.tail)].filter(([, v]) => v > 0).sort(([a], [b]) => byId(a, b)),
  );
  return { stakes, bets };
}

/** Every entry of the log, in order (a new array). */
function betsOfLog(log: BetLog): BetEntry[] {
  const out: BetEntry[] = [];
  for (const c of log.chunks) for (const b of c) out.push(b);
  for (const b of log.tail) out.push(b);
  return out;
}

/** A hand being built (betting or dealing). */
export interface OpenHand {
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly status: 'betting' | 'dealing';
  readonly openedAt: string;
  readonly openedBy: string;
  readonly deadline: string | null;
  readonly closedAt: string | null;
  readonly closedHow: 'dealer' | 'timer' | 'player' | null;
  readonly closedBy: string | null;
  readonly dealer: string | null;
  /** Bets and clears in order (chunked: see {@link BetLog}; {@link betsOfLog} flattens them). */
  readonly betLog: BetLog;
  readonly cards: readonly CardEntry[];
  readonly corrections: readonly CorrectionEntry[];
  readonly firstPosition: number;
  readonly firstRevision: number;
  readonly firstPrevHash: string;
  /** The hand whose stored state a replay of this hand starts from, and its first revision. */
  readonly replayRound: number;
  readonly replayRevision: number;
}

/**
 * An open hand as stored before bets were chunked (the code of commit 45855bf and earlier; the projection's
 * version was 1 then and still is): the bets as one flat list, `bets`, and no `betLog`. Such a state may still
 * be in `hh_state` (the runner persists fold states as JSON and resumes from them).
 *
 * Choice: the fold ACCEPTS this shape (see {@link currentHand}) instead of bumping the projection's version.
 * The read-model rows are byte-identical either way, so a bump would only force a rebuild of every table's hand
 * history from position 0 (long on a big store) for nothing. The first event folded into such a state converts
 * it (once, O(n)); the runner then stores the new shape. `materialize` accepts it too. Not covered: going back
 * to the older code after the new one stored a state (the old code cannot read `betLog`).
 */
interface LegacyOpenHand extends Omit<OpenHand, 'betLog'> {
  readonly bets: readonly BetEntry[];
}

/**
 * `h` with some fields replaced, written out field by field in the order of {@link OpenHand} (a spread of the
 * 18 fields, once per bet and card, measured as one of the costliest lines of a rebuild).
 */
function handWith(
  h: OpenHand,
  c: {
    readonly status?: OpenHand['status'];
    readonly closedAt?: string | null;
    readonly closedHow?: OpenHand['closedHow'];
    readonly closedBy?: string | null;
    readonly dealer?: string | null;
    readonly betLog?: BetLog;
    readonly cards?: readonly CardEntry[];
    readonly corrections?: readonly CorrectionEntry[];
  },
): OpenHand {
  return {
    roundNo: h.roundNo,
    shoeNo: h.shoeNo,
    status: c.status ?? h.status,
    openedAt: h.openedAt,
    openedBy: h.openedBy,
    deadline: h.deadline,
    closedAt: c.closedAt !== undefined ? c.closedAt : h.closedAt,
    closedHow: c.closedHow !== undefined ? c.closedHow : h.closedHow,
    closedBy: c.closedBy !== undefined ? c.closedBy : h.closedBy,
    dealer: c.dealer !== undefined ? c.dealer : h.dealer,
    betLog: c.betLog ?? h.betLog,
    cards: c.cards ?? h.cards,
    corrections: c.corrections ?? h.corrections,
    firstPosition: h.firstPosition,
    firstRevision: h.firstRevision,
    firstPrevHash: h.firstPrevHash,
    replayRound: h.replayRound,
    replayRevision: h.replayRevision,
  };
}

/**
 * The open hand in the current shape: a stored flat-bets hand converted (see {@link LegacyOpenHand}), and a log
 * stored before logs had a summary given one (once: the state then keeps it).
 */
function currentHand(h: OpenHand | LegacyOpenHand | null): OpenHand | null {
  if (h === null) return h;
  if ('betLog' in h) {
    const log = h.betLog as Partial<BetLog>;
    if (log.summary !== undefined) return h;
    return handWith(h, { betLog: betLogFrom(log.chunks ?? [], log.tail ?? []) });
  }
  const { bets, ...rest } = h;
  return { ...rest, betLog: betLogOf(Array.isArray(bets) ? bets : []) };
}

/** The shoe row as built. */
export interface ShoeRecord {
  readonly shoeNo: number;
  readonly dealing: 'rng' | 'live';
  readonly shuffle: 'shoe' | 'every-coup';
  readonly decks: number;
  readonly length: number;
  readonly commitment: string | null;
  /** Only once revealed (ShoeEnded). */
  readonly seed: string | null;
  readonly burnCard: Card | null;
  readonly burnCount: number;
  readonly firstCoupIndex: number;
  readonly cutCard: number | null;
  readonly startedAt: string;
  readonly startedBy: string;
  readonly startedPosition: number;
  readonly startedRevision: number;
  readonly startedPrevHash: string;
  readonly startedHash: string;
  readonly endedAt: string | null;
  readonly endReason: string | null;
  readonly endedPosition: number | null;
  readonly endedRevision: number | null;
  readonly endedPrevHash: string | null;
  readonly endedHash: string | null;
  readonly coups: number;
  readonly voids: number;
  readonly firstRound: number | null;
  readonly lastRound: number | null;
}

/** Where the open hand's span ends so far (kept apart from the hand: it moves with every event). */
export interface SpanEnd {
  readonly position: number;
  readonly revision: number;
  readonly hash: string;
  readonly count: number;
}

export interface HandHistoryState {
  readonly position: number;
  readonly tableId: string;
  /** The table folded with @coup/table's evolve, seed removed until revealed. */
  readonly table: TableState;
  readonly hand: OpenHand | null;
  readonly handEnd: SpanEnd | null;
  readonly shoe: ShoeRecord | null;
  /** The last hand whose state before it was stored, and its first revision. */
  readonly snapshot: { readonly roundNo: number; readonly revision: number } | null;
}

const tables: readonly TableDef[] = [
  {
    name: HH_HANDS,
    doc: 'One row per hand (round): bets, cards, result, settlements, void, and the event span it covers.',
    primaryKey: ['table_id', 'round_no'],
    indexes: [
      { name: 'shoe', columns: ['table_id', 'shoe_no', 'round_no'] },
      { name: 'time', columns: ['table_id', 'opened_at'] },
    ],
    columns: [
      text('table_id', 'Table id'),
      int('round_no', 'Round number (1, 2, ...)'),
      int('shoe_no', 'Shoe the hand was dealt from'),
      text('status', "'betting' | 'dealing' | 'resolved' | 'voided'"),
      text('opened_at', 'Betting opened (ISO)'),
      text('opened_by', 'Who opened betting'),
      text('deadline', 'Betting timer deadline, or NULL'),
      text('closed_at', 'No more bets (ISO)'),
      text('closed_how', "How betting closed: 'dealer' | 'timer' | 'player'"),
      text('closed_by', 'Who closed betting (actor id)'),
      text('dealer', 'Dealer on duty: who dealt the first card (or opened betting if no card was dealt)'),
      text('resolved_at', 'When the coup resolved or the round was voided (ISO)'),
      text('outcome', "'player' | 'banker' | 'tie', NULL unless resolved"),
      int('natural', '1 if a natural (8 or 9 on two cards), 0 if not, NULL unless resolved'),
      text('player_cards', "Player's cards, space separated (e.g. 'Ah 9d')"),
      text('banker_cards', "Banker's cards, space separated"),
      int('player_total', 'Player total'),
      int('banker_total', 'Banker total'),
      text(
        'cards_json',
        'Every card in dealing order: [{index, card, to, slot, shoePosition, at, by, role, position, correctedFrom}]',
      ),
      text('corrections_json', 'Card corrections: [{index, oldCard, newCard, at, by, role, position}]'),
      text(
        'bets_json',
        `Every bet and clear in order: [{kind, playerId, spot, amount, cleared, rebet, at, by, role, position}] (NULL while an open hand has more than ${INLINE_CHUNKS * BET_CHUNK}: they are in ${HH_OPEN_BETS} then)`,
      ),
      text(
        'settlements_json',
        'Settlements as recorded: [{playerId, spot, amount, result, paid, commission}]',
      ),
      text('players', 'Players with stakes at the end of betting, comma separated'),
      int('bet_count', 'Bets placed (including rebets and bets later cleared)'),
      int('total_staked', 'Stakes in play when the hand ended (cents)'),
      int('total_paid', 'Paid back to players, stakes included (cents; voids: stakes returned)'),
      int('commission', 'Commission deducted or owed to the box (cents)'),
      text('commission_mode', "'deducted' | 'box'"),
      int('house_result', 'total_staked - total_paid (+ box commission owed): what the house won'),
      text('void_reason', 'Why the round was voided, or NULL'),
      text('voided_by', 'Who voided it'),
      text('returned_json', 'Stakes returned by the void: [{playerId, amount}]'),
      int('first_position', 'Global position of the first event of the hand (BettingOpened)'),
      int('last_position', 'Global position of the last event of the hand so far'),
      int('first_revision', 'Stream revision of the first event'),
      int('last_revision', 'Stream revision of the last event'),
      int('event_count', 'Events in the span'),
      text('first_prev_hash', 'prevHash of the first event (the chain link into the hand)'),
      text('last_hash', 'hash of the last event (the chain head of the hand)'),
      int(
        'replay_round',
        'The hand whose stored state (hh_hand_states) a replay starts from (this one or up to 9 before)',
      ),
      int('replay_revision', 'The first revision of that hand: a replay reads from here to last_revision'),
    ],
  },
  {
    name: HH_HAND_PLAYERS,
    doc: 'One row per player with stakes in a hand (for the player filter and per-player results).',
    primaryKey: ['table_id', 'round_no', 'player_id'],
    withoutRowid: true,
    columns: [
      text('table_id', 'Table id'),
      int('round_no', 'Round number'),
      text('player_id', 'Player id'),
      int('staked', 'Stakes in play at the end of the hand'),
      int('paid', 'Paid back (stakes included); for a void, the stakes returned'),
      int('commission', 'Commission deducted or owed'),
      int('net', 'paid - staked (box commission owed not subtracted)'),
    ],
  },
  {
    name: HH_HAND_STATES,
    doc: `The table state just before every ${SNAPSHOT_EVERY}th hand and a table's first (JSON, no unrevealed seed): where replays start.`,
    primaryKey: ['table_id', 'round_no'],
    columns: [
      text('table_id', 'Table id'),
      int('round_no', 'Round number'),
      text('state_json', "@coup/table's TableState before the hand's BettingOpened"),
    ],
  },
  {
    name: HH_OPEN_BETS,
    doc: `The bets and clears of an open hand with more than ${INLINE_CHUNKS * BET_CHUNK} of them, ${BET_CHUNK} per row in order (the last row: those after the last full ${BET_CHUNK}), while the hand is open: its hh_hands row has bets_json NULL meanwhile (the API reads the bets here). Deleted when the hand ends (its row then has them all).`,
    primaryKey: ['table_id', 'round_no', 'chunk_no'],
    withoutRowid: true,
    columns: [
      text('table_id', 'Table id'),
      int('round_no', 'Round number'),
      int(
        'chunk_no',
        `0, 1, ...: entries ${BET_CHUNK} x chunk_no to ${BET_CHUNK} x chunk_no + ${BET_CHUNK - 1}`,
      ),
      text(
        'entries_json',
        'The entries, as in bets_json: [{kind, playerId, spot, amount, cleared, rebet, at, by, role, position}]',
      ),
    ],
  },
  {
    name: HH_SHOES,
    doc: 'One row per shoe: commitment, revealed seed, burn, and the positions of its ShoeStarted/ShoeEnded events.',
    primaryKey: ['table_id', 'shoe_no'],
    coalesce: true,
    columns: [
      text('table_id', 'Table id'),
      int('shoe_no', 'Shoe number'),
      text('dealing', "'rng' | 'live'"),
      text('shuffle', "'shoe' | 'every-coup'"),
      int('decks', 'Decks'),
      int('length', 'Cards in the shoe'),
      text('commitment', 'sha256(seed), published before the first bet (rng)'),
      text('seed', 'The seed (64 hex), only once revealed by ShoeEnded'),
      text('burn_card', 'The turned card'),
      int('burn_count', 'Cards burned after it'),
      int('first_coup_index', 'Shoe index of the first card of the first coup'),
      int('cut_card', 'Cut card distance from the end'),
      text('started_at', 'ShoeStarted time'),
      text('started_by', 'Who started the shoe'),
      int('started_position', 'Global position of ShoeStarted'),
      int('started_revision', 'Stream revision of ShoeStarted'),
      text('started_prev_hash', 'prevHash of ShoeStarted'),
      text('started_hash', 'hash of ShoeStarted'),
      text('ended_at', 'ShoeEnded time'),
      text('end_reason', "'cut-card' | 'every-coup' | 'supervisor' | 'table-closed' | 'exhausted'"),
      int('ended_position', 'Global position of ShoeEnded'),
      int('ended_revision', 'Stream revision of ShoeEnded'),
      text('ended_prev_hash', 'prevHash of ShoeEnded'),
      text('ended_hash', 'hash of ShoeEnded'),
      int('coups', 'Coups resolved from this shoe'),
      int('voids', 'Rounds voided in this shoe'),
      int('first_round', 'First round dealt from this shoe'),
      int('last_round', 'Last round dealt from this shoe'),
    ],
  },
];

const json = (v: unknown): string => JSON.stringify(v);

function shoeRow(tableId: string, s: ShoeRecord): Write {
  return {
    kind: 'upsert',
    table: HH_SHOES,
    row: {
      table_id: tableId,
      shoe_no: s.shoeNo,
      dealing: s.dealing,
      shuffle: s.shuffle,
      decks: s.decks,
      length: s.length,
      commitment: s.commitment,
      seed: s.seed,
      burn_card: s.burnCard,
      burn_count: s.burnCount,
      first_coup_index: s.firstCoupIndex,
      cut_card: s.cutCard,
      started_at: s.startedAt,
      started_by: s.startedBy,
      started_position: s.startedPosition,
      started_revision: s.startedRevision,
      started_prev_hash: s.startedPrevHash,
      started_hash: s.startedHash,
      ended_at: s.endedAt,
      end_reason: s.endReason,
      ended_position: s.endedPosition,
      ended_revision: s.endedRevision,
      ended_prev_hash: s.endedPrevHash,
      ended_hash: s.endedHash,
      coups: s.coups,
      voids: s.voids,
      first_round: s.firstRound,
      last_round: s.lastRound,
    },
  };
}

interface Ending {
  readonly status: 'resolved' | 'voided';
  readonly at: string;
  readonly outcome: string | null;
  readonly natural: boolean | null;
  readonly playerCards: readonly Card[] | null;
  readonly bankerCards: readonly Card[] | null;
  readonly playerTotal: number | null;
  readonly bankerTotal: number | null;
  readonly settlements: readonly Settlement[];
  readonly commissionMode: 'deducted' | 'box' | null;
  readonly void: {
    readonly reason: string;
    readonly by: string;
    readonly returned: readonly { playerId: string; amount: number }[];
  } | null;
}

/** Stakes per player in play, from the hand's own bets (a clear takes back all of a player's stakes). */
function stakesOf(bets: readonly BetEntry[]): Map<string, number> {
  const stakes = new Map<string, number>();
  for (const b of bets) {
    if (b.kind === 'bet') stakes.set(b.playerId, (stakes.get(b.playerId) ?? 0) + b.amount);
    else stakes.delete(b.playerId);
  }
  return new Map([...stakes].filter(([, v]) => v > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const ONE_DECK = fullShoeCounts(1);

/** Where each card of a coup goes, from the sequence (a correction may move a third card). */
function placesOf(cards: readonly Card[]): { to: 'player' | 'banker'; slot: Slot }[] {
  return cards.map((_, i) => {
    const next = nextPosition({ cards: cards.slice(0, i), remaining: ONE_DECK });
    return next.to === 'complete' ? { to: 'banker', slot: 'banker3' } : { to: next.to, slot: next.slot };
  });
}

/**
 * The hh_hands row of a hand, open (ending null) or finished. `betsJson` is the JSON of the hand's bets
 * flattened ({@link betsOfLog}; null: the open hand's bets are in {@link HH_OPEN_BETS}, see
 * {@link handHistoryStorage}), `stakes` the stakes in play and `betCount` the bets placed: once per row
 * written, never per bet.
 */
function handRow(
  tableId: string,
  h: OpenHand,
  end: SpanEnd,
  betsJson: string | null,
  stakes: Map<string, number>,
  betCount: number,
  ending: Ending | null,
): Row {
  let staked = 0;
  for (const v of stakes.values()) staked += v;
  let paid = 0;
  let commission = 0;
  if (ending?.void) for (const r of ending.void.returned) paid += r.amount;
  for (const s of ending?.settlements ?? []) {
    paid += s.paid;
    commission += s.commission;
  }
  const settledStaked =
    ending?.status === 'resolved' ? ending.settlements.reduce((a, s) => a + s.amount, 0) : staked;
  const box = ending?.commissionMode === 'box' ? commission : 0;
  return {
    table_id: tableId,
    round_no: h.roundNo,
    shoe_no: h.shoeNo,
    status: ending?.status ?? h.status,
    opened_at: h.openedAt,
    opened_by: h.openedBy,
    deadline: h.deadline,
    closed_at: h.closedAt,
    closed_how: h.closedHow,
    closed_by: h.closedBy,
    dealer: h.dealer ?? h.openedBy,
    resolved_at: ending?.at ?? null,
    outcome: ending?.outcome ?? null,
    natural: ending?.natural === null || ending === null ? null : ending.natural ? 1 : 0,
    player_cards: ending?.playerCards ? ending.playerCards.join(' ') : null,
    banker_cards: ending?.bankerCards ? ending.bankerCards.join(' ') : null,
    player_total: ending?.playerTotal ?? null,
    banker_total: ending?.bankerTotal ?? null,
    cards_json: json(h.cards),
    corrections_json: json(h.corrections),
    bets_json: betsJson,
    settlements_json: json(ending?.settlements ?? []),
    players: [...stakes.keys()].join(','),
    bet_count: betCount,
    total_staked: settledStaked,
    total_paid: ending === null ? 0 : paid,
    commission,
    commission_mode: ending?.commissionMode ?? null,
    house_result: ending === null ? 0 : settledStaked - paid + box,
    void_reason: ending?.void?.reason ?? null,
    voided_by: ending?.void?.by ?? null,
    returned_json: ending?.void ? json(ending.void.returned) : null,
    first_position: h.firstPosition,
    last_position: end.position,
    first_revision: h.firstRevision,
    last_revision: end.revision,
    event_count: end.count,
    first_prev_hash: h.firstPrevHash,
    last_hash: end.hash,
    replay_round: h.replayRound,
    replay_revision: h.replayRevision,
  };
}

const betCountOf = (bets: readonly BetEntry[]): number =>
  bets.reduce((n, b) => (b.kind === 'bet' ? n + 1 : n), 0);

/**
 * The row of the open hand (not finished), e.g. once per batch: with the JSON of all its bets, or (`inline`
 * false) without (bets_json NULL: the bets are in hh_open_bets); players, bet count and stakes from the log's
 * summary and tail either way.
 */
function openHandRow(tableId: string, h: OpenHand, end: SpanEnd, inline = true): Row {
  const { stakes, bets } = stakesOfLog(h.betLog);
  return handRow(tableId, h, end, inline ? json(betsOfLog(h.betLog)) : null, stakes, bets, null);
}

function finish(s: HandHistoryState, h: OpenHand, end: SpanEnd, ending: Ending): Write[] {
  const bets = betsOfLog(h.betLog);
  const stakes = stakesOf(bets);
  const writes: Write[] = [
    {
      kind: 'upsert',
      table: HH_HANDS,
      row: handRow(s.tableId, h, end, json(bets), stakes, betCountOf(bets), ending),
    },
  ];
  const perPlayer = new Map<string, { staked: number; paid: number; commission: number }>();
  for (const [playerId, staked] of stakes) perPlayer.set(playerId, { staked, paid: 0, commission: 0 });
  const entry = (playerId: string) => {
    let p = perPlayer.get(playerId);
    if (!p) perPlayer.set(playerId, (p = { staked: 0, paid: 0, commission: 0 }));
    return p;
  };
  for (const st of ending.settlements) {
    const p = entry(st.playerId);
    p.paid += st.paid;
    p.commission += st.commission;
  }
  for (const r of ending.void?.returned ?? []) entry(r.playerId).paid += r.amount;
  for (const [playerId, p] of perPlayer) {
    writes.push({
      kind: 'upsert',
      table: HH_HAND_PLAYERS,
      row: {
        table_id: s.tableId,
        round_no: h.roundNo,
        player_id: playerId,
        staked: p.staked,
        paid: p.paid,
        commission: p.commission,
        net: p.paid - p.staked,
      },
    });
  }
  return writes;
}

function endAt(e: ProjectionEvent, count: number): SpanEnd {
  return { position: e.position, revision: e.revision, hash: e.hash, count };
}

/** `once(state, e, step)`, inlined: the step always returns a new state, so it stamps the position itself. */
function evolveHands(state: HandHistoryState, e: ProjectionEvent): Evolution<HandHistoryState> {
  if (e.position <= state.position) return only(state);
  return evolveHandsStep(state, e);
}

function evolveHandsStep(s: HandHistoryState, e: ProjectionEvent): Evolution<HandHistoryState> {
  const before = s.table;
  const table = tableAfter(before, e);
  const ev = e.event;
  // a state stored before bets were chunked (flat `bets`) is converted here, see LegacyOpenHand
  let hand = currentHand(s.hand);
  let handEnd = s.handEnd === null ? null : endAt(e, s.handEnd.count + 1);
  let shoe = s.shoe;
  let nextSnapshot = s.snapshot;
  const writes: Write[] = [];
  switch (ev.type) {
    case 'ShoeStarted': {
      const d = ev.data;
      shoe = {
        shoeNo: d.shoeNo,
        dealing: d.dealing,
        shuffle: d.shuffle,
        decks: d.decks,
        length: d.length,
        commitment: d.commitment,
        seed: null,
        burnCard: d.burnCard,
        burnCount: d.burnCount,
        firstCoupIndex: d.firstCoupIndex,
        cutCard: d.cutCard,
        startedAt: d.at,
        startedBy: d.by,
        startedPosition: e.position,
        startedRevision: e.revision,
        startedPrevHash: e.prevHash,
        startedHash: e.hash,
        endedAt: null,
        endReason: null,
        endedPosition: null,
        endedRevision: null,
        endedPrevHash: null,
        endedHash: null,
        coups: 0,
        voids: 0,
        firstRound: null,
        lastRound: null,
      };
      writes.push(shoeRow(s.tableId, shoe));
      break;
    }
    case 'ShoeEnded': {
      const d = ev.data;
      if (shoe !== null && shoe.shoeNo === d.shoeNo) {
        shoe = {
          ...shoe,
          seed: d.seed,
          endedAt: d.at,
          endReason: d.reason,
          endedPosition: e.position,
          endedRevision: e.revision,
          endedPrevHash: e.prevHash,
          endedHash: e.hash,
        };
        writes.push(shoeRow(s.tableId, shoe));
      }
      break;
    }
    case 'BettingOpened': {
      const d = ev.data;
      if (hand !== null) {
        // cannot come from decide: keep what was recorded of the unfinished hand
        writes.push({
          kind: 'upsert',
          table: HH_HANDS,
          row: openHandRow(s.tableId, hand, s.handEnd ?? endAt(e, 1)),
        });
      }
      let snapshot = s.snapshot;
      if (
        snapshot === null ||
        d.roundNo - snapshot.roundNo >= SNAPSHOT_EVERY ||
        d.roundNo <= snapshot.roundNo
      ) {
        snapshot = { roundNo: d.roundNo, revision: e.revision };
        writes.push({
          kind: 'upsert',
          table: HH_HAND_STATES,
          row: { table_id: s.tableId, round_no: d.roundNo, state_json: json(before) },
        });
      }
      hand = {
        roundNo: d.roundNo,
        shoeNo: d.shoeNo,
        status: 'betting',
        openedAt: d.at,
        openedBy: d.by,
        deadline: d.deadline,
        closedAt: null,
        closedHow: null,
        closedBy: null,
        dealer: null,
        betLog: EMPTY_LOG,
        cards: [],
        corrections: [],
        firstPosition: e.position,
        firstRevision: e.revision,
        firstPrevHash: e.prevHash,
        replayRound: snapshot.roundNo,
        replayRevision: snapshot.revision,
      };
      nextSnapshot = snapshot;
      handEnd = endAt(e, 1);
      if (shoe !== null && shoe.shoeNo === d.shoeNo) {
        shoe = { ...shoe, firstRound: shoe.firstRound ?? d.roundNo, lastRound: d.roundNo };
        writes.push(shoeRow(s.tableId, shoe));
      }
      break;
    }
    case 'BetPlaced': {
      const d = ev.data;
      if (hand !== null && hand.roundNo === d.roundNo) {
        const bet: BetEntry = {
          kind: 'bet',
          playerId: d.playerId,
          spot: d.spot,
          amount: d.amount,
          cleared: null,
          rebet: d.rebet,
          at: d.at,
          by: d.by,
          role: d.role,
          position: e.position,
        };
        hand = handWith(hand, { betLog: appendBet(hand.betLog, bet) });
      }
      break;
    }
    case 'BetsCleared': {
      const d = ev.data;
      if (hand !== null && hand.roundNo === d.roundNo) {
        const clear: BetEntry = {
          kind: 'clear',
          playerId: d.playerId,
          spot: null,
          amount: d.returned,
          cleared: d.bets,
          rebet: false,
          at: d.at,
          by: d.by,
          role: d.role,
          position: e.position,
        };
        hand = handWith(hand, { betLog: appendBet(hand.betLog, clear) });
      }
      break;
    }
    case 'BettingClosed': {
      const d = ev.data;
      if (hand !== null && hand.roundNo === d.roundNo) {
        hand = handWith(hand, {
          status: 'dealing',
          closedAt: d.at,
          closedHow: d.by,
          closedBy: d.actorId,
        });
      }
      break;
    }
    case 'CardDealt': {
      const d = ev.data;
      if (hand !== null && hand.roundNo === d.roundNo) {
        const card: CardEntry = {
          index: d.index,
          card: d.card,
          to: d.to,
          slot: d.slot,
          shoePosition: d.shoePosition,
          at: d.at,
          by: d.by,
          role: d.role,
          position: e.position,
          correctedFrom: null,
        };
        hand = handWith(hand, { cards: [...hand.cards, card], dealer: hand.dealer ?? d.by });
      }
      break;
    }
    case 'CardCorrected': {
      const d = ev.data;
      if (hand !== null && hand.roundNo === d.roundNo) {
        const corrected = hand.cards.map((c, i) => (i === d.index ? d.newCard : c.card));
        const placed = placesOf(corrected);
        const cards = hand.cards.map((c, i) => ({
          ...c,
          ...placed[i],
          ...(i === d.index ? { card: d.newCard, correctedFrom: c.correctedFrom ?? d.oldCard } : {}),
        }));
        const correction: CorrectionEntry = {
          index: d.index,
          oldCard: d.oldCard,
          newCard: d.newCard,
          at: d.at,
          by: d.by,
          role: d.role,
          position: e.position,
        };
        hand = handWith(hand, { cards, corrections: [...hand.corrections, correction] });
      }
      break;
    }
    case 'CoupResolved': {
      const d = ev.data;
      if (hand !== null && hand.roundNo === d.roundNo) {
        writes.push(
          ...finish(s, hand, handEnd ?? endAt(e, 1), {
            status: 'resolved',
            at: d.at,
            outcome: d.outcome,
            natural: d.natural,
            playerCards: d.playerCards,
            bankerCards: d.bankerCards,
            playerTotal: d.playerTotal,
            bankerTotal: d.bankerTotal,
            settlements: d.settlements,
            commissionMode: d.commissionMode,
            void: null,
          }),
        );
        hand = null;
      }
      if (shoe !== null && shoe.shoeNo === d.shoeNo) {
        shoe = { ...shoe, coups: shoe.coups + 1 };
        writes.push(shoeRow(s.tableId, shoe));
      }
      break;
    }
    case 'RoundVoided': {
      const d = ev.data;
      if (hand !== null && hand.roundNo === d.roundNo) {
        const shoeNo = hand.shoeNo;
        writes.push(
          ...finish(s, hand, handEnd ?? endAt(e, 1), {
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
          }),
        );
        hand = null;
        if (shoe !== null && shoe.shoeNo === shoeNo) {
          shoe = { ...shoe, voids: shoe.voids + 1 };
          writes.push(shoeRow(s.tableId, shoe));
        }
      }
      break;
    }
    default:
      break;
  }
  if (hand === null) handEnd = null;
  return {
    // written out (not `...s`): the state's fields in order, once per event
    state: {
      position: e.position,
      tableId: s.tableId,
      table,
      hand,
      handEnd,
      shoe,
      snapshot: nextSnapshot,
    },
    writes,
  };
}

/** The open hand's row (rewritten once per batch while the hand is in progress). */
function materializeHands(state: HandHistoryState): Write[] {
  const hand = currentHand(state.hand);
  if (hand === null || state.handEnd === null) return [];
  return [{ kind: 'upsert', table: HH_HANDS, row: openHandRow(state.tableId, hand, state.handEnd) }];
}

/** Whether the SQLite file keeps this open hand's bets in {@link HH_OPEN_BETS} (more than INLINE_CHUNKS chunks). */
const betsInRows = (h: OpenHand | null): h is OpenHand =>
  h !== null && h.betLog.chunks.length > INLINE_CHUNKS;

/** The bet log as stored in hh_state when its entries are in hh_open_bets: how many full chunks are there. */
interface StoredRowsLog {
  readonly chunks: readonly [];
  readonly tail: readonly [];
  readonly inRows: number;
}

const openBetsRow = (
  tableId: string,
  roundNo: number,
  chunkNo: number,
  entries: readonly BetEntry[],
): Write => ({
  kind: 'upsert',
  table: HH_OPEN_BETS,
  row: { table_id: tableId, round_no: roundNo, chunk_no: chunkNo, entries_json: json(entries) },
});

/**
 * The SQLite runner's storage of the hand history (see {@link StateStorage}): an open hand with up to
 * {@link INLINE_CHUNKS} full chunks of bets is stored whole, as `materialize` writes it (its row with every bet,
 * its state with the whole log). Past that, its bets go to {@link HH_OPEN_BETS}: each full chunk once (it never
 * changes), the tail in the row after them, rewritten per batch; its hh_hands row has bets_json NULL and its
 * state the number of chunks in rows instead of the log. A batch then writes the new chunks, a tail of under
 * 64, the hand's row and the state, whatever the round's size (the row's players and stakes come from the
 * log's summary). When the hand ends its rows are deleted in the batch that writes its finished row (with
 * every bet, from evolve).
 */
export const handHistoryStorage: StateStorage<HandHistoryState> = {
  rowsTable: HH_OPEN_BETS,
  keyColumn: 'table_id',
  save(state) {
    const hand = state.hand;
    if (!betsInRows(hand)) return state;
    const log: StoredRowsLog = { chunks: [], tail: [], inRows: hand.betLog.chunks.length };
    return { ...state, hand: { ...hand, betLog: log } };
  },
  load(stored, rows) {
    const s = stored as HandHistoryState;
    const h = s.hand as OpenHand | LegacyOpenHand | null;
    const log = h !== null && 'betLog' in h ? (h.betLog as unknown as Partial<StoredRowsLog>) : null;
    if (h !== null && log !== null && typeof log.inRows === 'number') {
      const k = log.inRows;
      const chunks: BetEntry[][] = [];
      let tail: BetEntry[] = [];
      for (const r of rows) {
        const c = r['chunk_no'];
        if (r['round_no'] !== h.roundNo || typeof c !== 'number' || c < 0 || c > k) continue;
        const entries = JSON.parse(String(r['entries_json'])) as BetEntry[];
        if (c === k) tail = entries;
        else chunks[c] = entries;
      }
      let found = 0;
      for (let c = 0; c < k; c++) if (chunks[c] !== undefined) found += 1;
      if (found !== k)
        throw new Error(
          `${HH_OPEN_BETS}: ${chunks.length} chunks of round ${h.roundNo} stored, expected ${k}`,
        );
      const state: HandHistoryState = {
        ...s,
        hand: handWith(h as OpenHand, { betLog: betLogFrom(chunks, tail) }),
      };
      return { state, written: state };
    }
    // stored whole (or in an older shape: converted)
    const hand = currentHand(h);
    const state = hand === h ? s : { ...s, hand };
    // a whole hand past INLINE_CHUNKS (stored by older code) has no rows yet: unknown, written in full next
    return { state, written: betsInRows(hand) ? null : state };
  },
  materialize(state, written) {
    const writes: Write[] = [];
    const hand = currentHand(state.hand);
    const before = written === null ? null : currentHand(written.hand);
    const stored = betsInRows(before) ? before.betLog.chunks.length : 0; // rows 0..stored (the last: a tail)
    const sameHand = before !== null && hand !== null && before.roundNo === hand.roundNo;
    if (before !== null && stored > 0 && !sameHand) {
      for (let c = 0; c <= stored; c++) {
        writes.push({
          kind: 'delete',
          table: HH_OPEN_BETS,
          key: { table_id: state.tableId, round_no: before.roundNo, chunk_no: c },
        });
      }
    }
    if (hand === null || state.handEnd === null) return writes;
    if (!betsInRows(hand)) {
      writes.push({ kind: 'upsert', table: HH_HANDS, row: openHandRow(state.tableId, hand, state.handEnd) });
      return writes;
    }
    const chunks = hand.betLog.chunks;
    for (let c = sameHand ? stored : 0; c < chunks.length; c++)
      writes.push(openBetsRow(state.tableId, hand.roundNo, c, chunks[c] as readonly BetEntry[]));
    writes.push(openBetsRow(state.tableId, hand.roundNo, chunks.length, hand.betLog.tail));
    writes.push({
      kind: 'upsert',
      table: HH_HANDS,
      row: openHandRow(state.tableId, hand, state.handEnd, false),
    });
    return writes;
  },
  logical(tables) {
    const entries = new Map<string, BetEntry[]>();
    const rows = [...(tables[HH_OPEN_BETS] ?? [])].sort(
      (a, b) =>
        byId(String(a['table_id']), String(b['table_id'])) ||
        Number(a['round_no']) - Number(b['round_no']) ||
        Number(a['chunk_no']) - Number(b['chunk_no']),
    );
    for (const r of rows) {
      const key = `${String(r['table_id'])}\u0000${String(r['round_no'])}`;
      let list = entries.get(key);
      if (list === undefined) entries.set(key, (list = []));
      list.push(...(JSON.parse(String(r['entries_json'])) as BetEntry[]));
    }
    const hands = (tables[HH_HANDS] ?? []).map((r) => {
      const list = entries.get(`${String(r['table_id'])}\u0000${String(r['round_no'])}`);
      return r['bets_json'] === null && list !== undefined ? { ...r, bets_json: json(list) } : r;
    });
    return { ...tables, [HH_HANDS]: hands, [HH_OPEN_BETS]: [] };
  },
};

export const handHistoryProjection: ProjectionModel<HandHistoryState> = {
  name: 'hand-history',
  prefix: 'hh',
  version: 1,
  description:
    'One record per coup: bets, cards, result, settlements, voids, event span and chain hashes; shoes.',
  tables,
  keyOf: byTable,
  initial: (tableId) => ({
    position: 0,
    tableId,
    table: initialState,
    hand: null,
    handEnd: null,
    shoe: null,
    snapshot: null,
  }),
  evolve: evolveHands,
  materialize: materializeHands,
  storage: handHistoryStorage,
};
