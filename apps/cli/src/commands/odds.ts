import { exactOdds } from '@coup/engine';
import { parseArgs } from '../args';
import type { Command } from '../command';
import { grouped, percent, table } from '../format';
import { EXIT } from '../io';

const OPTIONS = {
  decks: { type: 'integer', min: 1, max: 8, default: 8 },
  'tie-pays': { type: 'integer', choices: [8, 9], default: 8 },
  json: { type: 'boolean' },
} as const;

type Odds = ReturnType<typeof exactOdds>;

/** The odds as JSON, the exact counts as decimal strings. */
function oddsJson(o: Odds): string {
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
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** The odds as tables: each bet's probability, sequences, house edge and pay, then naturals and pairs. */
function oddsText(o: Odds): string {
  const p = (x: number): string => x.toFixed(6);
  const lines = [
    `Exact odds, ${o.decks} deck${o.decks === 1 ? '' : 's'}, tie pays ${o.tiePays} to 1`,
    `(every one of the ${grouped(o.counts.total)} ordered six-card sequences counted, with card removal)`,
    '',
    table(
      [
        ['', 'probability', 'sequences', 'house edge', 'pays'],
        [
          'banker',
          p(o.probabilities.banker),
          grouped(o.counts.banker),
          percent(o.houseEdge.banker),
          '1 to 1 less 5%',
        ],
        [
          'player',
          p(o.probabilities.player),
          grouped(o.counts.player),
          percent(o.houseEdge.player),
          '1 to 1',
        ],
        ['tie', p(o.probabilities.tie), grouped(o.counts.tie), percent(o.houseEdge.tie), `${o.tiePays} to 1`],
      ],
      [false, true, true, true, false],
    ),
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
    'Player and banker bets push on a tie; edges are per coup, ties included.',
  ];
  return `${lines.join('\n')}\n`;
}

/** `coup odds`: the exact odds and house edges, as a table or JSON. */
export const odds: Command = {
  name: 'odds',
  summary: 'exact probabilities and house edges for a shoe (full enumeration with card removal)',
  usage: [
    'coup odds [--decks 8] [--tie-pays 8|9] [--json]',
    '',
    '  --decks N      decks in the shoe, 1 to 8 (default 8)',
    '  --tie-pays N   what a tie pays, 8 or 9 to 1 (default 8)',
    '  --json         print JSON: decks, tiePays, probabilities, houseEdge, natural, pairs, and the exact',
    '                 counts of ordered six-card sequences as decimal strings',
  ].join('\n'),
  run(args, io) {
    const { options } = parseArgs('odds', args, OPTIONS);
    const tiePays = options['tie-pays'] === 9 ? 9 : 8;
    const o = exactOdds({ decks: options.decks, tiePays });
    io.stdout.write(options.json ? oddsJson(o) : oddsText(o));
    return EXIT.ok;
  },
};
