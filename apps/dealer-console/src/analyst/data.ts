/**
 * The analyst dashboard's data, pure: each chart's rows from the API's answers. A chart, its data table and its
 * CSV download are all drawn from the same rows, so the download is exactly what the chart shows.
 */
import type { BetStatsScope, BetTypeStats } from '@coup/projections/wire';
import { type CsvCell, csvOf } from '../export';

/** A chart's data as a table: column keys (the CSV header, and the catalogue's `columns.*`) and rows. */
export interface DataTable<K extends string = string> {
  readonly columns: readonly K[];
  readonly rows: readonly Readonly<Record<K, CsvCell>>[];
}

/** The CSV of a chart's data: the header is the column keys, the cells the raw values (fractions, cents). */
export function dataCsv(table: DataTable): string {
  return csvOf(
    table.columns,
    table.rows.map((r) => table.columns.map((c) => r[c])),
  );
}

export const FREQUENCY_COLUMNS = [
  'result',
  'coups',
  'count',
  'frequency',
  'ciLow',
  'ciHigh',
  'expected',
  'withinCi',
] as const;
export type FrequencyRow = Readonly<Record<(typeof FREQUENCY_COLUMNS)[number], CsvCell>>;

/**
 * Outcome frequencies (player, banker, tie) beside the exact odds, with the Wilson 95% interval: read from the
 * player bet's results, since every coup ends it as a win (player), a loss (banker) or a push (tie).
 */
export function outcomeFrequencies(
  scope: BetStatsScope | null,
): DataTable<(typeof FREQUENCY_COLUMNS)[number]> {
  const player = scope?.bets.find((b) => b.spot === 'player');
  const byOutcome = { player: 'win', banker: 'lose', tie: 'push' } as const;
  const rows = (['player', 'banker', 'tie'] as const).map((outcome): FrequencyRow => {
    const r = player?.results.find((x) => x.result === byOutcome[outcome]);
    return {
      result: outcome,
      coups: player?.coups ?? 0,
      count: r?.count ?? 0,
      frequency: r?.frequency ?? null,
      ciLow: r?.ci95?.low ?? null,
      ciHigh: r?.ci95?.high ?? null,
      expected: r?.expected ?? null,
      withinCi: r?.withinCi95 ?? null,
    };
  });
  return { columns: FREQUENCY_COLUMNS, rows };
}

/** A bet type's name in rows and selects: its spot and, when it has several, what sets its payouts. */
export const betKey = (b: Pick<BetTypeStats, 'spot' | 'variant'>): string => `${b.spot}:${b.variant}`;

/** Every result of one bet type (wins by their odds, push, lose) beside its exact probability. */
export function betResults(bet: BetTypeStats | undefined): DataTable<(typeof FREQUENCY_COLUMNS)[number]> {
  const rows = (bet?.results ?? []).map((r): FrequencyRow => ({
    result: r.key,
    coups: bet?.coups ?? 0,
    count: r.count,
    frequency: r.frequency,
    ciLow: r.ci95?.low ?? null,
    ciHigh: r.ci95?.high ?? null,
    expected: r.expected,
    withinCi: r.withinCi95,
  }));
  return { columns: FREQUENCY_COLUMNS, rows };
}

export const FLAG_COLUMNS = [
  'bet',
  'variant',
  'result',
  'coups',
  'count',
  'frequency',
  'ciLow',
  'ciHigh',
  'expected',
] as const;

/** The results whose exact probability lies outside their 95% interval: worth a look (1 in 20 by chance). */
export function outsideInterval(scope: BetStatsScope | null): DataTable<(typeof FLAG_COLUMNS)[number]> {
  const rows = (scope?.bets ?? []).flatMap((b) =>
    b.results
      .filter((r) => r.withinCi95 === false)
      .map((r) => ({
        bet: b.spot,
        variant: b.variant,
        result: r.key,
        coups: b.coups,
        count: r.count,
        frequency: r.frequency,
        ciLow: r.ci95?.low ?? null,
        ciHigh: r.ci95?.high ?? null,
        expected: r.expected,
      })),
  );
  return { columns: FLAG_COLUMNS, rows };
}
