/**
 * The bet catalogue: every spot a table can offer, the game modes, the named paytables, and what each bet pays
 * on a coup. One definition serves settlement (cents), the exact odds (rationals) and the simulator, so a bet
 * type is added here and nowhere else in the rules.
 *
 * A payout is a rational `num / den` to 1. Settlement in cents rounds the winnings DOWN to the whole cent
 * (`floor(amount * num / den)`), the casino's usual rule for fractional odds (0.54:1, 1.5:1, the no-commission
 * banker 6's 1:2); the banker's 5% commission keeps its own rule (`commissionFor`).
 */
import { type Card, cardValue, rankOf } from './cards';
import type { CoupResult, Outcome } from './coup';
import { EngineError, describeInput } from './errors';

/** How banker wins are paid: the 5% commission game, no commission with a half-paid banker 6, or EZ Baccarat. */
export type GameMode = 'commission' | 'no-commission' | 'ez';
/** The game modes, in display order. */
export const GAME_MODES: readonly GameMode[] = ['commission', 'no-commission', 'ez'];

/** The three main spots. */
export const MAIN_SPOTS = ['player', 'banker', 'tie'] as const;
/** A main spot. */
export type MainSpot = (typeof MAIN_SPOTS)[number];

/** Every side bet, in display order. */
export const SIDE_SPOTS = [
  'playerPair',
  'bankerPair',
  'eitherPair',
  'perfectPair',
  'big',
  'small',
  'playerDragon',
  'bankerDragon',
  'dragon7',
  'panda8',
  'super6',
] as const;
/** A side bet's spot. */
export type SideSpot = (typeof SIDE_SPOTS)[number];

/** A betting spot: a main spot or a side bet. */
export type Spot = MainSpot | SideSpot;
/** Every spot, main spots first, in display order. */
export const ALL_SPOTS: readonly Spot[] = [...MAIN_SPOTS, ...SIDE_SPOTS];

/** How a bet ends on a coup: a win paying `num / den` to 1, a push, or a loss. */
export type Payout =
  | { readonly result: 'win'; readonly num: number; readonly den: number; readonly commission: boolean }
  | { readonly result: 'push' }
  | { readonly result: 'lose' };

/** The facts of a coup that decide every bet. */
export interface CoupFeatures {
  readonly outcome: Outcome;
  readonly playerTotal: number;
  readonly bankerTotal: number;
  /** Cards in each hand: 2 or 3. */
  readonly playerCards: number;
  readonly bankerCards: number;
  /** Whether that hand's first two cards total 8 or 9. */
  readonly playerNatural: boolean;
  readonly bankerNatural: boolean;
  /** Whether that hand's first two cards are of one rank; of one rank and suit. */
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
  readonly playerPerfectPair: boolean;
  readonly bankerPerfectPair: boolean;
}

/** The payout rules of a table: mode, tie payout, commission handling, and the paytable of each side bet offered. */
export interface PayoutRules {
  /** The game mode; `commission` when absent (every table before side bets). */
  readonly game?: GameMode;
  /** What a winning tie bet pays, to 1. */
  readonly tiePays: 8 | 9;
  /** Commission game only: the 5% taken from the win (`deducted`) or owed to the commission box (`box`). */
  readonly commission: 'deducted' | 'box';
  /** The paytable name of each side bet (its default when absent). */
  readonly paytables?: Readonly<Partial<Record<SideSpot, string>>>;
}

/** What a side bet's paytable pays; the shape depends on the bet. */
interface SideBetDefinition {
  /** A short name for people. */
  readonly label: string;
  /** The paytables by name; the first is the default. */
  readonly paytables: Readonly<Record<string, readonly number[]>>;
  /** The modes whose tables may offer it (every mode when absent). */
  readonly modes?: readonly GameMode[];
  /** Offered only where the shoe is dealt down (not on a fresh shuffle per coup). */
  readonly shoeOnly?: boolean;
  /** The fewest decks it can be offered with (a Perfect Pair needs two copies of a card). */
  readonly minDecks?: number;
  /** The payout on a coup, given the paytable's numbers. */
  readonly pays: (f: CoupFeatures, table: readonly number[]) => Payout;
}

const win = (num: number, den = 1): Payout => ({ result: 'win', num, den, commission: false });
const LOSE: Payout = { result: 'lose' };
const PUSH: Payout = { result: 'push' };

/**
 * Dragon Bonus on one hand: a natural win pays 1:1 and a natural tie pushes; a non-natural win by 9, 8, 7, 6, 5
 * or 4 points pays the paytable's entry (30, 10, 6, 4, 2, 1 to 1); anything else loses.
 */
function dragonBonus(f: CoupFeatures, hand: 'player' | 'banker', table: readonly number[]): Payout {
  const natural = hand === 'player' ? f.playerNatural : f.bankerNatural;
  const other = hand === 'player' ? f.bankerNatural : f.playerNatural;
  if (f.outcome === 'tie') return natural && other ? PUSH : LOSE;
  if (f.outcome !== hand) return LOSE;
  if (natural) return win(table[0] ?? 1);
  const margin = Math.abs(f.playerTotal - f.bankerTotal);
  // table[1..6] pay wins by 9, 8, 7, 6, 5, 4 points
  return margin >= 4 ? win(table[10 - margin] ?? 0) : LOSE;
}

/** The side bets: their paytables (named, the first is the default), where they may be offered, and what they pay. */
export const SIDE_BETS: Readonly<Record<SideSpot, SideBetDefinition>> = {
  playerPair: {
    label: 'Player Pair',
    paytables: { '11-to-1': [11] },
    pays: (f, t) => (f.playerPair ? win(t[0] ?? 0) : LOSE),
  },
  bankerPair: {
    label: 'Banker Pair',
    paytables: { '11-to-1': [11] },
    pays: (f, t) => (f.bankerPair ? win(t[0] ?? 0) : LOSE),
  },
  eitherPair: {
    label: 'Either Pair',
    paytables: { '5-to-1': [5] },
    pays: (f, t) => (f.playerPair || f.bankerPair ? win(t[0] ?? 0) : LOSE),
  },
  perfectPair: {
    label: 'Perfect Pair',
    // [either hand, both hands]
    paytables: { '25-to-1': [25, 25], '25-or-200-to-1': [25, 200] },
    minDecks: 2,
    pays: (f, t) =>
      f.playerPerfectPair && f.bankerPerfectPair
        ? win(t[1] ?? 0)
        : f.playerPerfectPair || f.bankerPerfectPair
          ? win(t[0] ?? 0)
          : LOSE,
  },
  big: {
    label: 'Big',
    // 0.54 to 1, as num / den
    paytables: { '0.54-to-1': [54, 100] },
    shoeOnly: true,
    pays: (f, t) => (f.playerCards + f.bankerCards >= 5 ? win(t[0] ?? 0, t[1] ?? 1) : LOSE),
  },
  small: {
    label: 'Small',
    paytables: { '1.5-to-1': [3, 2] },
    shoeOnly: true,
    pays: (f, t) => (f.playerCards + f.bankerCards === 4 ? win(t[0] ?? 0, t[1] ?? 1) : LOSE),
  },
  playerDragon: {
    label: 'Dragon Bonus Player',
    // [natural win, non-natural win by 9, 8, 7, 6, 5, 4]
    paytables: { standard: [1, 30, 10, 6, 4, 2, 1] },
    pays: (f, t) => dragonBonus(f, 'player', t),
  },
  bankerDragon: {
    label: 'Dragon Bonus Banker',
    paytables: { standard: [1, 30, 10, 6, 4, 2, 1] },
    pays: (f, t) => dragonBonus(f, 'banker', t),
  },
  dragon7: {
    label: 'Dragon 7',
    paytables: { '40-to-1': [40] },
    modes: ['ez'],
    pays: (f, t) => (isDragon7(f) ? win(t[0] ?? 0) : LOSE),
  },
  panda8: {
    label: 'Panda 8',
    paytables: { '25-to-1': [25] },
    modes: ['ez'],
    pays: (f, t) =>
      f.outcome === 'player' && f.playerCards === 3 && f.playerTotal === 8 ? win(t[0] ?? 0) : LOSE,
  },
  super6: {
    label: 'Super 6',
    paytables: { '12-to-1': [12], '15-to-1': [15] },
    modes: ['no-commission'],
    pays: (f, t) => (f.outcome === 'banker' && f.bankerTotal === 6 ? win(t[0] ?? 0) : LOSE),
  },
};

/** A banker win with a three-card 7 (EZ Baccarat's Dragon 7, which pushes banker bets). */
function isDragon7(f: CoupFeatures): boolean {
  return f.outcome === 'banker' && f.bankerCards === 3 && f.bankerTotal === 7;
}

/** Whether `x` names a spot. */
export function isSpot(x: unknown): x is Spot {
  return typeof x === 'string' && (ALL_SPOTS as readonly string[]).includes(x);
}

/** Whether `x` names a side bet. */
export function isSideSpot(x: unknown): x is SideSpot {
  return typeof x === 'string' && (SIDE_SPOTS as readonly string[]).includes(x);
}

/** The default paytable's name of a side bet. */
export function defaultPaytable(spot: SideSpot): string {
  return Object.keys(SIDE_BETS[spot].paytables)[0] ?? '';
}

/**
 * Why a side bet cannot be offered under these rules (a sentence), or null when it can: the mode must allow it,
 * shoe-only bets need a dealt-down shoe, some bets need enough decks to be winnable, and the paytable must exist.
 */
export function sideBetRefusal(
  spot: SideSpot,
  rules: {
    readonly game: GameMode;
    readonly shuffle: 'shoe' | 'every-coup';
    readonly paytable?: string;
    readonly decks?: number;
  },
): string | null {
  const def = SIDE_BETS[spot];
  if (def.modes && !def.modes.includes(rules.game)) {
    return `${def.label} is offered only on ${def.modes.join(' or ')} tables, not on a ${rules.game} table`;
  }
  if (def.minDecks !== undefined && rules.decks !== undefined && rules.decks < def.minDecks) {
    return `${def.label} needs at least ${def.minDecks} decks (with ${rules.decks} it can never win)`;
  }
  if (def.shoeOnly && rules.shuffle !== 'shoe') {
    return `${def.label} is offered only on shoe games, not with a fresh shuffle every coup`;
  }
  if (rules.paytable !== undefined && !Object.hasOwn(def.paytables, rules.paytable)) {
    return `${def.label} has no paytable ${describeInput(rules.paytable)}: expected one of ${Object.keys(def.paytables).join(', ')}`;
  }
  return null;
}

function pairOf(a: Card | undefined, b: Card | undefined): { pair: boolean; perfect: boolean } {
  if (a === undefined || b === undefined) return { pair: false, perfect: false };
  return { pair: rankOf(a) === rankOf(b), perfect: a === b };
}

/** The facts of a resolved coup that decide every bet. */
export function coupFeatures(coup: CoupResult): CoupFeatures {
  const [p1, p2] = coup.playerCards;
  const [b1, b2] = coup.bankerCards;
  const two = (a: Card | undefined, b: Card | undefined): number =>
    a === undefined || b === undefined ? 0 : (cardValue(a) + cardValue(b)) % 10;
  const player = pairOf(p1, p2);
  const banker = pairOf(b1, b2);
  return {
    outcome: coup.outcome,
    playerTotal: coup.playerTotal,
    bankerTotal: coup.bankerTotal,
    playerCards: coup.playerCards.length,
    bankerCards: coup.bankerCards.length,
    playerNatural: two(p1, p2) >= 8,
    bankerNatural: two(b1, b2) >= 8,
    playerPair: player.pair,
    bankerPair: banker.pair,
    playerPerfectPair: player.perfect,
    bankerPerfectPair: banker.perfect,
  };
}

/** The paytable numbers in force for a side bet. @throws EngineError `INVALID_ARGUMENT` for an unknown paytable. */
export function paytableOf(spot: SideSpot, rules: Pick<PayoutRules, 'paytables'>): readonly number[] {
  const name = rules.paytables?.[spot] ?? defaultPaytable(spot);
  const table = Object.hasOwn(SIDE_BETS[spot].paytables, name) ? SIDE_BETS[spot].paytables[name] : undefined;
  if (!table) {
    throw new EngineError(
      'INVALID_ARGUMENT',
      `${SIDE_BETS[spot].label} has no paytable ${describeInput(name)}`,
      {
        spot,
        paytable: name,
      },
    );
  }
  return table;
}

/**
 * What a bet on `spot` pays on a coup with these features, under these rules.
 * - player: 1:1; pushes on a tie.
 * - banker: commission game 1:1 less 5% commission; no-commission 1:1, a banker 6 pays 1:2; EZ 1:1, a three-card
 *   banker 7 pushes. Pushes on a tie.
 * - tie: `tiePays`:1.
 * - side bets: their paytable (see {@link SIDE_BETS}).
 * @throws EngineError `INVALID_ARGUMENT` for an unknown paytable.
 */
export function payoutOf(spot: Spot, f: CoupFeatures, rules: PayoutRules): Payout {
  switch (spot) {
    case 'tie':
      return f.outcome === 'tie' ? win(rules.tiePays) : LOSE;
    case 'player':
      return f.outcome === 'tie' ? PUSH : f.outcome === 'player' ? win(1) : LOSE;
    case 'banker': {
      if (f.outcome === 'tie') return PUSH;
      if (f.outcome === 'player') return LOSE;
      const game = rules.game ?? 'commission';
      if (game === 'commission') return { result: 'win', num: 1, den: 1, commission: true };
      if (game === 'no-commission') return f.bankerTotal === 6 ? win(1, 2) : win(1);
      return isDragon7(f) ? PUSH : win(1);
    }
    default:
      // whether the table may offer it is the table's rule (sideBetRefusal), checked when it opens
      return SIDE_BETS[spot].pays(f, paytableOf(spot, rules));
  }
}
