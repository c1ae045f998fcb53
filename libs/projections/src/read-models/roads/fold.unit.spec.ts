import type { Actor, Outcome } from '@coup/table';
import { COUPS } from '../../testing/coups';
import { Scenario } from '../../testing/scenario';
import { type Bead, RD_ROADS, type RoadsState, computeRoads, derivedMarks, roadsProjection } from './fold';

const SUPER: Actor = { id: 'super-1', role: 'supervisor' };

const LETTERS: Readonly<Record<string, Outcome>> = { P: 'player', B: 'banker', T: 'tie' };
function beads(seq: string): Bead[] {
  return [...seq].map((ch, i) => ({
    roundNo: i + 1,
    outcome: LETTERS[ch]!,
    natural: false,
    playerPair: false,
    bankerPair: false,
    playerTotal: 0,
    bankerTotal: 0,
  }));
}
const cells = (road: readonly { col: number; row: number }[]) => road.map((c) => [c.col, c.row]);
const colors = (road: readonly { color: string }[]) =>
  road.map((c) => (c.color === 'red' ? 'R' : 'B')).join('');

describe('roads: the standard derivation rules on a known sequence', () => {
  // B B P P P B T B P B B B B B B B  (a tie on the first banker of column 3; a streak of 7 bankers at the end)
  // Big road columns (logical): [B B] [P P P] [B(+1 tie) B] [P] [B x7]
  const seq = 'BBPPPBTBPBBBBBBB';
  const roads = computeRoads(beads(seq));

  test('the bead plate fills six rows per column, ties included', () => {
    expect(roads.beadPlate).toHaveLength(16);
    expect(cells(roads.beadPlate).slice(5, 8)).toEqual([
      [0, 5],
      [1, 0],
      [1, 1],
    ]);
    expect(roads.beadPlate[6]!.outcome).toBe('tie');
  });

  test('the big road: a column per streak, ties marked on the last win, a dragon tail after six rows', () => {
    expect(cells(roads.bigRoad)).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
      [1, 2],
      [2, 0],
      [2, 1],
      [3, 0],
      [4, 0],
      [4, 1],
      [4, 2],
      [4, 3],
      [4, 4],
      [4, 5],
      [5, 5],
    ]);
    expect(roads.bigRoad.map((c) => c.ties)).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(roads.bigRoad[14]).toMatchObject({ outcome: 'banker', streak: 4, streakRow: 6, roundNo: 16 });
    expect(roads.leadingTies).toBe(0);
  });

  test('big eye boy (k=1): starts at column 2 row 2, red = pattern repeats, blue = it breaks', () => {
    // (1,1) col0 len 2 != 1: R; (1,2) col0 len 2 == 2: B; (2,0) len3 vs len2: B; (2,1) col1 len 3: R;
    // (3,0) len2 vs len3: B; (4,0) len1 vs len2: B; (4,1) col3 len 1 == 1: B; (4,2..6) col3 shorter by 2+: R R R R R
    expect(colors(roads.bigEyeBoy)).toBe('RBBRBBBRRRRR');
    expect(cells(roads.bigEyeBoy)).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
      [2, 0],
      [3, 0],
      [3, 1],
      [3, 2],
      [4, 0],
      [4, 1],
      [4, 2],
      [4, 3],
      [4, 4],
    ]);
  });

  test('small road (k=2): starts at column 3 row 2', () => {
    // (2,1) col0 len2 != 1: R; (3,0) len2 vs len2: R; (4,0) len1 vs len3: B; (4,1) col2 len2 != 1: R;
    // (4,2) col2 len 2 == 2: B; (4,3..6): R R R R
    expect(colors(roads.smallRoad)).toBe('RRBRBRRRR');
  });

  test('cockroach pig (k=3): starts at column 4 row 2, or column 5 row 1', () => {
    // (3,0) not marked (no column 4 row 2 yet... column 3 has one row); (4,0) len1 vs len2: B; (4,1) col1 len3: R;
    // (4,2) R; (4,3) col1 len 3 == 3: B; (4,4..6) R R R
    expect(colors(roads.cockroachPig)).toBe('BRRBRRR');
  });

  test('derived marks start only where there are columns to compare', () => {
    expect(derivedMarks([2], 1)).toEqual([]);
    expect(derivedMarks([2, 1], 1)).toEqual([]); // column 2 has no second row, and there is no column 3
    expect(derivedMarks([1, 2], 1)).toEqual(['blue']); // column 2 row 2: column 1 ends exactly one row above
    expect(derivedMarks([3, 2], 1)).toEqual(['red']); // column 2 row 2: column 1 has a row 2 too
    expect(derivedMarks([1, 1, 1], 1)).toEqual(['red']); // column 3 row 1: columns 2 and 1 are as long
    expect(derivedMarks([1, 2, 1], 1)).toEqual(['blue', 'blue']); // (2,2): col 1 ends above; (3,1): 2 != 1
  });

  test('ties before the first win are leading ties; a tail turns early when the cell below is taken', () => {
    const r = computeRoads(beads('TTBBBBBBBBPPPPPP'));
    expect(r.leadingTies).toBe(2);
    // 8 bankers: (0,0..5) then (1,5) (2,5); 6 players from column 1: rows 0..4, then row 5 is taken: turn at row 4
    expect(cells(r.bigRoad)).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
      [0, 5],
      [1, 5],
      [2, 5],
      [1, 0],
      [1, 1],
      [1, 2],
      [1, 3],
      [1, 4],
      [2, 4],
    ]);
  });
});

describe('roads projection', () => {
  function expectIdempotent(s: Scenario): void {
    const again = s.again();
    expect(again.writes).toEqual([]);
    expect(again.changed).toBe(false);
  }

  test('given a shoe, when coups resolve, then the road row has the outcomes and roads of that shoe', () => {
    const s = new Scenario<RoadsState>(roadsProjection, { players: 2 }).given((d) => [
      ...d.open(),
      ...d.execute('StartShoe', { seed: d.nextSeed() }),
    ]);
    expect(s.row(RD_ROADS, { table_id: 'T1', shoe_no: 1 })).toMatchObject({ coups: 0, outcomes: '' });
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const events = s.when((d) => d.playRound({ void: i === 3 }));
      for (const e of events)
        if (e.event.type === 'CoupResolved') outcomes.push(e.event.data.outcome[0]!.toUpperCase());
      expectIdempotent(s);
    }
    const row = s.row(RD_ROADS, { table_id: 'T1', shoe_no: 1 })!;
    expect(row.outcomes).toBe(outcomes.join(''));
    expect(row.coups).toBe(11);
    const expected = computeRoads(JSON.parse(row.bead_plate_json as string));
    expect(JSON.parse(row.big_road_json as string)).toEqual(expected.bigRoad);
    expect(JSON.parse(row.big_eye_boy_json as string)).toEqual(expected.bigEyeBoy);
  });

  test('given a shoe ended, when the next shoe starts, then it has its own road and the old one is kept', () => {
    const s = new Scenario<RoadsState>(roadsProjection).given((d) => [
      ...d.open(),
      ...d.execute('StartShoe', { seed: d.nextSeed() }),
      ...d.playRound(),
      ...d.execute('EndShoe', {}, SUPER),
    ]);
    s.when((d) => d.execute('StartShoe', { seed: d.nextSeed() }));
    expect(s.row(RD_ROADS, { shoe_no: 1 })).toMatchObject({ coups: 1 });
    expect(s.row(RD_ROADS, { shoe_no: 2 })).toMatchObject({ coups: 0 });
    expectIdempotent(s);
  });

  test('every-coup tables: one road per day across their one-coup shoes', () => {
    const s = new Scenario<RoadsState>(roadsProjection, { rules: { shuffle: 'every-coup' } }).given((d) =>
      d.open(),
    );
    for (let i = 0; i < 5; i++) s.given((d) => d.playRound());
    expect(s.rows(RD_ROADS)).toHaveLength(1);
    expect(s.rows(RD_ROADS)[0]).toMatchObject({ shoe_no: 1, last_shoe_no: 5, coups: 5, day: '2025-01-01' });
    s.driver.setTime('2025-01-02T09:00:00.000Z');
    s.given((d) => d.playRound());
    expect(s.row(RD_ROADS, { shoe_no: 6 })).toMatchObject({ coups: 1, day: '2025-01-02' });
  });
});

describe('roads: pairs and the game marks in every mode', () => {
  const P1 = 'p1';
  function table(game: string, sideBets: Record<string, object> = {}) {
    return new Scenario<RoadsState>(roadsProjection, {
      rules: { dealing: 'live', game, sideBets },
    }).given((d) => d.open());
  }
  const bead = (s: Scenario) =>
    (JSON.parse(s.row(RD_ROADS, { shoe_no: 1 })!.bead_plate_json as string) as Record<string, unknown>[]).at(
      -1,
    );
  const bigRoad = (s: Scenario) =>
    (JSON.parse(s.row(RD_ROADS, { shoe_no: 1 })!.big_road_json as string) as Record<string, unknown>[]).at(
      -1,
    );
  const stake = [{ playerId: P1, spot: 'banker' as const, amount: 1_000 }];

  test('given a no-commission table, when the banker wins with 6, then the bead and the big road mark Super 6 (and the banker pair)', () => {
    const s = table('no-commission', { super6: {} });
    s.when((d) => d.liveRound(COUPS.bankerSixPair, stake));
    expect(bead(s)).toMatchObject({
      outcome: 'banker',
      bankerTotal: 6,
      super6: true,
      bankerPair: true,
      playerPair: false,
    });
    expect(bigRoad(s)).toMatchObject({ outcome: 'banker', super6: true, bankerPair: true });
    expect(s.state().game).toBe('no-commission');
    const again = s.again();
    expect([again.writes, again.changed]).toEqual([[], false]);
  });

  test('given a commission table, when the banker wins with 6, then nothing but the pair is marked (as before game modes)', () => {
    const s = table('commission');
    s.when((d) => d.liveRound(COUPS.bankerSixPair, stake));
    expect(Object.keys(bead(s)!)).toEqual([
      'roundNo',
      'outcome',
      'natural',
      'playerPair',
      'bankerPair',
      'playerTotal',
      'bankerTotal',
      'col',
      'row',
    ]);
    expect(bead(s)).toMatchObject({ bankerPair: true });
  });

  test('given an EZ table, when a three-card banker 7 and then a three-card player 8 win, then they are marked Dragon 7 and Panda 8', () => {
    const s = table('ez', { dragon7: {}, panda8: {} });
    s.when((d) => d.liveRound(COUPS.dragon7, stake));
    expect(bead(s)).toMatchObject({ outcome: 'banker', bankerTotal: 7, dragon7: true });
    expect(bead(s)).not.toHaveProperty('panda8');
    expect(bigRoad(s)).toMatchObject({ dragon7: true });
    s.when((d) => d.liveRound(COUPS.panda8, stake));
    expect(bead(s)).toMatchObject({ outcome: 'player', playerTotal: 8, panda8: true });
    expect(bigRoad(s)).toMatchObject({ outcome: 'player', panda8: true });
    const again = s.again();
    expect([again.writes, again.changed]).toEqual([[], false]);
  });

  test.each(['commission', 'no-commission', 'ez'])(
    'given a %s table, when a natural meets a pair, then the pairs are marked by the first two cards of each hand',
    (game) => {
      const s = table(game);
      s.when((d) => d.liveRound(COUPS.playerNaturalBankerPair, stake));
      expect(bead(s)).toMatchObject({
        outcome: 'player',
        natural: true,
        playerPair: false,
        bankerPair: true,
      });
      s.when((d) => d.liveRound(COUPS.playerPerfectPair, stake));
      expect(bead(s)).toMatchObject({ outcome: 'banker', playerPair: true, bankerPair: false });
      expect(bead(s)).not.toHaveProperty('super6');
    },
  );
});

describe('roads: the settled coup corrected or voided (issue 16)', () => {
  function expectIdempotent(s: Scenario): void {
    const again = s.again();
    expect(again.writes).toEqual([]);
    expect(again.changed).toBe(false);
  }
  const stake = [{ playerId: 'p1', spot: 'player' as const, amount: 1_000 }];
  /** A live table: a banker win, then a player win just settled. */
  function twoCoups(): Scenario<RoadsState> {
    return new Scenario<RoadsState>(roadsProjection, { rules: { dealing: 'live' } }).given((d) => [
      ...d.open(),
      ...d.liveRound(COUPS.bankerNatural, stake),
      ...d.liveRound(COUPS.playerNatural, stake),
    ]);
  }
  const road = (s: Scenario, shoeNo = 1) => s.row(RD_ROADS, { table_id: 'T1', shoe_no: shoeNo })!;
  const plate = (s: Scenario, shoeNo = 1) =>
    JSON.parse(road(s, shoeNo).bead_plate_json as string) as Record<string, unknown>[];

  test('given a settled coup, when a card is corrected, then its bead shows the corrected result and the roads follow', () => {
    const s = twoCoups();
    expect(road(s)).toMatchObject({ outcomes: 'BP', coups: 2 });
    s.when((d) => d.execute('CorrectCard', { roundNo: 2, index: 3, card: '4d', reason: 'misread' }, SUPER));
    const row = road(s);
    expect(row).toMatchObject({ outcomes: 'BT', coups: 2 });
    expect(plate(s)[1]).toMatchObject({ roundNo: 2, outcome: 'tie', playerTotal: 9, bankerTotal: 9 });
    const expected = computeRoads(plate(s) as unknown as Bead[]);
    expect(JSON.parse(row.big_road_json as string)).toEqual(expected.bigRoad);
    expect(row.leading_ties).toBe(0);
    expectIdempotent(s);
  });

  test('given a settled coup, when it is voided, then it leaves the road', () => {
    const s = twoCoups();
    s.when((d) => d.execute('VoidRound', { roundNo: 2, reason: 'shoe found short' }, SUPER));
    expect(road(s)).toMatchObject({ outcomes: 'B', coups: 1 });
    expect(plate(s).map((b) => b['roundNo'])).toEqual([1]);
    expectIdempotent(s);
  });

  test('given a settled coup whose shoe ended and the next started, when it is voided, then it leaves its own road', () => {
    const s = twoCoups().given((d) => [
      ...d.execute('EndShoe', {}, SUPER),
      ...d.execute('StartShoe', { firstCard: '7c' }),
    ]);
    s.when((d) => d.execute('VoidRound', { roundNo: 2, reason: 'shoe found short' }, SUPER));
    expect(road(s, 1)).toMatchObject({ outcomes: 'B', coups: 1 });
    expect(road(s, 2)).toMatchObject({ outcomes: '', coups: 0 });
    expectIdempotent(s);
  });
});
