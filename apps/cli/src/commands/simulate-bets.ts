/**
 * `coup simulate`'s bets: the options that choose the game mode and the side bets, and the per-bet report
 * (each result's frequency against its exact probability, the money staked and paid, hold against edge).
 */
import {
  type BetTally,
  type BetZScores,
  type ExactBetOdds,
  GAME_MODES,
  type GameMode,
  SIDE_SPOTS,
  type SideSpot,
  type SimulatedBets,
  type SimulationResult,
  betZScores,
  exactBetOdds,
  isSideSpot,
  sideBetRefusal,
} from '@coup/engine';
import { grouped, percent, table } from '../format';
import { UsageError } from '../io';

/** The options that stake bets (any of them does). */
export const BET_OPTIONS = {
  game: { type: 'string' },
  'side-bets': { type: 'string' },
  'tie-pays': { type: 'integer', choices: [8, 9] },
  commission: { type: 'string' },
  stake: { type: 'integer', min: 1 },
} as const;

/** The usage lines of {@link BET_OPTIONS}. */
export const BET_USAGE = [
  '  --game MODE    stake bets on every coup in this game mode: commission, no-commission or ez',
  '                 (default commission); any of the options below stakes bets too',
  '  --side-bets L  the side bets offered, comma-separated: a bet, or bet=paytable, or all (every side',
  `                 bet the mode offers): ${SIDE_SPOTS.join(', ')}`,
  '  --tie-pays N   what a tie pays, 8 or 9 to 1 (default 8)',
  "  --commission C the banker's 5%: deducted (default) or box",
  '  --stake N      cents on each spot every coup (default 100: every payout exact, so the hold compares',
  '                 with the exact edge)',
];

interface BetOptionValues {
  readonly game: string | undefined;
  readonly 'side-bets': string | undefined;
  readonly 'tie-pays': number | undefined;
  readonly commission: string | undefined;
  readonly stake: number | undefined;
}

/** The side bets of `--side-bets`: each named (with its paytable when given), or every one the mode offers. */
function sideBetsOf(list: string, game: GameMode): Pick<SimulatedBets, 'sideBets' | 'paytables'> {
  const sideBets: SideSpot[] = [];
  const paytables: Partial<Record<SideSpot, string>> = {};
  const add = (spot: SideSpot) => sideBets.includes(spot) || sideBets.push(spot);
  for (const item of list.split(',').map((s) => s.trim())) {
    if (item === 'all') {
      SIDE_SPOTS.filter((s) => sideBetRefusal(s, { game, shuffle: 'shoe' }) === null).forEach(add);
      continue;
    }
    const [spot, paytable] = item.split('=', 2) as [string, string | undefined];
    if (!isSideSpot(spot)) {
      throw new UsageError(
        `option '--side-bets': unknown side bet '${spot}' (side bets: ${SIDE_SPOTS.join(', ')}, or all)`,
        'simulate',
      );
    }
    add(spot);
    if (paytable !== undefined) paytables[spot] = paytable;
  }
  return { sideBets, paytables };
}

/** The bets the options ask for, or undefined when none of {@link BET_OPTIONS} is given. */
export function betsOf(options: BetOptionValues): SimulatedBets | undefined {
  if (Object.keys(BET_OPTIONS).every((name) => options[name as keyof BetOptionValues] === undefined)) {
    return undefined;
  }
  const game = options.game ?? 'commission';
  if (!(GAME_MODES as readonly string[]).includes(game)) {
    throw new UsageError(`option '--game' must be ${GAME_MODES.join(', ')}, got '${game}'`, 'simulate');
  }
  const commission = options.commission ?? 'deducted';
  if (commission !== 'deducted' && commission !== 'box') {
    throw new UsageError(`option '--commission' must be deducted or box, got '${commission}'`, 'simulate');
  }
  return {
    game: game as GameMode,
    tiePays: options['tie-pays'] === 9 ? 9 : 8,
    commission,
    stake: options.stake ?? 100,
    ...(options['side-bets'] === undefined ? {} : sideBetsOf(options['side-bets'], game as GameMode)),
  };
}

type Staked = NonNullable<SimulationResult['bets']>;

/** The exact odds of the bets staked, and each bet's z-scores against them. */
export function betFigures(
  decks: number,
  bets: Staked,
): { exact: ExactBetOdds; z: ReadonlyMap<string, BetZScores> } {
  const { game, tiePays, paytables } = bets.rules;
  const spots = bets.tallies.map((t) => t.spot);
  const exact = exactBetOdds({ decks, game, tiePays: tiePays, paytables, spots });
  return { exact, z: new Map(betZScores(bets.tallies, exact.bets).map((z) => [z.spot, z])) };
}

const RESULTS = ['win', 'push', 'lose'] as const;

/**
 * One bet's report as JSON: the tally, each result's frequency, the exact odds, the hold and the z-scores (a
 * z-score that is infinite, for a result that cannot happen but did, is null).
 */
function betJson(t: BetTally, exact: ExactBetOdds, z: BetZScores | undefined) {
  const n = t.results.win + t.results.push + t.results.lose;
  const odds = exact.bets[t.spot];
  const finite = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? null : x);
  return {
    ...t,
    frequencies: Object.fromEntries(RESULTS.map((r) => [r, t.results[r] / n])),
    exact: { ...odds?.probabilities, houseEdge: odds?.houseEdge },
    hold: -t.net / t.staked,
    zScores: {
      ...Object.fromEntries([...RESULTS, 'return' as const].map((r) => [r, finite(z?.[r])])),
      payouts: z?.payouts.map((p) => ({ net: p.net, z: finite(p.z) })) ?? [],
    },
  };
}

/** The bets of a simulation as JSON: the rules, the stake, and each bet's report. */
export function betsJson(bets: Staked, exact: ExactBetOdds, z: ReadonlyMap<string, BetZScores>) {
  return {
    ...bets.rules,
    stake: bets.stake,
    spots: bets.tallies.map((t) => betJson(t, exact, z.get(t.spot))),
  };
}

const zText = (x: number | undefined): string => (x === undefined ? '' : x.toFixed(2));

/** The bets of a simulation as text: each result's frequency beside its exact probability, then the money. */
export function betsText(bets: Staked, exact: ExactBetOdds, z: ReadonlyMap<string, BetZScores>): string {
  const { game, tiePays, commission } = bets.rules;
  const name = (t: BetTally) => (t.paytable === null ? t.spot : `${t.spot} ${t.paytable}`);
  const frequencyCells = (t: BetTally, r: 'win' | 'push'): string[] => {
    const n = t.results.win + t.results.push + t.results.lose;
    const p = exact.bets[t.spot]?.probabilities[r];
    return [(t.results[r] / n).toFixed(6), p === undefined ? '' : p.toFixed(6), zText(z.get(t.spot)?.[r])];
  };
  return [
    `Bets: ${grouped(bets.stake)} cents on each spot every coup, ${game} game, tie pays ${tiePays} to 1${game === 'commission' ? `, commission ${commission}` : ''}`,
    '',
    table(
      [
        ['', 'win', 'exact', 'z', 'push', 'exact', 'z'],
        ...bets.tallies.map((t) => [name(t), ...frequencyCells(t, 'win'), ...frequencyCells(t, 'push')]),
      ],
      [false, true, true, true, true, true, true],
    ),
    '',
    table(
      [
        ['', 'staked', 'paid', 'commission', 'net', 'hold', 'edge', 'z'],
        ...bets.tallies.map((t) => {
          const edge = exact.bets[t.spot]?.houseEdge;
          return [
            name(t),
            grouped(t.staked),
            grouped(t.paid),
            grouped(t.commission),
            grouped(t.net),
            percent(-t.net / t.staked),
            edge === undefined ? '' : percent(edge),
            zText(z.get(t.spot)?.return),
          ];
        }),
      ],
      [false, true, true, true, true, true, true, true],
    ),
    '',
    "Money in cents: paid includes the stakes returned; net is the players' result (less any commission owed to",
    'the box); hold is -net / staked, beside the exact house edge; z compares the net with the exact expectation.',
  ].join('\n');
}
