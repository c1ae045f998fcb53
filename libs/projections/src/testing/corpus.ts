/**
 * The golden corpus of the read models: fixed-seed histories of many tables (rng and live, shoe and every-coup,
 * dealer- and player-dealt, online tables, bets, clears, rebets, voids, corrections, corrections and voids of
 * settled coups, cash-outs, a closed table, a hand of more than 1,024 bets finished and one left open), recorded
 * with deterministic positions, revisions, times, ids and stand-in hashes, interleaved across tables in global
 * order. Folded the way the runner folds
 * (ProjectionEngine batches, with a restart in the middle) into a SQLite file, and dumped canonically: every
 * table of every read model (and its `<prefix>_state`) ordered by primary key, one SHA-256 per table.
 */
import { createHash } from 'node:crypto';
import type { RecordedEvent } from '@coup/event-store';
import {
  type Actor,
  EVENT_SCHEMA_VERSION,
  ONLINE_CROUPIER,
  ONLINE_RULES,
  type TableEvent,
  onlineCashier,
  onlineTableId,
  tableStream,
} from '@coup/table';
import { PROJECTIONS } from '../read-models';
import { type Db, ensureProjection, projectionTables } from '../runner/db';
import { ProjectionEngine } from '../runner/engine';
import { type DriverOptions, TableDriver } from './driver';
import { fakeHash } from './events';

/** One table's history in pieces (a piece: the events of one command group, e.g. a round), interleaved later. */
type Pieces = TableEvent[][];

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const SUPERVISOR: Actor = { id: 'super-1', role: 'supervisor' };

/** A driven table: opened, then `rounds` rounds, with cash-outs and re-buys now and then; closed if asked. */
function drivenTable(options: DriverOptions, rounds: number, close = false): Pieces {
  const d = new TableDriver(options);
  const pieces: Pieces = [d.open()];
  for (let i = 0; i < rounds; i++) {
    pieces.push(d.playRound());
    if (i % 9 === 4) {
      // a player cashes out between rounds and comes back
      const p = d.players[i % d.players.length] as string;
      pieces.push([
        ...d.execute('CashOut', { playerId: p }, ADMIN),
        ...d.execute('BuyIn', { playerId: p, amount: 50_000 }, ADMIN),
      ]);
    }
    if (i === Math.floor(rounds / 2)) d.setTime('2025-01-02T09:00:00.000Z');
    // a supervisor ends a shoe early (between rounds, on shoe tables)
    if (i === 30 && d.rules.shuffle === 'shoe' && d.state.phase === 'ready')
      pieces.push(d.execute('EndShoe', {}, SUPERVISOR));
  }
  if (close) {
    // every player cashed out, then the table closed
    const seated = d.state.players.map((p) => p.playerId);
    pieces.push(seated.flatMap((playerId) => d.execute('CashOut', { playerId }, ADMIN)));
    pieces.push(d.execute('CloseTable', { cashOutAll: true }, ADMIN));
  }
  return pieces;
}

/** A player's personal online table: the cashier buys in, the croupier opens, the player bets and deals. */
function onlineTable(playerId: string, seed: number, rounds: number): Pieces {
  const d = new TableDriver({
    tableId: onlineTableId(playerId),
    rules: { ...ONLINE_RULES },
    seed,
    players: 0,
  });
  const cashier: Actor = { id: onlineCashier(playerId), role: 'admin' };
  const croupier: Actor = { id: ONLINE_CROUPIER, role: 'dealer' };
  const me: Actor = { id: playerId, role: 'player' };
  const pieces: Pieces = [
    [
      ...d.execute('OpenTable', { tableId: d.options.tableId, rules: { ...ONLINE_RULES } }, ADMIN),
      ...d.execute('BuyIn', { playerId, amount: 200_000 }, cashier),
    ],
  ];
  for (let i = 0; i < rounds; i++) {
    const round: TableEvent[] = [];
    if (d.state.phase !== 'betting')
      round.push(...d.execute('OpenBetting', { seed: d.nextSeed() }, croupier));
    const roundNo = d.state.roundNo;
    const spot = (['player', 'banker', 'tie'] as const)[i % 3] as 'player' | 'banker' | 'tie';
    if (i % 4 === 3) round.push(...d.execute('Rebet', { roundNo, playerId }, me));
    else round.push(...d.execute('PlaceBet', { roundNo, playerId, spot, amount: 100 * (1 + (i % 7)) }, me));
    if (i % 6 === 5) {
      round.push(...d.execute('ClearBets', { roundNo, playerId }, me));
      round.push(...d.execute('PlaceBet', { roundNo, playerId, spot: 'banker', amount: 500 }, me));
    }
    round.push(...d.execute('Deal', { roundNo, nextSeed: d.nextSeed() }, me));
    pieces.push(round);
  }
  pieces.push(d.execute('CashOut', { playerId }, cashier));
  return pieces;
}

/** A table of 40 players with a finished hand and then an open hand of more than 1,024 bets and clears. */
function bigHands(): Pieces {
  const d = new TableDriver({ tableId: 'BIG', players: 40, seed: 77 });
  const pieces: Pieces = [d.open(10_000_000), d.execute('StartShoe', { seed: d.nextSeed() })];
  for (const count of [1_200, 1_100]) {
    pieces.push(d.execute('OpenBetting', {}));
    for (let from = 0; from < count; from += 150)
      pieces.push(d.betsAndClears(from, Math.min(150, count - from), TableDriver.MIXED_BETS));
    if (count === 1_200)
      pieces.push([
        ...d.execute('CloseBetting', { roundNo: d.state.roundNo }),
        ...d.execute('Deal', { roundNo: d.state.roundNo }),
      ]);
  }
  return pieces;
}

/** Every table of the corpus, each as its pieces. */
function tables(): Pieces[] {
  return [
    drivenTable({ tableId: 'R1', seed: 11, players: 4, voidRate: 0.05, settledVoidRate: 0.05 }, 70),
    drivenTable(
      { tableId: 'R2', seed: 12, players: 6, rules: { commission: 'box', tiePays: 9, decks: 6 } },
      60,
      true,
    ),
    drivenTable({ tableId: 'R3', seed: 13, players: 3, rules: { decks: 1, cutCard: 12 } }, 50),
    drivenTable(
      {
        tableId: 'E1',
        seed: 21,
        players: 3,
        rules: { shuffle: 'every-coup' },
        voidRate: 0.04,
        settledVoidRate: 0.05,
      },
      60,
    ),
    drivenTable(
      {
        tableId: 'L1',
        seed: 31,
        players: 4,
        rules: { dealing: 'live' },
        correctionRate: 0.15,
        voidRate: 0.05,
        settledCorrectionRate: 0.15,
        settledVoidRate: 0.05,
      },
      60,
    ),
    drivenTable(
      {
        tableId: 'L2',
        seed: 32,
        players: 2,
        rules: { dealing: 'live', commission: 'box', decks: 2 },
        correctionRate: 0.3,
        voidRate: 0.1,
        settledCorrectionRate: 0.2,
      },
      50,
      true,
    ),
    drivenTable(
      {
        tableId: 'P1',
        seed: 41,
        players: 2,
        rules: { shuffle: 'every-coup', dealtBy: 'player' },
        voidRate: 0.05,
      },
      40,
    ),
    onlineTable('alice', 51, 40),
    onlineTable('bob', 52, 30),
    bigHands(),
    ...sideBetTables(),
  ];
}

/** Tables offering side bets, one per game mode and an every-coup one: players take them half the time. */
function sideBetTables(): Pieces[] {
  return [
    drivenTable(
      {
        tableId: 'S1',
        seed: 61,
        players: 4,
        voidRate: 0.05,
        rules: {
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
      },
      40,
    ),
    drivenTable(
      {
        tableId: 'S2',
        seed: 62,
        players: 3,
        correctionRate: 0.2,
        voidRate: 0.1,
        settledCorrectionRate: 0.2,
        settledVoidRate: 0.05,
        rules: {
          dealing: 'live',
          decks: 6,
          game: 'no-commission',
          sideBets: { super6: { paytable: '15-to-1' }, playerPair: {}, bankerPair: {}, big: {}, small: {} },
        },
      },
      40,
      true,
    ),
    // one deck: the shoe's composition moves enough for the edge monitor's alerts
    drivenTable(
      {
        tableId: 'S3',
        seed: 63,
        players: 3,
        voidRate: 0.05,
        settledVoidRate: 0.08,
        rules: {
          decks: 1,
          cutCard: 12,
          game: 'ez',
          sideBets: { dragon7: {}, panda8: {}, eitherPair: {}, playerDragon: {} },
        },
      },
      50,
    ),
    drivenTable(
      {
        tableId: 'S4',
        seed: 64,
        players: 2,
        rules: { shuffle: 'every-coup', game: 'ez', sideBets: { dragon7: {}, panda8: {} } },
      },
      30,
    ),
  ];
}

/** The corpus as recorded events, tables interleaved piece by piece in a fixed order. */
export function goldenCorpus(): RecordedEvent[] {
  const all = tables();
  const out: RecordedEvent[] = [];
  const revisions = new Map<string, number>();
  const ids = all.map((pieces) => (pieces[0]?.[0]?.data as { tableId: string }).tableId);
  for (let i = 0; all.some((p) => i < p.length); i++) {
    all.forEach((pieces, t) => {
      const tableId = ids[t] as string;
      for (const e of pieces[i] ?? []) {
        const revision = revisions.get(tableId) ?? 0;
        revisions.set(tableId, revision + 1);
        const position = out.length + 1;
        const d = e.data as { at: string; by?: string; role?: string };
        out.push({
          id: `00000000-0000-4000-8000-${position.toString(16).padStart(12, '0')}`,
          type: e.type,
          data: e.data as unknown as RecordedEvent['data'],
          metadata: {
            schemaVersion: EVENT_SCHEMA_VERSION[e.type] ?? 1,
            commandId: `cmd-${position}`,
            actor: d.by && d.role ? `${d.role}:${d.by}` : undefined,
          },
          streamName: tableStream(tableId),
          streamRevision: BigInt(revision),
          globalPosition: BigInt(position),
          recordedAt: d.at,
          prevHash: fakeHash(position - 1),
          hash: fakeHash(position),
        });
      }
    });
  }
  return out;
}

/** Batch sizes the runner might see, in turn: from one event to a catch-up's thousand. */
const BATCHES = [1, 7, 64, 500, 3, 1000, 250, 33];

/**
 * Folds the events into `db` as the runner does: ProjectionEngine batches of varied sizes, and a new engine
 * (states loaded back from the file, as after a restart) every `restartEvery` events.
 */
export function foldCorpus(
  db: Db,
  events: readonly RecordedEvent[],
  restartEvery = 4_000,
  projections = PROJECTIONS,
): void {
  for (const p of projections) ensureProjection(db, p);
  const engine = () => new ProjectionEngine({ db, projections, now: () => new Date(0) });
  let current = engine();
  let sinceRestart = 0;
  for (let i = 0, b = 0; i < events.length; b++) {
    const size = BATCHES[b % BATCHES.length] as number;
    current.applyBatch(events.slice(i, i + size));
    i += size;
    sinceRestart += size;
    if (sinceRestart >= restartEvery) {
      current = engine();
      sinceRestart = 0;
    }
  }
}

/** A SQL value as canonical text (typed: 1 and '1' differ). */
const canonical = (v: unknown): string => (typeof v === 'bigint' ? `${v}n` : JSON.stringify(v ?? null));

/**
 * Every table of every read model (its `<prefix>_state` included), rows ordered by primary key: per table the
 * row count and the SHA-256 of its rows, one line per row (`column=value` in column order).
 */
export function dumpHashes(db: Db): Record<string, { rows: number; sha256: string }> {
  const out: Record<string, { rows: number; sha256: string }> = {};
  for (const p of PROJECTIONS) {
    for (const def of projectionTables(p)) {
      const order = def.primaryKey.map((c) => `"${c}"`).join(', ');
      const rows = db.prepare(`SELECT * FROM "${def.name}" ORDER BY ${order}`).all() as Record<
        string,
        unknown
      >[];
      const hash = createHash('sha256');
      for (const r of rows) {
        hash.update(def.columns.map((c) => `${c.name}=${canonical(r[c.name])}`).join('\t'));
        hash.update('\n');
      }
      out[def.name] = { rows: rows.length, sha256: hash.digest('hex') };
    }
  }
  return out;
}
