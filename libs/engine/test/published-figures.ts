/**
 * Every published figure the exact odds are checked against, with its source: the engine's README lists exactly
 * these rows (published-figures.unit.spec.ts checks both the figures and the README's table).
 */
import { type BetOdds, type BetOddsRules, type Spot, exactBetOdds } from '../src/index';

/** What a figure measures, and how it is written. */
export type Measure =
  /** The house edge in percent, pushes counted (`1.0183%`). */
  | 'edge %'
  /** The house edge as a fraction (`0.014581045`). */
  | 'edge'
  /** The expected return per unit as a fraction, as the Wizard of Odds tables write it (`-0.026517`). */
  | 'return'
  /** The probability that the bet wins, in percent (`45.8597%`) or as a fraction (`0.378868`). */
  | 'win %'
  | 'win'
  /** Ordered six-card sequences of the results paying `net` to 1 (every win when absent). */
  | 'combinations'
  /** The Wizard of Odds pair tables' unit: two cards a hand, unordered (the count / 4 (N-4)(N-5)). */
  | 'hand combinations';

export interface PublishedFigure {
  /** The bet, for people. */
  readonly bet: string;
  readonly spot: Spot;
  readonly decks: number;
  readonly rules?: BetOddsRules;
  /** What is published, for people (`house edge`, `win by 9, pays 30`). */
  readonly figure: string;
  readonly measure: Measure;
  /** The results counted (`combinations`): those paying this net amount per unit. */
  readonly net?: number;
  /** As published: every digit given is checked; counts may be a sum (`a + b`) of published rows. */
  readonly published: string;
  readonly source: string;
}

const WOO_SIDE_BETS = 'https://wizardofodds.com/games/baccarat/side-bets/';
const WOO_APPENDIX_5 = 'https://wizardofodds.com/games/baccarat/appendix/5/';
const WOO_EZ = 'https://wizardofodds.com/games/ez-baccarat/';
const WOO_PERFECT_1 = 'https://wizardofodds.com/games/baccarat/side-bets/perfect-pairs-ver1/';
const WOO_PERFECT_2 = 'https://wizardofodds.com/games/baccarat/side-bets/perfect-pairs-ver2/';
const WOO_LUCKY_6 = 'https://wizardofodds.com/games/baccarat/side-bets/lucky-6/';
const WOO_TABLE = 'http://www.casinoexploit.com/baccarat.html';
const CHEN = 'http://vegastrip.com/game_baccarat.html';
const JACOBSON_SUPER_6 = 'https://www.888casino.com/blog/card-counting-the-super-six-baccarat-side-bet/';
const JACOBSON_PAIRS =
  'https://www.888casino.com/blog/side-bets/computer-perfect-play-against-the-baccarat-pairs-bet/';
const JACOBSON_DRAGON_PANDA =
  'https://www.888casino.com/blog/side-bets/co-card-counting-the-dragon-and-panda-side-bets-in-ez-baccarat';
const EXCELPUNKS =
  'https://excelpunks.com/2018/05/12/concepts-13-baccarat-vs-non-commission-baccarat-why-does-a-banker-win-on-6-pay-half/';
const BIG_SMALL = 'https://vegasfreedom.com/baccarat/what-is-big-and-small-in-baccarat/';
const EITHER_PAIR = 'https://wordstreetjournal.com/top-ten-baccarat-side-games-detailed-odds-and-payouts/';
const SUPER_6_12 =
  'https://www.leovegas.com/en-row/blog/live-casino/baccarat-academy/side-bets-guide/super-6-side-bet';
const SUPER_6_15 = 'https://cooper-boating.com/countable-mines-games-baccarat-side-bets/';
const TIE_9 = 'https://tunicatravel.com/blog/2013/01/betting-ties-in-baccarat-2/';

const EZ: BetOddsRules = { game: 'ez' };
const NO_COMMISSION: BetOddsRules = { game: 'no-commission' };

/** Dragon Bonus rows of the Wizard of Odds' 8-deck tables: [figure, net, player combinations, banker's]. */
const DRAGON_ROWS: readonly (readonly [string, number, string, string])[] = [
  ['win by 9, pays 30', 30, '18,409,431,764,992', '15,390,342,909,952'],
  ['win by 8, pays 10', 10, '34,097,645,543,424', '28,305,092,784,128'],
  ['win by 7, pays 6', 6, '89,590,261,473,280', '79,517,099,278,336'],
  ['win by 6, pays 4', 4, '141,238,897,317,888', '119,200,072,366,080'],
  ['win by 5, pays 2', 2, '166,169,165,987,840', '157,275,882,332,160'],
  [
    'win by 4 + natural win, both pay 1',
    1,
    '186,780,352,174,080 + 812,685,054,124,032',
    '201,147,167,287,296 + 812,685,054,124,032',
  ],
  ['natural tie, pushes', 0, '89,325,908,267,520', '89,325,908,267,520'],
];

const dragon = (hand: 'Player' | 'Banker'): PublishedFigure[] => {
  const spot = hand === 'Player' ? 'playerDragon' : 'bankerDragon';
  const bet = `Dragon Bonus ${hand}`;
  const byDecks: readonly (readonly [number, string])[] =
    hand === 'Player'
      ? [
          [4, '2.70%'],
          [6, '2.67%'],
          [8, '2.65%'],
        ]
      : [
          [4, '9.42%'],
          [6, '9.39%'],
          [8, '9.37%'],
        ];
  return [
    {
      bet,
      spot,
      decks: 8,
      figure: 'return',
      measure: 'return',
      published: hand === 'Player' ? '-0.026517' : '-0.093731',
      source: WOO_SIDE_BETS,
    },
    ...DRAGON_ROWS.map(([figure, net, player, banker]): PublishedFigure => ({
      bet,
      spot,
      decks: 8,
      figure,
      measure: 'combinations',
      net,
      published: hand === 'Player' ? player : banker,
      source: WOO_SIDE_BETS,
    })),
    ...byDecks.map(([decks, published]): PublishedFigure => ({
      bet,
      spot,
      decks,
      figure: 'house edge',
      measure: 'edge %',
      published,
      source: WOO_APPENDIX_5,
    })),
  ];
};

/** The figures, by bet. */
export const PUBLISHED_FIGURES: readonly PublishedFigure[] = [
  // Main bets, commission game
  {
    bet: 'Banker',
    spot: 'banker',
    decks: 8,
    figure: 'house edge',
    measure: 'edge %',
    published: '1.06%',
    source: WOO_TABLE,
  },
  {
    bet: 'Banker',
    spot: 'banker',
    decks: 8,
    figure: 'house edge',
    measure: 'edge %',
    published: '1.0579%',
    source: JACOBSON_SUPER_6,
  },
  {
    bet: 'Banker',
    spot: 'banker',
    decks: 8,
    figure: 'house edge',
    measure: 'edge',
    published: '0.010579',
    source: EXCELPUNKS,
  },
  {
    bet: 'Banker',
    spot: 'banker',
    decks: 8,
    figure: 'wins',
    measure: 'combinations',
    published: '2,292,252,566,437,888',
    source: WOO_TABLE,
  },
  {
    bet: 'Banker',
    spot: 'banker',
    decks: 6,
    figure: 'wins',
    measure: 'combinations',
    published: '403,095,751,234,560',
    source: WOO_TABLE,
  },
  {
    bet: 'Player',
    spot: 'player',
    decks: 8,
    figure: 'house edge',
    measure: 'edge %',
    published: '1.24%',
    source: WOO_TABLE,
  },
  {
    bet: 'Player',
    spot: 'player',
    decks: 8,
    figure: 'house edge',
    measure: 'edge',
    published: '0.012351',
    source: EXCELPUNKS,
  },
  {
    bet: 'Player',
    spot: 'player',
    decks: 8,
    figure: 'wins',
    measure: 'combinations',
    published: '2,230,518,282,592,256',
    source: WOO_TABLE,
  },
  {
    bet: 'Player',
    spot: 'player',
    decks: 6,
    figure: 'wins',
    measure: 'combinations',
    published: '392,220,492,728,832',
    source: WOO_TABLE,
  },
  {
    bet: 'Tie',
    spot: 'tie',
    decks: 8,
    figure: 'house edge at 8:1',
    measure: 'edge %',
    published: '14.36%',
    source: WOO_TABLE,
  },
  {
    bet: 'Tie',
    spot: 'tie',
    decks: 6,
    figure: 'house edge at 8:1',
    measure: 'edge %',
    published: '14.44%',
    source: WOO_TABLE,
  },
  {
    bet: 'Tie',
    spot: 'tie',
    decks: 8,
    figure: 'wins',
    measure: 'combinations',
    published: '475,627,426,473,216',
    source: WOO_TABLE,
  },
  {
    bet: 'Tie',
    spot: 'tie',
    decks: 6,
    figure: 'wins',
    measure: 'combinations',
    published: '83,552,962,932,288',
    source: WOO_TABLE,
  },
  {
    bet: 'Tie',
    spot: 'tie',
    decks: 8,
    rules: { tiePays: 9 },
    figure: 'house edge at 9:1',
    measure: 'edge %',
    published: '4.8%',
    source: TIE_9,
  },
  ...(
    [
      [1, '45.9624%', '44.6760%', '9.3615%'],
      [2, '45.9073%', '44.6508%', '9.4419%'],
      [4, '45.8761%', '44.6340%', '9.4898%'],
      [8, '45.8597%', '44.6247%', '9.5156%'],
    ] as const
  ).flatMap(([decks, banker, player, tie]): PublishedFigure[] => [
    {
      bet: 'Banker',
      spot: 'banker',
      decks,
      figure: 'wins',
      measure: 'win %',
      published: banker,
      source: CHEN,
    },
    {
      bet: 'Player',
      spot: 'player',
      decks,
      figure: 'wins',
      measure: 'win %',
      published: player,
      source: CHEN,
    },
    { bet: 'Tie', spot: 'tie', decks, figure: 'wins', measure: 'win %', published: tie, source: CHEN },
  ]),
  {
    bet: 'Banker',
    spot: 'banker',
    decks: 6,
    figure: 'wins',
    measure: 'win %',
    published: '45.8653%',
    source: CHEN,
  },
  { bet: 'Tie', spot: 'tie', decks: 6, figure: 'wins', measure: 'win %', published: '9.5069%', source: CHEN },
  // No-commission and EZ banker
  {
    bet: 'Banker, no commission (6 pays 1:2)',
    spot: 'banker',
    decks: 8,
    rules: NO_COMMISSION,
    figure: 'house edge',
    measure: 'edge %',
    published: '1.4581%',
    source: JACOBSON_SUPER_6,
  },
  {
    bet: 'Banker, no commission (6 pays 1:2)',
    spot: 'banker',
    decks: 8,
    rules: NO_COMMISSION,
    figure: 'house edge',
    measure: 'edge',
    published: '0.014581045',
    source: EXCELPUNKS,
  },
  {
    bet: 'Banker, no commission (6 pays 1:2)',
    spot: 'banker',
    decks: 8,
    rules: NO_COMMISSION,
    figure: 'wins with 6, paid 1:2',
    measure: 'combinations',
    net: 0.5,
    published: '269,232,304,455,680',
    source: EXCELPUNKS,
  },
  {
    bet: 'Banker, EZ (three-card 7 pushes)',
    spot: 'banker',
    decks: 8,
    rules: EZ,
    figure: 'house edge',
    measure: 'edge %',
    published: '1.0183%',
    source: JACOBSON_SUPER_6,
  },
  {
    bet: 'Banker, EZ (three-card 7 pushes)',
    spot: 'banker',
    decks: 8,
    rules: EZ,
    figure: 'return',
    measure: 'return',
    published: '-0.010183',
    source: WOO_EZ,
  },
  // Pairs
  {
    bet: 'Player Pair',
    spot: 'playerPair',
    decks: 8,
    figure: 'house edge',
    measure: 'edge %',
    published: '10.3614%',
    source: 'issue 15',
  },
  {
    bet: 'Player Pair',
    spot: 'playerPair',
    decks: 8,
    figure: 'house edge',
    measure: 'edge %',
    published: '10.361%',
    source: JACOBSON_PAIRS,
  },
  {
    bet: 'Player Pair',
    spot: 'playerPair',
    decks: 8,
    figure: 'hit frequency',
    measure: 'win %',
    published: '7.470%',
    source: JACOBSON_PAIRS,
  },
  {
    bet: 'Banker Pair',
    spot: 'bankerPair',
    decks: 8,
    figure: 'house edge',
    measure: 'edge %',
    published: '10.3614%',
    source: 'issue 15',
  },
  {
    bet: 'Banker Pair',
    spot: 'bankerPair',
    decks: 8,
    figure: 'house edge',
    measure: 'edge %',
    published: '10.36%',
    source: EITHER_PAIR,
  },
  {
    bet: 'Either Pair',
    spot: 'eitherPair',
    decks: 8,
    figure: 'house edge',
    measure: 'edge %',
    published: '13.71%',
    source: EITHER_PAIR,
  },
  {
    bet: 'Perfect Pair',
    spot: 'perfectPair',
    decks: 8,
    figure: 'house edge',
    measure: 'edge %',
    published: '13.03%',
    source: WOO_PERFECT_1,
  },
  {
    bet: 'Perfect Pair',
    spot: 'perfectPair',
    decks: 8,
    figure: 'return',
    measure: 'return',
    published: '-0.130294',
    source: WOO_PERFECT_1,
  },
  {
    bet: 'Perfect Pair',
    spot: 'perfectPair',
    decks: 8,
    figure: 'wins',
    measure: 'hand combinations',
    published: '246,848,784',
    source: WOO_PERFECT_1,
  },
  {
    bet: 'Perfect Pair',
    spot: 'perfectPair',
    decks: 6,
    figure: 'return',
    measure: 'return',
    published: '-0.170716',
    source: WOO_PERFECT_1,
  },
  {
    bet: 'Perfect Pair',
    spot: 'perfectPair',
    decks: 6,
    figure: 'wins',
    measure: 'hand combinations',
    published: '74,114,820',
    source: WOO_PERFECT_1,
  },
  {
    bet: 'Perfect Pair',
    spot: 'perfectPair',
    decks: 8,
    rules: { paytables: { perfectPair: '25-or-200-to-1' } },
    figure: 'both hands perfect',
    measure: 'hand combinations',
    net: 200,
    published: '2,101,008',
    source: WOO_PERFECT_2,
  },
  {
    bet: 'Perfect Pair',
    spot: 'perfectPair',
    decks: 8,
    rules: { paytables: { perfectPair: '25-or-200-to-1' } },
    figure: 'one hand perfect',
    measure: 'hand combinations',
    net: 25,
    published: '244,747,776',
    source: WOO_PERFECT_2,
  },
  // Big and Small
  {
    bet: 'Small',
    spot: 'small',
    decks: 8,
    figure: 'four cards dealt',
    measure: 'win',
    published: '0.378868',
    source: WOO_APPENDIX_5,
  },
  {
    bet: 'Small',
    spot: 'small',
    decks: 8,
    figure: 'return at 3:2',
    measure: 'return',
    published: '-0.05283',
    source: WOO_APPENDIX_5,
  },
  {
    bet: 'Small',
    spot: 'small',
    decks: 6,
    figure: 'four cards dealt',
    measure: 'win',
    published: '0.378925',
    source: WOO_APPENDIX_5,
  },
  {
    bet: 'Small',
    spot: 'small',
    decks: 6,
    figure: 'house edge',
    measure: 'edge %',
    published: '5.27%',
    source: BIG_SMALL,
  },
  {
    bet: 'Big',
    spot: 'big',
    decks: 8,
    figure: 'house edge',
    measure: 'edge %',
    published: '4.35%',
    source: BIG_SMALL,
  },
  {
    bet: 'Big',
    spot: 'big',
    decks: 6,
    figure: 'house edge',
    measure: 'edge %',
    published: '4.35%',
    source: BIG_SMALL,
  },
  // Dragon Bonus
  ...dragon('Player'),
  ...dragon('Banker'),
  // EZ side bets
  {
    bet: 'Dragon 7',
    spot: 'dragon7',
    decks: 8,
    rules: EZ,
    figure: 'return',
    measure: 'return',
    published: '-0.076113',
    source: WOO_EZ,
  },
  {
    bet: 'Dragon 7',
    spot: 'dragon7',
    decks: 8,
    rules: EZ,
    figure: 'wins',
    measure: 'combinations',
    published: '112,633,011,329,024',
    source: WOO_EZ,
  },
  {
    bet: 'Panda 8',
    spot: 'panda8',
    decks: 8,
    rules: EZ,
    figure: 'house edge',
    measure: 'edge %',
    published: '10.1876%',
    source: JACOBSON_DRAGON_PANDA,
  },
  {
    bet: 'Panda 8',
    spot: 'panda8',
    decks: 8,
    rules: EZ,
    figure: 'return',
    measure: 'return',
    published: '-0.101876',
    source: WOO_EZ,
  },
  {
    bet: 'Panda 8',
    spot: 'panda8',
    decks: 8,
    rules: EZ,
    figure: 'wins',
    measure: 'combinations',
    published: '172,660,763,262,976',
    source: WOO_EZ,
  },
  // Super 6
  {
    bet: 'Super 6',
    spot: 'super6',
    decks: 8,
    rules: NO_COMMISSION,
    figure: 'wins (2-card + 3-card banker 6)',
    measure: 'combinations',
    published: '186,173,936,904,192 + 83,058,367,551,488',
    source: WOO_LUCKY_6,
  },
  {
    bet: 'Super 6',
    spot: 'super6',
    decks: 8,
    rules: NO_COMMISSION,
    figure: 'house edge at 12:1',
    measure: 'edge %',
    published: '29.98%',
    source: SUPER_6_12,
  },
  {
    bet: 'Super 6',
    spot: 'super6',
    decks: 8,
    rules: { game: 'no-commission', paytables: { super6: '15-to-1' } },
    figure: 'house edge at 15:1',
    measure: 'edge %',
    published: '13.82%',
    source: SUPER_6_15,
  },
  {
    bet: 'Super 6',
    spot: 'super6',
    decks: 8,
    rules: { game: 'no-commission', paytables: { super6: '15-to-1' } },
    figure: 'hit frequency',
    measure: 'win %',
    published: '5.39%',
    source: SUPER_6_15,
  },
];

/** A published figure the engine does not match, with what the engine gives and why the source is off. */
export interface Disagreement extends PublishedFigure {
  /** The engine's value, written with the published figure's digits. */
  readonly engine: string;
  readonly why: string;
}

/** The published figures that disagree, each explained (and checked: the engine's value and the reason). */
export const DISAGREEMENTS: readonly Disagreement[] = [
  {
    bet: 'Small',
    spot: 'small',
    decks: 6,
    figure: 'return at 3:2',
    measure: 'return',
    published: '-0.052688',
    source: WOO_APPENDIX_5,
    engine: '-0.052687',
    why: 'the return of the published probability rounded to 6 digits (2.5 x 0.378925 - 1 = -0.0526875); the exact return is -0.05268737, and the probability 0.378925 matches',
  },
  {
    bet: 'Player',
    spot: 'player',
    decks: 6,
    figure: 'wins',
    measure: 'win %',
    published: '44.6276%',
    source: CHEN,
    engine: '44.6279%',
    why: "a typo: the source's own 6-deck row then sums to 99.9998% (45.8653 + 44.6276 + 9.5069), and its other decks match to every digit",
  },
  {
    bet: 'Dragon 7',
    spot: 'dragon7',
    decks: 8,
    rules: EZ,
    figure: 'house edge',
    measure: 'edge %',
    published: '7.6110%',
    source: JACOBSON_DRAGON_PANDA,
    engine: '7.6113%',
    why: "the Wizard of Odds' exact count (112,633,011,329,024 wins, matched above) gives 7.6113%, as issue 15 says; the same post's Panda 8 figure matches",
  },
];

/** An exact rational. */
interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

/** The figure's quantity, exactly, from the engine. */
export function computed(f: PublishedFigure): Ratio | bigint {
  const odds = exactBetOdds({ decks: f.decks, ...f.rules, spots: [f.spot] });
  const bet = odds.bets[f.spot] as BetOdds;
  const { numerator, denominator } = bet.evExact;
  const counted = (): bigint =>
    bet.results
      .filter((r) => (f.net === undefined ? r.payout.result === 'win' : r.net === f.net))
      .reduce((s, r) => s + r.count, 0n);
  switch (f.measure) {
    case 'edge %':
      return { num: -numerator * 100n, den: denominator };
    case 'edge':
      return { num: -numerator, den: denominator };
    case 'return':
      return { num: numerator, den: denominator };
    case 'win %':
      return { num: counted() * 100n, den: odds.total };
    case 'win':
      return { num: counted(), den: odds.total };
    case 'combinations':
      return counted();
    case 'hand combinations': {
      const n = BigInt(odds.cards);
      return counted() / (4n * (n - 4n) * (n - 5n));
    }
  }
}

/** `r` rounded half away from zero to `places` decimals, written like the published figure. */
function decimal(r: Ratio, places: number): string {
  const negative = r.num < 0n !== r.den < 0n;
  const num = r.num < 0n ? -r.num : r.num;
  const den = r.den < 0n ? -r.den : r.den;
  const scaled = (num * 10n ** BigInt(places) * 2n + den) / (2n * den);
  const digits = scaled.toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const text = places === 0 ? whole : `${whole}.${digits.slice(digits.length - places)}`;
  return negative && scaled !== 0n ? `-${text}` : text;
}

/** The engine's value written with exactly the digits the figure publishes. */
export function engineFigure(f: PublishedFigure): string {
  const value = computed(f);
  if (typeof value === 'bigint') {
    return value.toLocaleString('en-US');
  }
  const plain = f.published.replace('%', '');
  const places = plain.includes('.') ? plain.length - plain.indexOf('.') - 1 : 0;
  return `${decimal(value, places)}${f.published.endsWith('%') ? '%' : ''}`;
}

/** The published value in the engine's writing: sums of published counts added up. */
export function publishedValue(f: PublishedFigure): string {
  if (!f.published.includes('+')) return f.published;
  const sum = f.published.split('+').reduce((s, part) => s + BigInt(part.replace(/[ ,]/g, '')), 0n);
  return sum.toLocaleString('en-US');
}

const GAME_NAMES = { commission: '', 'no-commission': 'no commission', ez: 'EZ' } as const;

/** The figure's row in the README's table. */
export function readmeRow(f: PublishedFigure): string {
  const rules = [
    `${f.decks} deck${f.decks === 1 ? '' : 's'}`,
    GAME_NAMES[f.rules?.game ?? 'commission'],
    f.rules?.tiePays === 9 ? 'tie 9:1' : '',
    ...Object.values(f.rules?.paytables ?? {}),
  ].filter((s) => s !== '');
  const source = f.source.startsWith('http')
    ? `[${new URL(f.source).hostname.replace(/^www\./, '')}](${f.source})`
    : f.source;
  return `| ${f.bet} | ${rules.join(', ')} | ${f.figure} | ${f.published} | ${source} |`;
}

/** A disagreement's row in the README's table. */
export function readmeDisagreementRow(d: Disagreement): string {
  const row = readmeRow(d).split(' | ');
  // | bet | rules | figure | published | engine | why | source |
  return [...row.slice(0, 4), d.engine, d.why, ...row.slice(4)].join(' | ');
}
