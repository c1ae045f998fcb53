import { exactBetOddsForShoe } from '@coup/engine';
import type { TableEvent } from '@coup/table';
import { Scenario } from '../../testing/scenario';
import { EM_TABLES, type EdgeState, edgeMonitorProjection, shoeOddsBefore } from '.';
import { EZ_ONE_DECK } from '../../testing/coups';

describe('the odds before a round, from the shoe events alone', () => {
  test('before every round of a shoe (a corrected card, a void), each bet has the value the monitor gave it', () => {
    const s = new Scenario<EdgeState>(edgeMonitorProjection, {
      rules: EZ_ONE_DECK,
      seed: 4,
      correctionRate: 0.5,
    }).given((d) => d.open());
    const events: TableEvent[] = [];
    const monitor = new Map<number, { spot: string; ev: number; evExact: string }[]>();
    const keep = () => {
      const row = s.row(EM_TABLES, { table_id: 'T1' })!;
      if (row.round_no !== null) monitor.set(row.round_no as number, JSON.parse(row.values_json as string));
    };
    events.push(...s.when((d) => d.startShoe()).map((e) => e.event));
    keep();
    for (let i = 0; i < 6; i++) {
      events.push(...s.when((d) => d.playRound({ void: i === 3 })).map((e) => e.event));
      keep();
    }
    expect(monitor.size).toBe(7);
    const rules = s.driver.rules;
    for (const [roundNo, values] of monitor) {
      const odds = shoeOddsBefore(events, rules, roundNo)!;
      expect(odds).toMatchObject({ shoeNo: 1, roundNo, game: 'ez', tiePays: 8 });
      expect(odds.bets.map((b) => [b.spot, b.ev, b.evExact])).toEqual(
        values.map((v) => [v.spot, v.ev, v.evExact]),
      );
    }
    const before5 = shoeOddsBefore(events, rules, 5)!;
    expect(before5.coupInShoe).toBe(3); // rounds 1, 2 and 3 resolved, round 4 voided
    expect(Object.values(before5.remaining).reduce((a, n) => a + n, 0)).toBe(before5.cardsLeft);
    expect(before5.cardsSeen + before5.cardsLeft).toBe(52);
  });

  test('each bet: probabilities, its results with their odds, and whether it favours the player', () => {
    const s = new Scenario<EdgeState>(edgeMonitorProjection, { rules: EZ_ONE_DECK, seed: 4 }).given((d) => [
      ...d.open(),
      ...d.playRound(),
    ]);
    const events = s.last.map((e) => e.event);
    const odds = shoeOddsBefore(events, s.driver.rules, 2)!;
    const dragon7 = odds.bets.find((b) => b.spot === 'dragon7')!;
    const exact = exactBetOddsForShoe(odds.remaining, { game: 'ez', spots: ['dragon7'] }).bets.dragon7!;
    expect(dragon7).toMatchObject({
      label: 'Dragon 7',
      paytable: '40-to-1',
      ev: exact.ev,
      houseEdge: -exact.ev,
      favourable: true,
      probabilities: exact.probabilities,
    });
    expect(dragon7.results).toEqual([
      { result: 'win', pays: '40:1', probability: exact.results[0]!.probability },
      { result: 'lose', pays: null, probability: exact.results[1]!.probability },
    ]);
    expect(odds.bets.find((b) => b.spot === 'banker')!.results.map((r) => [r.result, r.pays])).toEqual([
      ['win', '1:1'],
      ['push', null],
      ['lose', null],
    ]);
  });

  test('later events are ignored; with no shoe in play before the round there are no odds', () => {
    const s = new Scenario<EdgeState>(edgeMonitorProjection, { rules: EZ_ONE_DECK, seed: 4 }).given((d) =>
      d.open(),
    );
    const opening = s.last.map((e) => e.event);
    expect(shoeOddsBefore(opening, s.driver.rules, 1)).toBeNull();
    const all = [...opening, ...s.when((d) => [...d.playRound(), ...d.playRound()]).map((e) => e.event)];
    const upTo2 = all.slice(0, all.findIndex((e) => e.type === 'BettingOpened' && e.data.roundNo === 2) + 1);
    expect(shoeOddsBefore(all, s.driver.rules, 2)).toEqual(shoeOddsBefore(upTo2, s.driver.rules, 2));
  });
});
