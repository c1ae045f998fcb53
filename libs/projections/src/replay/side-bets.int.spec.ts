/**
 * Verify and the odds before a hand on tables with side bets, in every game mode: every stake, side bets
 * included, recomputed by the engine; a tampered side-bet settlement caught and named; the odds of each bet
 * before a hand from its shoe's events.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore, createEventStore } from '@coup/event-store';
import type { TableEvent } from '@coup/table';
import { shoeOddsBefore } from '../read-models/edge-monitor/shoe-odds';
import { ReadModels } from '../read/read-models';
import { ProjectionRunner } from '../runner/runner';
import { sqliteRawReader } from '../runner/sqlite-store';
import { COUPS } from '../testing/coups';
import { TableDriver } from '../testing/driver';
import { appendTable } from '../testing/store';
import { type HandVerification, oddsBeforeHand, verifyHand } from './replay';

jest.setTimeout(30_000);

let dir: string;
let store: EventStore;
let runner: ProjectionRunner;
let readModels: ReadModels;
const src = () => ({ store, readModels, raw: sqliteRawReader(join(dir, 'events.sqlite')) });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coup-side-bets-'));
  store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  runner = new ProjectionRunner({ store, readModels: join(dir, 'rm.sqlite') });
  readModels = ReadModels.sqlite(runner.db);
});
afterEach(async () => {
  await runner.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const statuses = (v: HandVerification) => Object.fromEntries(v.checks.map((c) => [c.name, c.status]));

/** The rules of a table in each mode, offering every side bet the mode allows. */
const MODES = {
  commission: {
    commission: 'box',
    sideBets: {
      playerPair: {},
      bankerPair: {},
      eitherPair: {},
      perfectPair: { paytable: '25-or-200-to-1' },
      big: {},
      small: {},
      playerDragon: {},
      bankerDragon: {},
    },
  },
  'no-commission': {
    game: 'no-commission',
    sideBets: { super6: { paytable: '15-to-1' }, playerPair: {}, big: {}, small: {}, bankerDragon: {} },
  },
  ez: { game: 'ez', sideBets: { dragon7: {}, panda8: {}, eitherPair: {}, playerDragon: {} } },
} as const;

describe('verify with side bets', () => {
  test.each(Object.keys(MODES))(
    'a %s table: every hand (rng, random side bets, a void) passes, each stake recomputed by the engine',
    async (mode) => {
      const d = new TableDriver({
        tableId: 'S1',
        players: 4,
        seed: 21,
        rules: MODES[mode as keyof typeof MODES],
      });
      await appendTable(store, 'S1', d.open());
      for (let i = 0; i < 8; i++) await appendTable(store, 'S1', d.playRound({ void: i === 4 }));
      await appendTable(store, 'S1', d.execute('EndShoe', {}, { id: 'super-1', role: 'supervisor' }));
      await runner.catchUp();
      let sideSettlements = 0;
      for (let round = 1; round <= 8; round++) {
        const v = await verifyHand(src(), 'S1', round);
        expect([round, v.ok, statuses(v)]).toEqual([
          round,
          true,
          expect.objectContaining({ settlements: 'pass', commitment: 'pass', shuffle: 'pass' }),
        ]);
        sideSettlements += (await readModels.hand('S1', round))!.settlements.filter((s) => s.paytable).length;
      }
      expect(sideSettlements).toBeGreaterThan(3);
    },
  );

  test('a side bet paid more than its paytable (recorded, chained) is caught and named on the coup', async () => {
    const d = new TableDriver({ tableId: 'F1', players: 1, rules: { dealing: 'live', ...MODES.ez } });
    await appendTable(store, 'F1', d.open());
    const forged = d
      .liveRound(COUPS.dragon7, [
        { playerId: 'p1', spot: 'banker', amount: 1_000 },
        { playerId: 'p1', spot: 'dragon7', amount: 500 },
      ])
      .map((e): TableEvent => {
        if (e.type !== 'CoupResolved') return e;
        const settlements = e.data.settlements.map((s) =>
          s.spot === 'dragon7' ? { ...s, paid: s.paid + 5_000 } : s,
        );
        return { ...e, data: { ...e.data, settlements } };
      });
    await appendTable(store, 'F1', forged);
    await runner.catchUp();
    const v = await verifyHand(src(), 'F1', 1);
    expect(v.ok).toBe(false);
    expect(statuses(v)).toMatchObject({ chain: 'pass', coup: 'pass', settlements: 'fail' });
    const check = v.checks.find((c) => c.name === 'settlements')!;
    expect(check.event).toMatchObject({ type: 'CoupResolved' });
    expect(check.detail).toContain("p1's 500 on dragon7: recorded win, paid 25500");
    expect(check.detail).toContain('settleBet gives win, paid 20500');
    expect(check.detail).toContain('paytable 40-to-1');
  });

  test('a side bet recorded under another paytable than the table offers fails', async () => {
    const d = new TableDriver({
      tableId: 'F2',
      players: 1,
      rules: { dealing: 'live', ...MODES['no-commission'] },
    });
    await appendTable(store, 'F2', d.open());
    const forged = d
      .liveRound(COUPS.bankerSixPair, [
        { playerId: 'p1', spot: 'banker', amount: 100 },
        { playerId: 'p1', spot: 'super6', amount: 100 },
      ])
      .map((e): TableEvent => {
        if (e.type !== 'CoupResolved') return e;
        const settlements = e.data.settlements.map((s) =>
          s.spot === 'super6' ? { ...s, paytable: '12-to-1' } : s,
        );
        return { ...e, data: { ...e.data, settlements } };
      });
    await appendTable(store, 'F2', forged);
    await runner.catchUp();
    const check = (await verifyHand(src(), 'F2', 1)).checks.find((c) => c.name === 'settlements')!;
    expect(check).toMatchObject({ status: 'fail' });
    expect(check.detail).toContain('paytable 12-to-1');
    expect(check.detail).toContain('(paytable 15-to-1)');
  });
});

describe('the odds before a hand', () => {
  test('each offered bet valued on the cards not seen in the shoe before the hand, reading the shoe from its start', async () => {
    const rules = {
      dealing: 'live',
      decks: 1,
      cutCard: 12,
      game: 'ez',
      sideBets: { dragon7: {}, panda8: {} },
    };
    const d = new TableDriver({ tableId: 'L1', players: 2, seed: 4, rules });
    const events: TableEvent[] = d.open();
    for (let i = 0; i < 3; i++) events.push(...d.playRound());
    await appendTable(store, 'L1', events);
    await runner.catchUp();
    const odds = await oddsBeforeHand({ store, readModels }, 'L1', 3);
    expect(odds).toMatchObject({ tableId: 'L1', roundNo: 3, shoeNo: 1 });
    expect(odds.odds).toEqual(shoeOddsBefore(events, d.rules, 3));
    expect(odds.odds!.coupInShoe).toBe(2);
    expect(odds.odds!.bets.map((b) => b.spot)).toEqual(['player', 'banker', 'tie', 'dragon7', 'panda8']);
    await expect(oddsBeforeHand({ store, readModels }, 'L1', 9)).rejects.toMatchObject({
      code: 'UNKNOWN_HAND',
    });
  });
});
