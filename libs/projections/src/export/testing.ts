/**
 * Test data and checks for the exports: a night of three tables (side bets, box commission, no commission, voids
 * and corrections before and after settling, cash-outs; players whose ids sort differently by bytes and by a
 * language's rules) folded by the analysts' model into SQLite, and a reader of RFC 4180 text.
 */
import type { TableEvent } from '@coup/table';
import { analystProjection } from '../read-models/analyst/fold';
import type { Db } from '../runner/db';
import { type History, foldHistory } from '../reports/testing/corpus';
import { TableDriver } from '../testing/driver';

/** The analysts' model with the default gaming day (06:00 UTC). */
export const exportProjection = analystProjection();

/** From 05:00 UTC on 2026-11-30: rounds before 06:00 fall in gaming day 2026-11-29, the rest in 2026-11-30. */
export function exportHistory(rounds = 48): History {
  const start = '2026-11-30T05:00:00.000Z';
  const drivers = [
    new TableDriver({
      tableId: 'R1',
      seed: 201,
      players: 3,
      start,
      stepMs: 40_000,
      voidRate: 0.08,
      settledVoidRate: 0.08,
      rules: { sideBets: { playerPair: {}, bankerPair: {}, perfectPair: {}, big: {}, small: {} } },
    }),
    new TableDriver({
      tableId: 'L1',
      seed: 202,
      players: 3,
      start,
      stepMs: 50_000,
      rules: { dealing: 'live', commission: 'box', decks: 6 },
      correctionRate: 0.2,
      settledCorrectionRate: 0.15,
      settledVoidRate: 0.05,
    }),
    new TableDriver({
      tableId: 'n1',
      seed: 203,
      players: 2,
      start,
      stepMs: 60_000,
      rules: { game: 'no-commission', decks: 6, sideBets: { super6: {} } },
    }),
  ];
  // 'Zoe' sorts before 'amy' by bytes, after it by a language's rules
  drivers[0]?.players.splice(0, 2, 'Zoe', 'amy');
  const out: { tableId: string; events: TableEvent[] }[] = drivers.map((d) => ({
    tableId: d.options.tableId,
    events: d.open(),
  }));
  for (let round = 0; round < rounds; round++) {
    for (const d of drivers) {
      let events = d.playRound();
      if (round % 15 === 14) {
        const playerId = d.players[round % d.players.length] as string;
        events = [...events, ...d.execute('CashOut', { playerId }, { id: 'cashier-1', role: 'admin' })];
      }
      out.push({ tableId: d.options.tableId, events });
    }
  }
  return out;
}

/** The history folded by the analysts' model into an in-memory SQLite database. */
export function foldExportHistory(rounds?: number): Promise<Db> {
  return foldHistory(exportHistory(rounds), [exportProjection]);
}

/** A CSV field as read: its text, and whether it was quoted (an unquoted empty field is NULL). */
export interface CsvField {
  readonly text: string;
  readonly quoted: boolean;
}

/** RFC 4180 text read into records of fields (CRLF line ends, "" for a quote inside a quoted field). */
export function readCsv(text: string): CsvField[][] {
  const records: CsvField[][] = [];
  let fields: CsvField[] = [];
  let i = 0;
  while (i < text.length) {
    let value = '';
    const quoted = text[i] === '"';
    if (quoted) {
      for (i++; !(text[i] === '"' && text[i + 1] !== '"'); i++) {
        if (i >= text.length) throw new Error('an unterminated quoted field');
        value += text[i];
        if (text[i] === '"') i++;
      }
      i++;
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') value += text[i++];
    }
    fields.push({ text: value, quoted });
    if (text[i] === ',') i++;
    else if (text.startsWith('\r\n', i)) {
      records.push(fields);
      fields = [];
      i += 2;
    } else throw new Error(`unexpected ${JSON.stringify(text[i])} at ${i}`);
  }
  if (fields.length > 0) throw new Error('the last record has no line end');
  return records;
}
