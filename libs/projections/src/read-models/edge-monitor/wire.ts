/** What the edge monitor's queries and `shoeOddsBefore` answer (JSON over the API): types only. */
import type { GameMode, Spot } from '@coup/engine';

/** One bet's exact value on a remaining shoe, as the monitor keeps it. */
export interface EdgeBetValue {
  readonly spot: Spot;
  /** A side bet's paytable, else null. */
  readonly paytable: string | null;
  /** Expected value per unit staked, pushes included: positive favours the player. */
  readonly ev: number;
  /** `ev` exactly: `numerator/denominator`. */
  readonly evExact: string;
  readonly win: number;
  readonly push: number;
  readonly lose: number;
}

/** A monitored table now: every offered bet's value for the next round (or the one open). */
export interface EdgeTableView {
  readonly tableId: string;
  /** null between shoes (then no values). */
  readonly shoeNo: number | null;
  readonly roundNo: number | null;
  /** Coups resolved from the shoe before that round. */
  readonly coupInShoe: number | null;
  readonly cardsSeen: number | null;
  readonly cardsLeft: number | null;
  readonly computedAt: string | null;
  readonly position: number | null;
  /** The bets that favour the player now. */
  readonly favourable: EdgeBetValue[];
  readonly values: EdgeBetValue[];
}

/** "Favourable now": the monitored tables where a bet favours the player (or the one table asked about). */
export interface EdgeNowView {
  readonly tables: EdgeTableView[];
}

/** What one player staked on a bet while it was favourable. */
export interface EdgeWager {
  readonly playerId: string;
  readonly bets: number;
  readonly staked: number;
  readonly paid: number;
  readonly net: number;
}

/** A bet that favoured the player when a round opened, and what was wagered on it in that round. */
export interface EdgeAlert {
  readonly tableId: string;
  readonly roundNo: number;
  readonly shoeNo: number;
  readonly coupInShoe: number;
  readonly cardsSeen: number;
  readonly cardsLeft: number;
  readonly spot: Spot;
  readonly paytable: string | null;
  readonly ev: number;
  readonly evExact: string;
  readonly winProbability: number;
  readonly computedAt: string;
  readonly openedAt: string;
  readonly position: number;
  /** Everyone's stakes on it in that round. */
  readonly wagered: Omit<EdgeWager, 'playerId'>;
  readonly players: EdgeWager[];
}

export interface EdgeReportFilter {
  readonly tableId?: string;
  /** Only these tables (a token limited to some tables: its own); an empty list, none. */
  readonly tables?: readonly string[];
  /** UTC days YYYY-MM-DD of the round's opening, inclusive. */
  readonly from?: string;
  readonly to?: string;
  /** Only this bet. */
  readonly spot?: string;
}

/** The analyst's report: alerts (oldest first, paged), and over the whole filter the totals and each player's. */
export interface EdgeReport {
  readonly filter: EdgeReportFilter;
  readonly alerts: EdgeAlert[];
  readonly nextCursor: string | null;
  /** Over every alert of the filter (not only this page). */
  readonly totals: { readonly alerts: number } & Omit<EdgeWager, 'playerId'>;
  /** Per player over every alert of the filter, most staked first: `alerts` is how many of them it bet on. */
  readonly players: (EdgeWager & { readonly alerts: number })[];
}

/** One bet's exact odds before a round. */
export interface ShoeBetOdds {
  readonly spot: Spot;
  readonly label: string;
  readonly paytable: string | null;
  readonly ev: number;
  readonly evExact: string;
  readonly houseEdge: number;
  readonly favourable: boolean;
  readonly probabilities: { readonly win: number; readonly push: number; readonly lose: number };
  /** Each way it can end, best first: 'win' with its odds ('30:1'), 'push', 'lose'. */
  readonly results: {
    readonly result: 'win' | 'push' | 'lose';
    readonly pays: string | null;
    readonly probability: number;
  }[];
}

/** The odds of each bet the table offers before a round, from the cards seen in its shoe before it. */
export interface ShoeOdds {
  readonly shoeNo: number;
  readonly roundNo: number;
  /** Coups resolved from the shoe before the round (the round deals coup coupInShoe + 1). */
  readonly coupInShoe: number;
  readonly cardsSeen: number;
  readonly cardsLeft: number;
  readonly game: GameMode;
  readonly tiePays: 8 | 9;
  /** The unseen cards by card (none left: omitted). */
  readonly remaining: Readonly<Record<string, number>>;
  readonly bets: ShoeBetOdds[];
}
