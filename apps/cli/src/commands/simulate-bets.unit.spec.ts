import { SIDE_SPOTS, exactBetOdds, sideBetRefusal } from '@coup/engine';
import { runCli } from '../cli';
import { fakeIo } from '../testing';

async function run(argv: string[]) {
  const io = fakeIo(false);
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

interface SpotJson {
  spot: string;
  paytable: string | null;
  results: { win: number; push: number; lose: number };
  staked: number;
  paid: number;
  commission: number;
  net: number;
  frequencies: { win: number; push: number; lose: number };
  exact: { win: number; push: number; lose: number; houseEdge: number };
  hold: number;
  zScores: {
    win: number | null;
    push: number | null;
    lose: number | null;
    return: number | null;
    payouts: { net: number; z: number | null }[];
  };
}

describe('coup simulate with bets', () => {
  test('without a bet option the output is what it was: no bets', async () => {
    const { code, out } = await run(['simulate', '--shoes', '20', '--json']);
    expect(code).toBe(0);
    expect(Object.keys(JSON.parse(out))).toEqual([
      'decks',
      'shoes',
      'seed',
      'cutCard',
      'burn',
      'coups',
      'outcomes',
      'naturals',
      'pairs',
      'handsPerShoe',
      'frequencies',
      'exact',
      'zScores',
    ]);
    expect((await run(['simulate', '--shoes', '20'])).out).not.toContain('Bets:');
  });

  test('--game ez --side-bets all --json: every bet the mode offers, settled in exact cents, beside its exact odds', async () => {
    const argv = [
      'simulate',
      '--shoes',
      '300',
      '--seed',
      'ez',
      '--game',
      'ez',
      '--side-bets',
      'all',
      '--json',
    ];
    const a = await run(argv);
    expect(a.code).toBe(0);
    expect((await run(argv)).out).toBe(a.out);
    const json = JSON.parse(a.out);
    const side = SIDE_SPOTS.filter((s) => sideBetRefusal(s, { game: 'ez', shuffle: 'shoe' }) === null);
    expect(json.bets).toMatchObject({ game: 'ez', tiePays: 8, commission: 'deducted', stake: 100 });
    const spots = json.bets.spots as SpotJson[];
    expect(spots.map((s) => s.spot)).toEqual(['player', 'banker', 'tie', ...side]);
    expect(side).toContain('dragon7');
    const exact = exactBetOdds({ decks: 8, game: 'ez', spots: spots.map((s) => s.spot) as never });
    for (const s of spots) {
      const n = s.results.win + s.results.push + s.results.lose;
      expect(n).toBe(json.coups);
      expect(s.staked).toBe(100 * n);
      expect(s.net).toBe(s.paid - s.staked);
      expect(s.frequencies.win).toBe(s.results.win / n);
      expect(s.exact.win).toBe(exact.bets[s.spot as 'player']!.probabilities.win);
      expect(s.exact.houseEdge).toBe(exact.bets[s.spot as 'player']!.houseEdge);
      const { payouts, ...zScores } = s.zScores;
      for (const z of [...Object.values(zScores), ...payouts.map((p) => p.z)])
        expect(Math.abs(z!)).toBeLessThan(5);
      expect(payouts.map((p) => p.net)).toEqual(exact.bets[s.spot as 'player']!.results.map((r) => r.net));
    }
    expect(spots[1]!.results.push).toBeGreaterThan(json.outcomes.tie); // EZ: a Dragon 7 pushes the banker
  });

  test('paytables, tie pays and the stake: the text report', async () => {
    const { code, out } = await run(
      'simulate --shoes 50 --game no-commission --tie-pays 9 --stake 500 --side-bets'
        .split(' ')
        .concat('super6=15-to-1,perfectPair=25-or-200-to-1,big'),
    );
    expect(code).toBe(0);
    expect(out).toContain('Bets: 500 cents on each spot every coup, no-commission game, tie pays 9 to 1');
    expect(out).toMatch(/^ {2}perfectPair 25-or-200-to-1\s+0\.\d{6}\s+0\.033450\s+-?\d+\.\d\d/m);
    expect(out).toMatch(/^ {2}super6 15-to-1\s+[\d,]+\s+[\d,]+\s+0\s+-?[\d,]+\s+-?\d+\.\d{4}%\s+13\.8181%/m);
    expect(out).toMatch(/^ {2}big 0\.54-to-1 /m);
  });

  test('--commission box: the commission is owed, and the net counts it', async () => {
    const { out } = await run(['simulate', '--shoes', '30', '--commission', 'box', '--json']);
    const banker = (JSON.parse(out).bets.spots as SpotJson[])[1]!;
    expect(banker.commission).toBe(5 * banker.results.win);
    expect(banker.paid).toBe(100 * (2 * banker.results.win + banker.results.push));
    expect(banker.net).toBe(banker.paid - banker.staked - banker.commission);
  });

  test.each([
    [['--game', 'punto'], "option '--game' must be commission, no-commission, ez, got 'punto'"],
    [['--side-bets', 'dragon7'], 'Dragon 7 is offered only on ez tables, not on a commission table'],
    [['--game', 'ez', '--side-bets', 'super6'], 'Super 6 is offered only on no-commission tables'],
    [['--side-bets', 'jackpot'], "unknown side bet 'jackpot' (side bets: playerPair,"],
    [['--side-bets', 'perfectPair=30-to-1'], 'Perfect Pair has no paytable "30-to-1"'],
    [['--commission', 'none'], "option '--commission' must be deducted or box, got 'none'"],
    [['--stake', '0'], "option '--stake' must be at least 1, got 0"],
    [['--tie-pays', '7'], "option '--tie-pays' must be 8 or 9, got 7"],
  ])('%p exits 2: %s', async (options, message) => {
    const { code, err } = await run(['simulate', '--shoes', '1', ...options]);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  test('help names the bet options', async () => {
    const { out } = await run(['help', 'simulate']);
    for (const option of ['--game', '--side-bets', '--tie-pays', '--commission', '--stake'])
      expect(out).toContain(option);
  });
});
