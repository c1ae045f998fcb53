import { exactOdds } from '@coup/engine';
import { defaultCommands, runCli } from './cli';
import type { Command } from './command';
import { EXIT } from './io';
import { fakeIo } from './testing';

async function run(argv: string[], isTTY = false) {
  const io = fakeIo(isTTY);
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe('coup odds', () => {
  test('--json gives the exact odds at full double precision, counts as decimal strings', async () => {
    const { code, out, err } = await run(['odds', '--decks', '8', '--json']);
    expect(code).toBe(0);
    expect(err).toBe('');
    const json = JSON.parse(out);
    const exact = exactOdds({ decks: 8 });
    expect(json).toEqual({
      decks: 8,
      tiePays: 8,
      probabilities: exact.probabilities,
      houseEdge: exact.houseEdge,
      natural: exact.natural,
      pairs: exact.pairs,
      counts: {
        total: '4998398275503360',
        player: '2230518282592256',
        banker: '2292252566437888',
        tie: '475627426473216',
        natural: exact.counts.natural.toString(),
      },
    });
    expect(json.probabilities.banker).toBe(0.458597422632763);
  });

  test('--tie-pays 9 changes the tie edge only', async () => {
    const json = JSON.parse((await run(['odds', '--tie-pays', '9', '--json'])).out);
    expect(json.tiePays).toBe(9);
    expect(json.houseEdge.tie.toFixed(4)).toBe('0.0484');
    expect(json.houseEdge.banker.toFixed(4)).toBe('0.0106');
  });

  test('the table shows probabilities, edges and counts', async () => {
    const { code, out } = await run(['odds', '--decks', '6']);
    expect(code).toBe(0);
    expect(out).toContain('Exact odds, 6 decks, tie pays 8 to 1');
    expect(out).toMatch(/banker\s+0\.458653\s+403,095,751,234,560\s+1\.0558%/);
    expect(out).toMatch(/tie\s+0\.095069/);
  });

  test.each([
    [['odds', '--decks', '0'], "option '--decks' must be from 1 to 8, got 0"],
    [['odds', '--decks', '9'], "option '--decks' must be from 1 to 8, got 9"],
    [['odds', '--decks', 'x'], "option '--decks' must be a whole number, got 'x'"],
    [['odds', '--decks'], "option '--decks' needs a value"],
    [['odds', '--frobnicate'], "unknown option '--frobnicate'"],
    [['odds', '--tie-pays', '10'], "option '--tie-pays' must be 8 or 9, got 10"],
    [['frobnicate'], "unknown command 'frobnicate' (commands: odds, simulate, resolve, "],
  ])('%p exits 2 with a clear message on stderr', async (argv, message) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
    expect(err).toContain("Run 'coup help");
  });
});

describe('coup simulate', () => {
  test('--json is reproducible from the seed and agrees with the exact odds', async () => {
    const a = await run(['simulate', '--decks', '8', '--shoes', '200', '--seed', 'abc', '--json']);
    const b = await run(['simulate', '--shoes', '200', '--seed', 'abc', '--json']);
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    const json = JSON.parse(a.out);
    expect(json).toMatchObject({ decks: 8, shoes: 200, seed: 'abc', cutCard: 16, burn: true });
    expect(json.outcomes.player + json.outcomes.banker + json.outcomes.tie).toBe(json.coups);
    expect(json.exact.banker).toBe(exactOdds({ decks: 8 }).probabilities.banker);
    for (const z of Object.values(json.zScores)) expect(Math.abs(z as number)).toBeLessThan(5);
  });

  test('a progress bar is drawn on stderr only when it is a terminal', async () => {
    const plain = await run(['simulate', '--shoes', '300', '--json']);
    expect(plain.err).toBe('');
    const tty = await run(['simulate', '--shoes', '300', '--json'], true);
    expect(tty.err).toContain('\r[');
    expect(tty.err).toContain('100% 300/300 shoes');
    expect(tty.err.endsWith('\r\x1b[K')).toBe(true);
    expect(tty.out).toBe(plain.out);
  });

  test('the text report shows counts, frequencies and z-scores', async () => {
    const { code, out } = await run([
      'simulate',
      '--decks',
      '6',
      '--shoes',
      '100',
      '--seed',
      '7',
      '--cut-card',
      '20',
      '--no-burn',
    ]);
    expect(code).toBe(0);
    expect(out).toContain('Simulated 100 shoes of 6 decks, seed "7", no burn, cut card 20 from the end');
    expect(out).toMatch(/banker\s+[\d,]+\s+0\.\d{6}\s+0\.458653\s+-?\d+\.\d\d/);
    expect(out).toContain('coups per shoe: min');
  });

  test.each([
    [['simulate', '--shoes', '0'], "option '--shoes' must be at least 1, got 0"],
    [['simulate', '--decks', '9'], "option '--decks' must be from 1 to 8, got 9"],
    [['simulate', '--seed'], "option '--seed' needs a value"],
    [['simulate', '--cut-card', '500'], 'Invalid cut card 500'],
  ])('%p exits 2: %s', async (argv, message) => {
    const { code, err } = await run(argv);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });
});

describe('coup resolve', () => {
  test('shows the hands, totals, outcome, natural and cards used', async () => {
    const { code, out } = await run(['resolve', 'Ah', '9d', '3c', 'Ks', '7d']);
    expect(code).toBe(0);
    expect(out).toBe(
      [
        'Player  Ah 3c  total 4',
        'Banker  9d Ks  total 9',
        'Banker wins, 9 to 4.',
        'Natural (banker 9 on two cards): both hands stand.',
        'Dealt: Ah to player, 9d to banker, 3c to player, Ks to banker.',
        'Cards used: 4 of 5 (not used: 7d).',
        '',
      ].join('\n'),
    );
  });

  test('third cards go where the tableau sends them', async () => {
    const { out } = await run(['resolve', '7c', '2d', 'Kh', 'Ks', '9h']);
    expect(out).toContain('Banker  2d Ks 9h  total 1');
    expect(out).toContain('Player wins, 7 to 1.');
    expect(out).toContain('Dealt: 7c to player, 2d to banker, Kh to player, Ks to banker, 9h to banker.');
    const json = JSON.parse((await run(['resolve', '2c', 'Ad', '3h', '2s', '4c', '6d', '--json'])).out);
    expect(json).toMatchObject({ outcome: 'tie', playerTotal: 9, bankerTotal: 9, cardsUsed: 6 });
  });

  test.each([
    [['resolve'], 'no cards given'],
    [['resolve', 'Ah', '9d', '3c'], 'not enough cards: this coup needs at least 4, got 3'],
    [['resolve', 'Kh', 'Kd', '3c', 'Ks'], 'not enough cards: this coup needs 6, got 4'],
    [['resolve', 'Kh', '4d', '3c', 'Ks'], 'not enough cards: this coup needs at least 5, got 4'],
    [['resolve', 'Ah', '9d', '10c', 'Ks'], 'card 3: Invalid card "10c"'],
    [['resolve', 'AH', '9d', '3c', 'Ks'], 'card 1: Invalid card "AH"'],
  ])('%p exits 2: %s', async (argv, message) => {
    const { code, err } = await run(argv);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });
});

describe('coup help and the registry', () => {
  test('the unknown-command message lists every registered command', async () => {
    const { err } = await run(['frobnicate']);
    const names = defaultCommands().map((c) => c.name);
    expect(names.slice(0, 3)).toEqual(['odds', 'simulate', 'resolve']);
    expect(names.at(-1)).toBe('help');
    expect(err).toContain(`(commands: ${names.join(', ')})`);
  });

  test('help lists every command; help <command> and --help show its usage', async () => {
    const list = await run(['help']);
    expect(list.code).toBe(0);
    for (const name of ['odds', 'simulate', 'resolve', 'help'])
      expect(list.out).toMatch(new RegExp(`^  ${name} `, 'm'));
    const one = await run(['help', 'simulate']);
    expect(one.out).toContain('Usage: coup simulate');
    expect((await run(['odds', '--help'])).out).toContain('Usage: coup odds');
    expect((await run(['help', 'nope'])).code).toBe(2);
  });

  test('the exit codes are in EXIT and the overview lists each, 3 (not folded yet) included', async () => {
    expect(EXIT).toEqual({ ok: 0, failure: 1, usage: 2, notFoldedYet: 3 });
    const { out } = await run(['help']);
    expect(out).toContain(
      'Exit codes: 0 success, 1 failure, 2 bad arguments, 3 not folded into the read models yet (replay, verify: retry later).',
    );
  });

  test('no command prints the overview on stderr and exits 2', async () => {
    const { code, out, err } = await run([]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('Commands:');
  });

  test('a command added to the registry is dispatched, and a crash is exit 1', async () => {
    const calls: string[][] = [];
    const extra: Command[] = [
      {
        name: 'echo',
        summary: 's',
        usage: 'u',
        run: async (args, io) => (calls.push([...args]), io.stdout.write('hi\n'), 0),
      },
      {
        name: 'boom',
        summary: 's',
        usage: 'u',
        run: () => {
          throw new Error('kaput');
        },
      },
    ];
    const io = fakeIo();
    expect(await runCli(['echo', 'a', '--b'], io, extra)).toBe(0);
    expect(calls).toEqual([['a', '--b']]);
    expect(io.out()).toBe('hi\n');
    expect(await runCli(['boom'], io, extra)).toBe(1);
    expect(io.err()).toContain('coup boom: failed: Error: kaput');
  });
});
