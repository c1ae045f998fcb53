import { type SimulatedBets, exactOdds, simulate as runSimulation, simulationZScores } from '@coup/engine';
import { performance } from 'node:perf_hooks';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { grouped, table } from '../format';
import { EXIT, type CliIo } from '../io';
import { BET_OPTIONS, BET_USAGE, betFigures, betsJson, betsOf, betsText } from './simulate-bets';

const OPTIONS = {
  decks: { type: 'integer', min: 1, max: 8, default: 8 },
  shoes: { type: 'integer', min: 1, default: 1000 },
  seed: { type: 'string', default: '1' },
  'cut-card': { type: 'integer', min: 12, default: 16 },
  'no-burn': { type: 'boolean' },
  json: { type: 'boolean' },
  ...BET_OPTIONS,
} as const;

const BAR_WIDTH = 30;

/** A progress bar on stderr, redrawn when the percentage changes, erased at the end. */
function progressBar(io: CliIo): { update(done: number, total: number): void; clear(): void } {
  let shown = -1;
  return {
    update(done, total) {
      const pct = Math.floor((100 * done) / total);
      if (pct === shown) return;
      shown = pct;
      const filled = Math.round((BAR_WIDTH * done) / total);
      io.stderr.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${pct}% ${grouped(done)}/${grouped(total)} shoes`,
      );
    },
    clear() {
      if (shown >= 0) io.stderr.write('\r\x1b[K');
    },
  };
}

/** What a simulation was asked for. */
interface Setup {
  readonly decks: number;
  readonly shoes: number;
  readonly seed: string;
  readonly cutCard: number;
  readonly burn: boolean;
  /** The bets staked on every coup, if any. */
  readonly bets: SimulatedBets | undefined;
}

type Simulation = ReturnType<typeof runSimulation>;
type Exact = ReturnType<typeof exactOdds>;
type ZScores = ReturnType<typeof simulationZScores>;

/** Plays the shoes (with a progress bar on a terminal) and times it. */
function playShoes(setup: Setup, io: CliIo): { result: Simulation; seconds: number } {
  const bar = io.isTTY ? progressBar(io) : undefined;
  const started = performance.now();
  let result;
  try {
    result = runSimulation({
      decks: setup.decks,
      shoes: setup.shoes,
      seed: setup.seed,
      cutCard: setup.cutCard,
      burn: setup.burn,
      bets: setup.bets,
      onProgress: bar === undefined ? undefined : (done, total) => bar.update(done, total),
    });
  } finally {
    bar?.clear();
  }
  return { result, seconds: (performance.now() - started) / 1000 };
}

/** The bets staked, as JSON, with their exact odds and z-scores. */
function stakedJson(decks: number, bets: NonNullable<Simulation['bets']>) {
  const { exact, z } = betFigures(decks, bets);
  return betsJson(bets, exact, z);
}

/** The JSON output: no timing, so a seed always gives the same output. */
function simulationJson(setup: Setup, result: Simulation, exact: Exact, z: ZScores): string {
  const n = result.coups;
  const json = {
    decks: result.decks,
    shoes: result.shoes,
    seed: setup.seed,
    cutCard: setup.cutCard,
    burn: setup.burn,
    coups: n,
    outcomes: result.outcomes,
    naturals: result.naturals,
    pairs: result.pairs,
    handsPerShoe: result.handsPerShoe,
    frequencies: {
      player: result.outcomes.player / n,
      banker: result.outcomes.banker / n,
      tie: result.outcomes.tie / n,
      natural: result.naturals / n,
      playerPair: result.pairs.player / n,
      bankerPair: result.pairs.banker / n,
    },
    exact: {
      player: exact.probabilities.player,
      banker: exact.probabilities.banker,
      tie: exact.probabilities.tie,
      natural: exact.natural,
      playerPair: exact.pairs.player,
      bankerPair: exact.pairs.banker,
    },
    zScores: z,
    ...(result.bets === undefined ? {} : { bets: stakedJson(result.decks, result.bets) }),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** The text output: counts, frequencies, exact probabilities and z-scores per bet, and the timing. */
function simulationText(setup: Setup, result: Simulation, exact: Exact, z: ZScores, seconds: number): string {
  const n = result.coups;
  const rows: [string, number, number, number][] = [
    ['banker', result.outcomes.banker, exact.probabilities.banker, z.banker],
    ['player', result.outcomes.player, exact.probabilities.player, z.player],
    ['tie', result.outcomes.tie, exact.probabilities.tie, z.tie],
    ['natural', result.naturals, exact.natural, z.natural],
    ['player pair', result.pairs.player, exact.pairs.player, z.playerPair],
    ['banker pair', result.pairs.banker, exact.pairs.banker, z.bankerPair],
  ];
  const rate = seconds > 0 ? ` (${(n / seconds / 1e6).toFixed(1)} million coups a second)` : '';
  const lines = [
    `Simulated ${grouped(result.shoes)} shoe${result.shoes === 1 ? '' : 's'} of ${result.decks} deck${result.decks === 1 ? '' : 's'}, seed ${JSON.stringify(setup.seed)}, ${setup.burn ? 'burn' : 'no burn'}, cut card ${setup.cutCard} from the end`,
    `${grouped(n)} coups in ${seconds.toFixed(2)} s${rate}`,
    '',
    table(
      [
        ['', 'count', 'frequency', 'exact', 'z'],
        ...rows.map(([name, count, p, zz]) => [
          name,
          grouped(count),
          (count / n).toFixed(6),
          p.toFixed(6),
          zz.toFixed(2),
        ]),
      ],
      [false, true, true, true, true],
    ),
    '',
    `coups per shoe: min ${result.handsPerShoe.min}, mean ${result.handsPerShoe.mean.toFixed(2)}, max ${result.handsPerShoe.max}`,
    'z is (count - n p) / sqrt(n p (1 - p)): within about 2 either way for 95% of seeds.',
  ];
  if (result.bets !== undefined) {
    const { exact, z: betZ } = betFigures(result.decks, result.bets);
    lines.push('', betsText(result.bets, exact, betZ));
  }
  return `${lines.join('\n')}\n`;
}

/** `coup simulate`: play whole shoes from a seed and compare with the exact odds. */
export const simulate: Command = {
  name: 'simulate',
  summary: 'play whole shoes (burn, cut card) from a seed and compare with the exact odds',
  usage: [
    'coup simulate [--decks 8] [--shoes 1000] [--seed S] [--cut-card 16] [--no-burn] [--json]',
    '              [--game MODE] [--side-bets L] [--tie-pays 8|9] [--commission C] [--stake N]',
    '',
    '  --decks N      decks per shoe, 1 to 8 (default 8)',
    '  --shoes N      shoes to play (default 1000; about 81 coups each with 8 decks)',
    '  --seed S       any text; the same seed gives the same result (default 1)',
    '  --cut-card N   cards behind the cut card (default 16)',
    '  --no-burn      start each shoe at its first card instead of burning',
    '  --json         print JSON (counts, frequencies, exact probabilities, z-scores); no timing, so a',
    '                 seed always gives the same output',
    ...BET_USAGE,
    '',
    'Examples: --game ez --side-bets all; --game no-commission --side-bets super6=15-to-1,perfectPair.',
    'A progress bar is drawn on stderr when it is a terminal.',
  ].join('\n'),
  run(args, io) {
    const { options } = parseArgs('simulate', args, OPTIONS);
    const setup: Setup = {
      decks: options.decks,
      shoes: options.shoes,
      seed: options.seed,
      cutCard: options['cut-card'],
      burn: !options['no-burn'],
      bets: betsOf(options),
    };
    const { result, seconds } = playShoes(setup, io);
    const exact = exactOdds({ decks: options.decks });
    const z = simulationZScores(result, exact);
    io.stdout.write(
      options.json
        ? simulationJson(setup, result, exact, z)
        : simulationText(setup, result, exact, z, seconds),
    );
    return EXIT.ok;
  },
};
