import {
  type BetOdds,
  type ExactBetOdds,
  GAME_MODES,
  type GameMode,
  type Payout,
  type SideSpot,
  exactBetOdds,
  exactOdds,
  isSideSpot,
  sideBetRefusal,
} from '@coup/engine';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { grouped, percent, table } from '../format';
import { EXIT, UsageError } from '../io';

const OPTIONS = {
  decks: { type: 'integer', min: 1, max: 8, default: 8 },
  'tie-pays': { type: 'integer', choices: [8, 9], default: 8 },
  game: { type: 'string' },
  paytable: { type: 'string' },
  json: { type: 'boolean' },
} as const;

type Odds = ReturnType<typeof exactOdds>;

/** The game mode named by `--game`, commission when absent. */
function gameOf(raw: string | undefined): GameMode {
  if (raw === undefined) return 'commission';
  if (!(GAME_MODES as readonly string[]).includes(raw)) {
    throw new UsageError(`option '--game' must be ${GAME_MODES.join(', ')}, got '${raw}'`, 'odds');
  }
  return raw as GameMode;
}

/** `--paytable spot=name[,spot=name...]` as a record (the engine checks the names). */
function paytablesOf(raw: string | undefined): Partial<Record<SideSpot, string>> {
  const paytables: Partial<Record<SideSpot, string>> = {};
  for (const part of raw === undefined ? [] : raw.split(',')) {
    const [spot, name, ...rest] = part.split('=');
    if (spot === undefined || !isSideSpot(spot) || !name || rest.length > 0) {
      throw new UsageError(
        `option '--paytable' takes side-bet=paytable pairs separated by commas (e.g. super6=15-to-1), got '${part}'`,
        'odds',
      );
    }
    paytables[spot] = name;
  }
  return paytables;
}

/** A payout for people: "1 to 1 less 5%", "0.54 to 1", "30 to 1". */
function paysText(p: Payout): string {
  if (p.result !== 'win') return '';
  const ratio = Number((p.num / p.den).toFixed(4));
  return `${ratio} to 1${p.commission ? ' less 5%' : ''}`;
}

/** Every win a bet can pay, best first: "30, 10, 6, 4, 2 or 1 to 1". */
function winsText(bet: BetOdds): string {
  const wins = bet.results.filter((r) => r.payout.result === 'win').map((r) => paysText(r.payout));
  if (wins.length <= 1) return wins[0] ?? '';
  const bare = wins.map((w) => w.replace(/ to 1$/, ''));
  return wins.every((w) => w.endsWith(' to 1') && !w.includes('less'))
    ? `${bare.slice(0, -1).join(', ')} or ${bare.at(-1) ?? ''} to 1`
    : wins.join(' or ');
}

const winCount = (bet: BetOdds): bigint =>
  bet.results.filter((r) => r.payout.result === 'win').reduce((s, r) => s + r.count, 0n);

/** The odds as JSON, the exact counts as decimal strings; with a mode or paytable chosen, every bet too. */
function oddsJson(o: Odds, bets: ExactBetOdds | null): string {
  const json = {
    decks: o.decks,
    tiePays: o.tiePays,
    probabilities: o.probabilities,
    houseEdge: o.houseEdge,
    natural: o.natural,
    pairs: o.pairs,
    counts: {
      total: o.counts.total.toString(),
      player: o.counts.player.toString(),
      banker: o.counts.banker.toString(),
      tie: o.counts.tie.toString(),
      natural: o.counts.natural.toString(),
    },
    ...(bets && {
      game: bets.game,
      paytables: bets.paytables,
      bets: bets.spots.map((spot) => betJson(bets.bets[spot] as BetOdds)),
    }),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

function betJson(b: BetOdds): object {
  return {
    spot: b.spot,
    label: b.label,
    paytable: b.paytable,
    probabilities: b.probabilities,
    ev: b.ev,
    houseEdge: b.houseEdge,
    houseEdgeExcludingPushes: b.houseEdgeExcludingPushes,
    results: b.results.map((r) => ({
      ...r.payout,
      net: r.net,
      count: r.count.toString(),
      probability: r.probability,
    })),
  };
}

/** The main bets of the mode: probability of a win, winning sequences, house edge, pays. */
function mainTable(bets: ExactBetOdds): string {
  const p = (x: number): string => x.toFixed(6);
  const rows = (['banker', 'player', 'tie'] as const).map((spot) => {
    const b = bets.bets[spot] as BetOdds;
    return [spot, p(b.probabilities.win), grouped(winCount(b)), percent(b.houseEdge), winsText(b)];
  });
  return table(
    [['', 'probability', 'sequences', 'house edge', 'pays'], ...rows],
    [false, true, true, true, false],
  );
}

/** The side bets of the mode: paytable, probability of a win and of a push, house edge, pays. */
function sideTable(bets: ExactBetOdds): string {
  const p = (x: number): string => x.toFixed(6);
  const rows = bets.spots
    .filter(isSideSpot)
    .map((spot) => bets.bets[spot] as BetOdds)
    .map((b) => [
      b.label,
      b.paytable ?? '',
      p(b.probabilities.win),
      p(b.probabilities.push),
      percent(b.houseEdge),
      winsText(b),
    ]);
  return table(
    [['side bet', 'paytable', 'win', 'push', 'house edge', 'pays'], ...rows],
    [false, false, true, true, true, false],
  );
}

const MODE_NOTES: Readonly<Record<GameMode, string>> = {
  commission: 'Banker wins pay 1 to 1 less a 5% commission.',
  'no-commission': 'No commission: a banker win with a total of 6 pays 1 to 2.',
  ez: 'EZ Baccarat: no commission; a banker win with a three-card 7 pushes banker bets.',
};

/** The odds as tables: the main bets, every side bet of the mode, then naturals and pairs. */
function oddsText(o: Odds, bets: ExactBetOdds): string {
  const p = (x: number): string => x.toFixed(6);
  const lines = [
    `Exact odds, ${o.decks} deck${o.decks === 1 ? '' : 's'}, tie pays ${o.tiePays} to 1, ${bets.game} game`,
    `(every one of the ${grouped(o.counts.total)} ordered six-card sequences counted, with card removal)`,
    '',
    mainTable(bets),
    '',
    sideTable(bets),
    '',
    table(
      [
        ['natural (either hand 8 or 9 on two cards)', p(o.natural)],
        ['player pair (first two cards of one rank)', p(o.pairs.player)],
        ['banker pair', p(o.pairs.banker)],
      ],
      [false, true],
    ),
    '',
    MODE_NOTES[bets.game],
    'Player and banker bets push on a tie; edges are per coup, ties included.',
  ];
  return `${lines.join('\n')}\n`;
}

/** `coup odds`: the exact odds and house edges of every bet of a mode, as tables or JSON. */
export const odds: Command = {
  name: 'odds',
  summary:
    'exact probabilities and house edges of every bet of a game mode (full enumeration with card removal)',
  usage: [
    'coup odds [--decks 8] [--tie-pays 8|9] [--game commission|no-commission|ez] [--paytable bet=name,...] [--json]',
    '',
    '  --decks N        decks in the shoe, 1 to 8 (default 8)',
    '  --tie-pays N     what a tie pays, 8 or 9 to 1 (default 8)',
    '  --game MODE      commission (default), no-commission (a banker 6 pays 1 to 2) or ez (a banker',
    '                   three-card 7 pushes): the main bets are paid so, and its side bets are shown',
    '  --paytable P     side-bet paytables, e.g. perfectPair=25-or-200-to-1,super6=15-to-1 (else the defaults)',
    '  --json           print JSON: decks, tiePays, probabilities, houseEdge, natural, pairs, and the exact',
    '                   counts of ordered six-card sequences as decimal strings (commission game); with',
    '                   --game or --paytable also game, paytables and bets (every bet of the mode: its',
    '                   probabilities, ev, houseEdge, and each payout with its exact count)',
  ].join('\n'),
  run(args, io) {
    const { options } = parseArgs('odds', args, OPTIONS);
    const tiePays = options['tie-pays'] === 9 ? 9 : 8;
    const game = gameOf(options.game);
    const paytables = paytablesOf(options.paytable);
    for (const spot of Object.keys(paytables) as SideSpot[]) {
      const refusal = sideBetRefusal(spot, { game, shuffle: 'shoe' });
      if (refusal !== null) throw new UsageError(`option '--paytable': ${refusal}`, 'odds');
    }
    const o = exactOdds({ decks: options.decks, tiePays });
    const bets = exactBetOdds({ decks: options.decks, tiePays, game, paytables });
    const chosen = options.game !== undefined || options.paytable !== undefined;
    io.stdout.write(options.json ? oddsJson(o, chosen ? bets : null) : oddsText(o, bets));
    return EXIT.ok;
  },
};
