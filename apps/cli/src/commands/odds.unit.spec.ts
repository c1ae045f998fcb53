import { exactBetOdds } from '@coup/engine';
import { runCli } from '../cli';
import { fakeIo } from '../testing';

async function run(argv: string[]) {
  const io = fakeIo();
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe('coup odds: every bet of a game mode', () => {
  test('given --game ez, then the EZ banker, Dragon 7 and Panda 8 show with their exact edges', async () => {
    const { code, out, err } = await run(['odds', '--game', 'ez']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toContain('Exact odds, 8 decks, tie pays 8 to 1, ez game');
    expect(out).toMatch(/banker\s+0\.436064\s+2,179,619,555,108,864\s+1\.0183%\s+1 to 1\n/);
    expect(out).toMatch(/Dragon 7\s+40-to-1\s+0\.022534\s+0\.000000\s+7\.6113%\s+40 to 1/);
    expect(out).toMatch(/Panda 8\s+25-to-1\s+0\.034543\s+0\.000000\s+10\.1876%\s+25 to 1/);
    expect(out).toMatch(
      /Dragon Bonus Player\s+standard\s+0\.289887\s+0\.017871\s+2\.6517%\s+30, 10, 6, 4, 2 or 1 to 1/,
    );
    expect(out).not.toContain('Super 6');
    expect(out).toContain('a banker win with a three-card 7 pushes banker bets');
  });

  test('given --game no-commission and a paytable, then Super 6 is paid by it', async () => {
    const { code, out } = await run(['odds', '--game', 'no-commission', '--paytable', 'super6=15-to-1']);
    expect(code).toBe(0);
    expect(out).toMatch(/banker\s+0\.458597\s+2,292,252,566,437,888\s+1\.4581%\s+1 or 0\.5 to 1/);
    expect(out).toMatch(/Super 6\s+15-to-1\s+0\.053864\s+0\.000000\s+13\.8181%\s+15 to 1/);
    expect(out).not.toContain('Dragon 7');
  });

  test('given --json with a mode, then every bet is listed with exact counts as decimal strings', async () => {
    const { code, out } = await run([
      'odds',
      '--decks',
      '6',
      '--game',
      'ez',
      '--paytable',
      'perfectPair=25-or-200-to-1',
      '--json',
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(out);
    const exact = exactBetOdds({ decks: 6, game: 'ez', paytables: { perfectPair: '25-or-200-to-1' } });
    expect(json.game).toBe('ez');
    expect(json.paytables.perfectPair).toBe('25-or-200-to-1');
    expect(json.bets.map((b: { spot: string }) => b.spot)).toEqual(exact.spots);
    const perfect = json.bets.find((b: { spot: string }) => b.spot === 'perfectPair');
    expect(perfect.houseEdge).toBe(exact.bets.perfectPair?.houseEdge);
    expect(perfect.results).toEqual(
      exact.bets.perfectPair?.results.map((r) => ({
        ...r.payout,
        net: r.net,
        count: r.count.toString(),
        probability: r.probability,
      })),
    );
    expect(json.decks).toBe(6);
  });

  test('given --json without a mode or paytable, then the output is the commission game alone, as before', async () => {
    const json = JSON.parse((await run(['odds', '--json'])).out);
    expect(Object.keys(json)).toEqual([
      'decks',
      'tiePays',
      'probabilities',
      'houseEdge',
      'natural',
      'pairs',
      'counts',
    ]);
  });

  test.each([
    [['odds', '--game', 'punto'], "option '--game' must be commission, no-commission, ez, got 'punto'"],
    [
      ['odds', '--paytable', 'super6'],
      "option '--paytable' takes side-bet=paytable pairs separated by commas",
    ],
    [['odds', '--paytable', 'jackpot=1'], "option '--paytable' takes side-bet=paytable pairs"],
    [
      ['odds', '--paytable', 'super6=15-to-1'],
      "option '--paytable': Super 6 is offered only on no-commission tables",
    ],
    [
      ['odds', '--game', 'no-commission', '--paytable', 'super6=20-to-1'],
      'Super 6 has no paytable "20-to-1"',
    ],
  ])('%p exits 2 with a clear message', async (argv, message) => {
    const { code, out, err } = await run(argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
  });
});
