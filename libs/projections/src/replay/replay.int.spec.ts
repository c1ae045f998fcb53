import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type EventStore, computeEventHash, createEventStore } from '@coup/event-store';
import { settleBet } from '@coup/engine';
import type { Actor, TableEvent } from '@coup/table';
import { ReadModels } from '../read/read-models';
import { ProjectionRunner } from '../runner/runner';
import { sqliteRawReader } from '../runner/sqlite-store';
import { COUPS } from '../testing/coups';
import { TableDriver } from '../testing/driver';
import { appendTable } from '../testing/store';
import { type HandVerification, replayHand, verifyHand } from './replay';

const SUPER: Actor = { id: 'super-1', role: 'supervisor' };
const P1: Actor = { id: 'p1', role: 'player' };

jest.setTimeout(30_000);

let dir: string;
let store: EventStore;
let runner: ProjectionRunner;
let readModels: ReadModels;
/** The hand source: the store, the index, and the SQLite store's stored bytes. */
const src = () => ({ store, readModels, raw: sqliteRawReader(join(dir, 'events.sqlite')) });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coup-replay-'));
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

async function rngTable(rounds: number, endShoe = true): Promise<TableDriver> {
  const d = new TableDriver({ tableId: 'R1', players: 3, seed: 11 });
  await appendTable(store, 'R1', d.open());
  for (let i = 0; i < rounds; i++) await appendTable(store, 'R1', d.playRound({ void: i === 2 }));
  if (endShoe) await appendTable(store, 'R1', d.execute('EndShoe', {}, SUPER));
  await runner.catchUp();
  return d;
}

/** Raw SQL on the store's file, as someone with access to the disk could. */
function raw(sql: string, ...params: unknown[]): void {
  const db = new Database(join(dir, 'events.sqlite'));
  db.prepare(sql).run(...params);
  db.close();
}

describe('verify', () => {
  test('every hand of an ended rng shoe passes every check, the seed reproducing the recorded cards', async () => {
    await rngTable(6);
    for (let round = 1; round <= 6; round++) {
      const v = await verifyHand(src(), 'R1', round);
      expect(v.ok).toBe(true);
      const expected = round === 3 ? 'skipped' : 'pass';
      expect(statuses(v)).toEqual({
        index: 'pass',
        chain: 'pass',
        coup: expected,
        settlements: 'pass',
        commitment: 'pass',
        shuffle: 'pass',
      });
    }
  });

  test('while the shoe is in progress, the seed checks are pending (the seed is not revealed)', async () => {
    await rngTable(2, false);
    const v = await verifyHand(src(), 'R1', 1);
    expect(v.ok).toBe(true);
    expect(statuses(v)).toMatchObject({
      coup: 'pass',
      settlements: 'pass',
      commitment: 'pending',
      shuffle: 'pending',
    });
  });

  test('live hands with a corrected card and a void verify; the seed checks do not apply', async () => {
    const d = new TableDriver({
      tableId: 'L1',
      rules: { dealing: 'live', commission: 'box' },
      correctionRate: 1,
      seed: 5,
    });
    await appendTable(store, 'L1', d.open());
    for (let i = 0; i < 4; i++) await appendTable(store, 'L1', d.playRound({ void: i === 1 }));
    await runner.catchUp();
    expect((await readModels.hand('L1', 1))!.corrections).toHaveLength(1);
    for (let round = 1; round <= 4; round++) {
      const v = await verifyHand(src(), 'L1', round);
      expect(v.ok).toBe(true);
      expect(statuses(v)).toMatchObject({
        chain: 'pass',
        settlements: 'pass',
        commitment: 'skipped',
        shuffle: 'skipped',
      });
    }
  });

  test('editing one byte of a stored event (raw UPDATE) makes verify fail and name the event', async () => {
    await rngTable(4);
    const hand = (await readModels.hand('R1', 2))!;
    const bet = hand.bets.find((b) => b.kind === 'bet')!;
    // one digit of the bet amount, in the stored JSON
    raw(
      `UPDATE events SET data = replace(data, '"amount":${bet.amount}', '"amount":${bet.amount + 1}') WHERE global_position = ?`,
      bet.position,
    );
    const v = await verifyHand(src(), 'R1', 2);
    expect(v.ok).toBe(false);
    const chain = v.checks.find((c) => c.name === 'chain')!;
    expect(chain.status).toBe('fail');
    expect(chain.event).toEqual({ revision: expect.any(Number), position: bet.position, type: 'BetPlaced' });
    expect(chain.detail).toContain(`BetPlaced at revision`);
    expect(chain.detail).toContain('contents do not match its hash');
    // the other hands still verify
    expect((await verifyHand(src(), 'R1', 1)).ok).toBe(true);
  });

  test('an event rewritten with a recomputed hash breaks the next link; a rewritten head is caught by the index', async () => {
    await rngTable(3);
    const hand = (await readModels.hand('R1', 1))!;
    const db = new Database(join(dir, 'events.sqlite'));
    const rewrite = (position: number) => {
      const row = db.prepare('SELECT * FROM events WHERE global_position = ?').get(position) as Record<
        string,
        string | number | bigint
      >;
      const data = JSON.parse(String(row.data));
      data.at = '2025-01-01T00:00:00.000Z';
      const hash = computeEventHash({
        streamName: String(row.stream),
        streamRevision: BigInt(row.revision!),
        type: String(row.type),
        data,
        metadata: JSON.parse(String(row.metadata)),
        prevHash: String(row.prev_hash),
      });
      db.prepare('UPDATE events SET data = ?, hash = ? WHERE global_position = ?').run(
        JSON.stringify(data),
        hash,
        position,
      );
    };
    rewrite(hand.span.firstPosition + 1);
    let v = await verifyHand(src(), 'R1', 1);
    expect(v.checks.find((c) => c.name === 'chain')).toMatchObject({
      status: 'fail',
      event: { position: hand.span.firstPosition + 2 },
    });
    const h2 = (await readModels.hand('R1', 2))!;
    rewrite(h2.span.lastPosition);
    db.close();
    v = await verifyHand(src(), 'R1', 2);
    expect(v.checks.find((c) => c.name === 'chain')).toMatchObject({
      status: 'fail',
      event: { position: h2.span.lastPosition, type: 'CoupResolved' },
    });
    expect(v.checks.find((c) => c.name === 'chain')!.detail).toContain('head hash in the index');
  });

  test('with the stored bytes, even a changed whitespace byte fails; from the port alone, only a change of content', async () => {
    await rngTable(2);
    const hand = (await readModels.hand('R1', 1))!;
    const bet = hand.bets[0]!;
    raw(
      `UPDATE events SET data = replace(data, '"spot":"', '"spot": "') WHERE global_position = ?`,
      bet.position,
    );
    const v = await verifyHand(src(), 'R1', 1);
    expect(v.checks.find((c) => c.name === 'chain')).toMatchObject({
      status: 'fail',
      event: { position: bet.position, type: 'BetPlaced' },
      detail: expect.stringContaining('stored bytes are not the text that was hashed'),
    });
    // the port re-encodes what it parsed: the same content hashes the same
    expect((await verifyHand({ store, readModels }, 'R1', 1)).ok).toBe(true);
    raw(
      `UPDATE events SET data = replace(data, '"spot": "', '"spot":"') WHERE global_position = ?`,
      bet.position,
    );
    expect((await verifyHand(src(), 'R1', 1)).ok).toBe(true);
  });

  test('without the stored bytes (any store), a changed content is still caught and named', async () => {
    await rngTable(2);
    const hand = (await readModels.hand('R1', 2))!;
    const card = hand.cards[0]!;
    raw(
      `UPDATE events SET data = replace(data, '"card":"${card.card}"', '"card":"${card.card === 'Ah' ? 'As' : 'Ah'}"') WHERE global_position = ?`,
      card.position,
    );
    const v = await verifyHand({ store, readModels }, 'R1', 2);
    expect(v.checks.find((c) => c.name === 'chain')).toMatchObject({
      status: 'fail',
      event: { position: card.position, type: 'CardDealt' },
    });
    expect(v.checks.find((c) => c.name === 'chain')!.detail).toContain('contents do not match its hash');
  });

  test('a tampered revealed seed is named on the shoe event', async () => {
    await rngTable(2);
    const shoe = (await readModels.shoe('R1', 1))!;
    raw(
      `UPDATE events SET data = replace(data, '"seed":"', '"seed":"0') WHERE global_position = ?`,
      shoe.endedPosition,
    );
    const v = await verifyHand(src(), 'R1', 1);
    expect(v.checks.find((c) => c.name === 'chain')).toMatchObject({
      status: 'fail',
      event: { type: 'ShoeEnded', position: shoe.endedPosition },
    });
  });

  test('a recorded result that is not what the engine deals fails the coup, settlement and shuffle checks', async () => {
    const d = new TableDriver({ tableId: 'F1', players: 1, seed: 2 });
    await appendTable(store, 'F1', [
      ...d.open(),
      ...d.execute('StartShoe', { seed: d.nextSeed() }),
      ...d.execute('OpenBetting', {}),
    ]);
    await appendTable(store, 'F1', [
      ...d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 1_000 }, P1),
      ...d.execute('CloseBetting', { roundNo: 1 }),
    ]);
    // a forged coup: the first card swapped, the outcome and payouts claimed for the player
    const dealt = d.execute('Deal', { roundNo: 1 }).map((e): TableEvent => {
      if (e.type === 'CardDealt' && e.data.index === 0)
        return { ...e, data: { ...e.data, card: e.data.card === 'Kd' ? 'Qd' : 'Kd' } };
      if (e.type === 'CoupResolved') {
        return {
          ...e,
          data: {
            ...e.data,
            outcome: 'player',
            playerTotal: 9,
            settlements: [
              { playerId: 'p1', spot: 'player', amount: 1_000, result: 'win', paid: 5_000, commission: 0 },
            ],
          },
        };
      }
      return e;
    });
    await appendTable(store, 'F1', [...dealt, ...d.execute('EndShoe', {}, SUPER)]);
    await runner.catchUp();
    const v = await verifyHand(src(), 'F1', 1);
    expect(v.ok).toBe(false);
    expect(statuses(v)).toMatchObject({
      index: 'pass',
      chain: 'pass',
      coup: 'fail',
      settlements: 'fail',
      commitment: 'pass',
      shuffle: 'fail',
    });
    expect(v.checks.find((c) => c.name === 'shuffle')!.event!.type).toBe('CardDealt');
  });

  test('a stake on a side bet the table does not offer fails the settlements check, even if paid by its paytable', async () => {
    const d = new TableDriver({ tableId: 'F2', players: 1, seed: 3 });
    await appendTable(store, 'F2', [
      ...d.open(),
      ...d.execute('StartShoe', { seed: d.nextSeed() }),
      ...d.execute('OpenBetting', {}),
    ]);
    const placed = d.execute('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount: 1_000 }, P1);
    // a forged Dragon 7 bet on a commission table, beside the real bet
    const forged = placed.map((e): TableEvent =>
      e.type === 'BetPlaced'
        ? { ...e, data: { ...e.data, spot: 'dragon7', amount: 100, spotTotal: 100 } }
        : e,
    );
    await appendTable(store, 'F2', [...placed, ...forged, ...d.execute('CloseBetting', { roundNo: 1 })]);
    const dealt = d.execute('Deal', { roundNo: 1 }).map((e): TableEvent => {
      if (e.type !== 'CoupResolved') return e;
      const dragon = settleBet('dragon7', 100, e.data, { tiePays: 8, commission: 'deducted' });
      return {
        ...e,
        data: {
          ...e.data,
          settlements: [...e.data.settlements, { playerId: 'p1', spot: 'dragon7', amount: 100, ...dragon }],
        },
      };
    });
    await appendTable(store, 'F2', [...dealt, ...d.execute('EndShoe', {}, SUPER)]);
    await runner.catchUp();
    const v = await verifyHand(src(), 'F2', 1);
    expect(statuses(v)).toMatchObject({ settlements: 'fail' });
    expect(v.checks.find((c) => c.name === 'settlements')!.detail).toContain('does not offer');
  });

  test('verifying a hand reads its span and the shoe events only, never the whole stream', async () => {
    await rngTable(8);
    const reads: { fromRevision?: unknown; maxCount?: unknown }[] = [];
    const spy: EventStore = {
      ...store,
      readStream: (stream, options) => {
        reads.push(options ?? {});
        return store.readStream(stream, options);
      },
      readAll: () => {
        throw new Error('verify must not read $all');
      },
      appendToStream: store.appendToStream.bind(store),
      subscribeToAll: store.subscribeToAll.bind(store),
      streamHead: store.streamHead.bind(store),
      verifyStream: () => {
        throw new Error('verify must not walk the whole stream');
      },
      close: store.close.bind(store),
    };
    const hand = (await readModels.hand('R1', 5))!;
    const rawReads: [number, number][] = [];
    const rawReader = sqliteRawReader(join(dir, 'events.sqlite'));
    const counting = (stream: string, from: number, count: number) => {
      rawReads.push([from, count]);
      return rawReader(stream, from, count);
    };
    expect((await verifyHand({ store: spy, readModels, raw: counting }, 'R1', 5)).ok).toBe(true);
    expect(reads).toEqual([
      { fromRevision: BigInt(hand.span.firstRevision), maxCount: hand.span.eventCount },
      { fromRevision: expect.any(BigInt), maxCount: 1 },
      { fromRevision: expect.any(BigInt), maxCount: 1 },
    ]);
    expect(rawReads).toEqual([
      [hand.span.firstRevision, hand.span.eventCount],
      [expect.any(Number), 1],
      [expect.any(Number), 1],
    ]);
  });

  test('an unknown hand is a typed error', async () => {
    await rngTable(1);
    await expect(verifyHand(src(), 'R1', 99)).rejects.toMatchObject({ code: 'UNKNOWN_HAND' });
  });
});

describe('replay', () => {
  test('the hand step by step: each event and the table after it, from the state before the hand', async () => {
    const d = await rngTable(3, false);
    const hand = (await readModels.hand('R1', 2))!;
    const r = await replayHand({ store, readModels }, 'R1', 2);
    expect(r.steps).toHaveLength(hand.span.eventCount);
    expect(r.before).toMatchObject({ roundNo: 1, phase: 'ready' });
    expect(r.steps[0]!.event.type).toBe('BettingOpened');
    expect(r.steps[0]!.view).toMatchObject({ phase: 'betting', roundNo: 2 });
    const last = r.steps[r.steps.length - 1]!;
    expect(last.event.type).toBe('CoupResolved');
    expect(last.view.lastResult).toMatchObject({ roundNo: 2, outcome: hand.outcome });
    // the fold from the stored state reaches the same table view as the live table had after the hand
    expect(last.view.players.map((p) => p.playerId)).toEqual(expect.arrayContaining(['p1']));
    // no unrevealed seed anywhere in the replay
    expect(JSON.stringify(r)).not.toContain(d.state.shoe!.seed!);
  });
});

describe('a settled coup corrected or voided after it settled (issue 16)', () => {
  const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
  const stakes = [
    { playerId: 'p1', spot: 'player' as const, amount: 1_000 },
    { playerId: 'p2', spot: 'banker' as const, amount: 1_000 },
  ];

  /** A live table: round 1 (player natural 9 against 5+2) settled; then what `after` records. */
  async function settled(tableId: string): Promise<TableDriver> {
    const d = new TableDriver({ tableId, rules: { dealing: 'live' }, players: 2 });
    await appendTable(store, tableId, d.open());
    await appendTable(store, tableId, d.liveRound(COUPS.playerNatural, stakes));
    return d;
  }
  const correct = (d: TableDriver, index: number, card: string, reason: string, roundNo = 1) =>
    d.execute('CorrectCard', { roundNo, index, card, reason }, SUPER);

  test('verify explains each correction and the void and still passes; the span ends at the last of them', async () => {
    const d = await settled('C1');
    await appendTable(store, 'C1', [
      ...d.execute('BuyIn', { playerId: 'p3', amount: 5_000 }, ADMIN),
      ...correct(d, 3, '4d', 'dealer typed 2d for 4d'),
    ]);
    await appendTable(store, 'C1', correct(d, 3, '3d', 'it was the three'));
    await appendTable(store, 'C1', d.liveRound(COUPS.bankerNatural, stakes));
    const voided = d.execute('VoidRound', { roundNo: 2, reason: 'shoe found short' }, SUPER);
    await appendTable(store, 'C1', voided);
    await runner.catchUp();

    const one = await verifyHand(src(), 'C1', 1);
    expect(statuses(one)).toEqual({
      index: 'pass',
      chain: 'pass',
      coup: 'pass',
      settlements: 'pass',
      commitment: 'skipped',
      shuffle: 'skipped',
    });
    const coup = one.checks.find((c) => c.name === 'coup')!.detail;
    expect(coup).toBe(
      '9d 5d Kd 2d: player 9-7, natural' +
        '; card 3 corrected after it settled, 2d to 4d, by super-1 (dealer typed 2d for 4d): 9d 5d Kd 4d: tie 9-9, natural' +
        '; card 3 corrected after it settled, 4d to 3d, by super-1 (it was the three): 9d 5d Kd 3d: player 9-8, natural',
    );
    expect(one.checks.find((c) => c.name === 'settlements')!.detail).toMatch(
      /^2 settlements recomputed .*; corrected after it settled: the settlement in force reversed, 2 settlements recomputed on the corrected coup; corrected after it settled/,
    );
    const hand = (await readModels.hand('C1', 1))!;
    expect(hand.amendments.map((a) => a.kind)).toEqual(['correction', 'correction']);
    // opened, 2 bets, closed, 4 cards, resolved, the buy-in after it, 2 corrections
    expect(hand.span.eventCount).toBe(1 + 2 + 1 + 4 + 1 + 1 + 2);

    const two = await verifyHand(src(), 'C1', 2);
    expect(two.ok).toBe(true);
    expect(two.checks.find((c) => c.name === 'coup')!.detail).toBe(
      '5d 9d 2d Kd: banker 7-9, natural; voided after it settled by super-1 (shoe found short)',
    );
    expect(two.checks.find((c) => c.name === 'settlements')!.detail).toMatch(
      /; voided after it settled: the settlement in force reversed, every stake returned$/,
    );
    expect(await readModels.hand('C1', 2)).toMatchObject({
      status: 'voided',
      voidReason: 'shoe found short',
    });
  });

  test.each([
    ['live', { dealing: 'live', commission: 'box', decks: 1, cutCard: 14 }],
    ['rng', { decks: 1, cutCard: 14 }],
  ])(
    'every hand of a %s table whose settled coups are now and then corrected or voided verifies',
    async (name, rules) => {
      const tableId = `M${name}`;
      const d = new TableDriver({
        tableId,
        rules,
        players: 3,
        seed: 9,
        settledCorrectionRate: 0.4,
        settledVoidRate: 0.2,
      });
      await appendTable(store, tableId, d.open());
      for (let i = 0; i < 24; i++) await appendTable(store, tableId, d.playRound());
      await runner.catchUp();
      const hands = (await readModels.hands(tableId, { order: 'asc' }, { limit: 500 })).items;
      expect(hands.filter((h) => h.amended).length).toBeGreaterThan(2);
      for (const h of hands) {
        const v = await verifyHand(src(), tableId, h.roundNo);
        expect([h.roundNo, v.checks.filter((c) => c.status === 'fail')]).toEqual([h.roundNo, []]);
      }
    },
  );

  test('replay shows the coup as it settled, then each correction', async () => {
    const d = await settled('C2');
    await appendTable(store, 'C2', correct(d, 3, '4d', 'dealer typed 2d for 4d'));
    await runner.catchUp();
    const r = await replayHand({ store, readModels }, 'C2', 1);
    const types = r.steps.map((s) => s.event.type);
    expect(types.slice(-2)).toEqual(['CoupResolved', 'SettledCoupCorrected']);
    const [resolved, corrected] = r.steps.slice(-2);
    expect(resolved!.view.lastResult).toMatchObject({ outcome: 'player', bankerTotal: 7 });
    expect(corrected!.view.lastResult).toMatchObject({ outcome: 'tie', bankerTotal: 9 });
    expect(corrected!.event.data).toMatchObject({ reason: 'dealer typed 2d for 4d', by: 'super-1' });
  });

  type Forgery = (e: Extract<TableEvent, { type: 'SettledCoupCorrected' }>['data']) => object;
  test.each<[string, Forgery, string, string]>([
    [
      'a new settlement paid more than settleBet pays',
      (d) => ({
        settlements: d.settlements.map((s) => (s.playerId === 'p2' ? { ...s, paid: s.paid + 500 } : s)),
      }),
      'settlements',
      "p2's 1000 on banker",
    ],
    [
      'a reversal of less than the settlement in force',
      (d) => ({ reversed: d.reversed.map((s) => ({ ...s, paid: 0 })) }),
      'settlements',
      'reverses a settlement other than the one in force',
    ],
    [
      'a result the corrected cards do not make',
      () => ({ outcome: 'banker' }),
      'coup',
      'the engine resolves the cards 9d 5d Kd 4d to tie 9-9',
    ],
    [
      'a card replaced that was not the one dealt there',
      () => ({ oldCard: '7d' }),
      'coup',
      'the correction replaces card 3 as 7d, but it was 2d',
    ],
  ])('a tampered correction (%s), chained, fails verify naming it', async (_name, forge, check, words) => {
    const d = await settled('F9');
    const forged = correct(d, 3, '4d', 'dealer typed 2d for 4d').map((e): TableEvent =>
      e.type === 'SettledCoupCorrected' ? ({ ...e, data: { ...e.data, ...forge(e.data) } } as TableEvent) : e,
    );
    await appendTable(store, 'F9', forged);
    await runner.catchUp();
    const v = await verifyHand(src(), 'F9', 1);
    expect(v.ok).toBe(false);
    expect(statuses(v)).toMatchObject({ index: 'pass', chain: 'pass', [check]: 'fail' });
    const failed = v.checks.find((c) => c.name === check)!;
    expect(failed.event).toMatchObject({ type: 'SettledCoupCorrected' });
    expect(failed.detail).toContain(words);
  });
});
