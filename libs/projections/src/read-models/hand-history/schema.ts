/** The hand history's tables (`hh_`): names, sizes and definitions. */
import { type TableDef, int, text } from '../kernel/types';

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

/**
 * Bets per chunk of a bet log (see bet-log.ts). Appending a bet copies the tail (under this many entries) and, once
 * in this many appends, the list of full chunks: about BET_CHUNK / 2 + n / BET_CHUNK² entries per bet for a hand
 * of n bets, instead of n when the whole list was copied.
 */
export const BET_CHUNK = 64;

/**
 * Full chunks of bets an open hand keeps inline in the SQLite file (in its hh_hands row's bets_json and its
 * hh_state), rewritten once per batch: up to 16 x 64 = 1,024 bets (plus the tail). Beyond, its bets are kept in
 * {@link HH_OPEN_BETS}, one row per chunk written once, so that a batch costs the same however many bets the
 * round has (see `handHistoryStorage` (sqlite/storage.ts)).
 */
export const INLINE_CHUNKS = 16;

export const handHistoryTables: readonly TableDef[] = [
  {
    name: HH_HANDS,
    doc: 'One row per hand (round): bets, cards, result, settlements, void, the corrections or void of the coup after it settled, and the event span it covers.',
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
      text(
        'resolved_at',
        'When the coup resolved (a correction after it settled keeps it) or the round was voided (ISO)',
      ),
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
        `Every bet and clear in order: [{kind, playerId, spot, amount, cleared, rebet, paytable (side bets), at, by, role, position}] (NULL while an open hand has more than ${INLINE_CHUNKS * BET_CHUNK}: they are in ${HH_OPEN_BETS} then)`,
      ),
      text(
        'settlements_json',
        'Settlements as recorded: [{playerId, spot, amount, result, paid, commission, paytable (side bets)}]',
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
      int(
        'amendments',
        'Corrections and voids of the coup after it settled (0: it stands as dealt); the row then shows the last',
      ),
      text(
        'amendments_json',
        "Each, in order: [{kind: 'correction', index, oldCard, newCard, outcome, natural, playerCards, bankerCards, playerTotal, bankerTotal, settlements, reversed, reason, at, by, role, position} | {kind: 'void', returned, reversed, reason, at, by, role, position}] (reversed: the settlement in force it reversed)",
      ),
      text(
        'original_json',
        'The coup as it first settled, once amended: {outcome, natural, playerCards, bankerCards, playerTotal, bankerTotal, settlements, at, by, position}; else NULL',
      ),
      int('first_position', 'Global position of the first event of the hand (BettingOpened)'),
      int(
        'last_position',
        'Global position of the last event of the hand so far (the last correction or void of the settled coup)',
      ),
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
        'The entries, as in bets_json: [{kind, playerId, spot, amount, cleared, rebet, paytable (side bets), at, by, role, position}]',
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
