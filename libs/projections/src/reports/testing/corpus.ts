/**
 * Test data for the reports: tables driven by the real decider into a memory store, and folded into a SQLite
 * read-model database by the projection runner, as the service folds them.
 */
import Database from 'better-sqlite3';
import { MemoryEventStore } from '@coup/event-store';
import type { TableEvent } from '@coup/table';
import type { AnyProjection } from '../../read-models/kernel/types';
import type { Db } from '../../runner/db';
import { ProjectionRunner } from '../../runner/runner';
import { TableDriver } from '../../testing/driver';
import { appendTable } from '../../testing/store';

/** A history: each table's events in pieces, appended in this order. */
export type History = readonly { readonly tableId: string; readonly events: readonly TableEvent[] }[];

/** The history folded by `projections` into a fresh in-memory SQLite read-model database. */
export async function foldHistory(history: History, projections: readonly AnyProjection[]): Promise<Db> {
  const store = new MemoryEventStore();
  for (const piece of history) await appendTable(store, piece.tableId, piece.events);
  const db = new Database(':memory:');
  const runner = new ProjectionRunner({ store, readModels: db, projections });
  await runner.catchUp();
  await runner.close();
  return db;
}

/** Every event by `from` (staff) recorded as done by `to` instead: another dealer at the table. */
function dealtBy(events: readonly TableEvent[], from: string, to: string): TableEvent[] {
  return events.map((e) => {
    const d = e.data as { by?: string; actorId?: string };
    if (d.by !== from && d.actorId !== from) return e;
    const data = {
      ...e.data,
      ...(d.by === from ? { by: to } : {}),
      ...(d.actorId === from ? { actorId: to } : {}),
    };
    return { ...e, data } as TableEvent;
  });
}

const START = '2026-03-28T18:00:00.000Z';

/**
 * Three tables from 18:00 UTC on 2026-03-28 through the night the London clocks go forward into the next
 * afternoon (two gaming days and every shift at 06:00 Europe/London), 60 rounds each: side bets, box commission,
 * no commission, voids, corrections and voids of settled coups, cash-outs, and a second dealer at two tables.
 * Ids whose byte order is not a language's ('n1' after 'R1', 'Zoe' before 'amy'), for the order of answers.
 */
export function reportsHistory(): History {
  const drivers = [
    new TableDriver({
      tableId: 'R1',
      seed: 101,
      players: 4,
      start: START,
      stepMs: 90_000,
      voidRate: 0.05,
      settledVoidRate: 0.05,
      rules: {
        sideBets: {
          playerPair: {},
          bankerPair: {},
          perfectPair: { paytable: '25-or-200-to-1' },
          big: {},
          small: {},
        },
      },
    }),
    new TableDriver({
      tableId: 'L1',
      seed: 102,
      players: 3,
      start: START,
      stepMs: 110_000,
      rules: { dealing: 'live', commission: 'box', decks: 6 },
      correctionRate: 0.2,
      voidRate: 0.05,
      settledCorrectionRate: 0.15,
      settledVoidRate: 0.05,
    }),
    new TableDriver({
      tableId: 'n1',
      seed: 103,
      players: 3,
      start: START,
      stepMs: 130_000,
      rules: { game: 'no-commission', decks: 6, sideBets: { super6: {} } },
    }),
  ];
  const out: { tableId: string; events: TableEvent[] }[] = drivers.map((d) => ({
    tableId: d.options.tableId,
    events: d.open(),
  }));
  for (let round = 0; round < 60; round++) {
    drivers.forEach((d, i) => {
      let events = d.playRound();
      if (i > 0 && round >= 30) events = dealtBy(events, 'dealer-1', i === 1 ? 'Zoe' : 'amy');
      if (round % 20 === 19) {
        const playerId = d.players[round % d.players.length] as string;
        events = [...events, ...d.execute('CashOut', { playerId }, { id: 'cashier-1', role: 'admin' })];
      }
      out.push({ tableId: d.options.tableId, events });
    });
  }
  return out;
}
