/**
 * A history recorded by the code before side bets and game modes (commit 927d27d), and what its read models
 * made of it: `pre-side-bets.json.gz` holds the events, every read-model row and a few query answers, written
 * by `record.spec.ts` run in a worktree of that commit (see it). The current code folds the same events and must
 * give the same rows (pre-side-bets.int.spec.ts). Only APIs that exist in both versions are used here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent } from '@coup/event-store';
import { type Actor, EVENT_SCHEMA_VERSION, type TableEvent, tableStream } from '@coup/table';
import { PROJECTIONS, type Row } from '../../src/read-models';
import { ReadModels } from '../../src/read';
import { openReadModelDb } from '../../src/runner/db';
import { dumpSqlite } from '../../src/testing/compare';
import { foldCorpus } from '../../src/testing/corpus';
import { type DriverOptions, TableDriver } from '../../src/testing/driver';
import { fakeHash } from '../../src/testing/events';

export const FIXTURE = join(__dirname, 'pre-side-bets.json.gz');

const ADMIN: Actor = { id: 'admin-1', role: 'admin' };
const SUPERVISOR: Actor = { id: 'super-1', role: 'supervisor' };

/** A table driven `rounds` rounds, a cash-out and re-buy now and then, an early shoe end, closed if asked. */
function driven(
  options: DriverOptions,
  rounds: number,
  close = false,
  d = new TableDriver(options),
): TableEvent[][] {
  const pieces: TableEvent[][] = [d.open()];
  for (let i = 0; i < rounds; i++) {
    pieces.push(d.playRound());
    if (i % 7 === 3) {
      const p = d.players[i % d.players.length] as string;
      pieces.push([
        ...d.execute('CashOut', { playerId: p }, ADMIN),
        ...d.execute('BuyIn', { playerId: p, amount: 50_000 }, ADMIN),
      ]);
    }
    if (i === Math.floor(rounds / 2)) d.setTime('2025-01-02T09:00:00.000Z');
    if (i === 12 && d.rules.shuffle === 'shoe' && d.state.phase === 'ready')
      pieces.push(d.execute('EndShoe', {}, SUPERVISOR));
  }
  if (close) pieces.push(d.execute('CloseTable', {}, ADMIN), d.execute('CashOut', { playerId: 'p1' }, ADMIN));
  return pieces;
}

/** `pieces` and a round left open: betting opened, two bets, one cleared. */
function leftOpen(pieces: TableEvent[][], d: TableDriver): TableEvent[][] {
  const p1: Actor = { id: 'p1', role: 'player' };
  const p2: Actor = { id: 'p2', role: 'player' };
  const open = d.execute('OpenBetting', {});
  const roundNo = d.state.roundNo;
  return [
    ...pieces,
    [
      ...open,
      ...d.execute('PlaceBet', { roundNo, playerId: 'p1', spot: 'banker', amount: 2_500 }, p1),
      ...d.execute('PlaceBet', { roundNo, playerId: 'p2', spot: 'tie', amount: 500 }, p2),
      ...d.execute('ClearBets', { roundNo, playerId: 'p2' }, p2),
    ],
  ];
}

/** The tables of the history: rng and live, shoe and every-coup, dealer- and player-dealt, both commissions. */
function tables(): TableEvent[][][] {
  const o1 = new TableDriver({ tableId: 'O1', seed: 101, players: 4, voidRate: 0.05 });
  return [
    leftOpen(driven(o1.options, 40, false, o1), o1),
    driven(
      { tableId: 'O2', seed: 102, players: 3, rules: { commission: 'box', tiePays: 9, decks: 6 } },
      30,
      true,
    ),
    driven({ tableId: 'O3', seed: 103, players: 3, rules: { decks: 1, cutCard: 12 } }, 30),
    driven({ tableId: 'O4', seed: 104, players: 3, rules: { shuffle: 'every-coup' }, voidRate: 0.05 }, 30),
    driven(
      {
        tableId: 'O5',
        seed: 105,
        players: 3,
        rules: { dealing: 'live', commission: 'box', decks: 2 },
        correctionRate: 0.3,
        voidRate: 0.1,
      },
      40,
    ),
    driven({ tableId: 'O6', seed: 106, players: 2, rules: { shuffle: 'every-coup', dealtBy: 'player' } }, 20),
  ];
}

/** The history as recorded events, tables interleaved piece by piece, deterministic ids, times and hashes. */
export function recordHistory(): RecordedEvent[] {
  const all = tables();
  const out: RecordedEvent[] = [];
  const revisions = new Map<string, number>();
  for (let i = 0; all.some((p) => i < p.length); i++) {
    for (const pieces of all) {
      const tableId = (pieces[0]?.[0]?.data as { tableId: string }).tableId;
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
    }
  }
  return out;
}

/** What the read models make of the events: every row of every table, and some query answers. */
export interface ReadSide {
  readonly rows: Record<string, Row[]>;
  readonly answers: Record<string, unknown>;
}

/** Folds the events as the runner does (batches, a restart) into a fresh file, and reads every table back. */
export async function readSideOf(events: readonly RecordedEvent[]): Promise<ReadSide> {
  const dir = mkdtempSync(join(tmpdir(), 'coup-pre-side-bets-'));
  try {
    const db = openReadModelDb(join(dir, 'rm.sqlite'));
    foldCorpus(db, events, 1_000);
    const rm = ReadModels.sqlite(db);
    const tableIds = [...new Set(events.map((e) => e.streamName.slice('table-'.length)))].sort();
    const answers: Record<string, unknown> = { stats: await rm.stats() };
    for (const t of tableIds) {
      answers[`stats/${t}`] = await rm.stats({ tableId: t });
      answers[`roads/${t}`] = await rm.roads(t);
      answers[`hands/${t}`] = await rm.hands(t, { order: 'asc' }, { limit: 500 });
    }
    for (const p of ['p1', 'p2', 'p3', 'p4']) answers[`ledger/${p}`] = await rm.ledger(p, { limit: 500 });
    const rows = dumpSqlite(db, PROJECTIONS);
    db.close();
    return { rows, answers: JSON.parse(JSON.stringify(answers)) as Record<string, unknown> };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Events as JSON (the bigints as strings), and back. */
export function eventsToJson(events: readonly RecordedEvent[]): unknown[] {
  return events.map((e) => ({
    ...e,
    streamRevision: e.streamRevision.toString(),
    globalPosition: e.globalPosition.toString(),
  }));
}

export function eventsFromJson(json: readonly Record<string, unknown>[]): RecordedEvent[] {
  return json.map(
    (e) =>
      ({
        ...e,
        streamRevision: BigInt(e['streamRevision'] as string),
        globalPosition: BigInt(e['globalPosition'] as string),
      }) as unknown as RecordedEvent,
  );
}
