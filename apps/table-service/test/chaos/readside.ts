/**
 * The read side at the end of the chaos scenario: once the projections have folded the whole log, each player's
 * ledger and the table's stats (through every process) equal the money folded from the events, and the read-model
 * file equals a rebuild from position 0 into a fresh file, table by table.
 */
import { join } from 'node:path';
import type { EventStore } from '@coup/event-store';
import { PROJECTIONS, openReadModelDb, rebuildProjections, type Db } from '@coup/projections';
import type { Account, TableTotals } from './checks';
import { request } from './http';
import type { Journal } from './journal';
import type { ServiceNode } from './nodes';
import { sameJson, sleep } from './util';

/** Waits (bounded) until every projection's checkpoint reaches `head`; false if it never does. */
export async function readSideCaughtUp(
  node: ServiceNode,
  token: string,
  head: number,
  timeoutMs: number,
): Promise<{ ok: boolean; checkpoints: Record<string, number> }> {
  const deadline = performance.now() + timeoutMs;
  let checkpoints: Record<string, number> = {};
  for (;;) {
    const answer = await request(node.url, 'GET', '/api/projections', token);
    if (answer?.status === 200) {
      const list = (answer.body as { projections: { name: string; checkpoint: number }[] }).projections;
      checkpoints = Object.fromEntries(list.map((p) => [p.name, p.checkpoint]));
      if (list.length > 0 && list.every((p) => p.checkpoint >= head)) return { ok: true, checkpoints };
    }
    if (performance.now() > deadline) return { ok: false, checkpoints };
    await sleep(200);
  }
}

const LEDGER_FIELDS = [
  'chips',
  'buyIns',
  'boughtIn',
  'cashOuts',
  'cashedOut',
  'bets',
  'staked',
  'cleared',
  'paid',
  'voidedReturned',
] as const satisfies readonly (keyof Account)[];

/** Each player's ledger account for the table, through each process, against the money in the events. */
export async function checkLedgers(
  nodes: readonly ServiceNode[],
  token: string,
  tableId: string,
  accounts: ReadonlyMap<string, Account>,
  j: Journal,
): Promise<void> {
  for (const node of nodes)
    for (const [playerId, expected] of accounts) {
      const answer = await request(
        node.url,
        'GET',
        `/api/players/${playerId}/ledger?tableId=${tableId}&limit=1`,
        token,
      );
      if (answer?.status !== 200) {
        j.violation('ledger-exact', `${playerId} via ${node.name}: ${answer?.status ?? 'no answer'}`);
        continue;
      }
      const account = (answer.body as { accounts: Record<string, unknown>[] }).accounts.find(
        (a) => a['tableId'] === tableId,
      );
      const got = Object.fromEntries(LEDGER_FIELDS.map((f) => [f, account?.[f]]));
      const want = Object.fromEntries(LEDGER_FIELDS.map((f) => [f, expected[f]]));
      if (!sameJson(got, want))
        j.violation(
          'ledger-exact',
          `${playerId} via ${node.name}: ledger ${JSON.stringify(got)}, events ${JSON.stringify(want)}`,
        );
    }
}

/**
 * The table's stats through each process against the events: the main bets' counters (coups, voids, handle, paid,
 * commission), and the statistics per bet type.
 */
export async function checkStats(
  nodes: readonly ServiceNode[],
  token: string,
  tableId: string,
  totals: TableTotals,
  j: Journal,
): Promise<void> {
  // The main bets' counters (the side bets have statistics per bet type of their own).
  const { player, banker, tie } = totals.handle;
  const paid = totals.paidBySpot;
  const want = {
    coups: totals.coups,
    voids: totals.voids,
    handle: { player, banker, tie, total: player + banker + tie },
    paid: paid.player + paid.banker + paid.tie,
    commission: totals.commission,
  };
  for (const node of nodes) {
    const answer = await request(node.url, 'GET', `/api/stats?tableId=${tableId}`, token);
    const row = (answer?.body as { tables?: Record<string, unknown>[] } | undefined)?.tables?.find(
      (t) => t['tableId'] === tableId,
    );
    const got = row && {
      coups: row['coups'],
      voids: row['voids'],
      handle: row['handle'],
      paid: row['paid'],
      commission: row['commission'],
    };
    if (!sameJson(got, want))
      j.violation(
        'stats-exact',
        `via ${node.name}: stats ${JSON.stringify(got)}, events ${JSON.stringify(want)}`,
      );
    await checkBetStats(node, token, tableId, totals, j);
  }
}

/**
 * The table's statistics per bet type (side bets included) as one process answers them: each spot's stakes and what
 * it paid back equal the events' (a bet type of the table with no stakes shows 0), and every spot staked is listed.
 */
async function checkBetStats(
  node: ServiceNode,
  token: string,
  tableId: string,
  totals: TableTotals,
  j: Journal,
) {
  const amounts = (spots: object) => spots as Record<string, number | undefined>;
  const staked = Object.keys(totals.handle).filter((s) => amounts(totals.handle)[s]);
  const answer = await request(node.url, 'GET', `/api/stats/bets?tableId=${tableId}`, token);
  const table = (
    answer?.body as { tables?: { tableId: string; bets: { spot: string; handle: number; paid: number }[] }[] }
  )?.tables?.find((t) => t.tableId === tableId);
  const got = Object.fromEntries(
    (table?.bets ?? []).map((b) => [b.spot, { handle: b.handle, paid: b.paid }]),
  );
  const expected = Object.fromEntries(
    [...new Set([...Object.keys(got), ...staked])].map((spot) => [
      spot,
      { handle: amounts(totals.handle)[spot] ?? 0, paid: amounts(totals.paidBySpot)[spot] ?? 0 },
    ]),
  );
  if (!sameJson(got, expected))
    j.violation(
      'stats-exact',
      `per bet type via ${node.name}: ${JSON.stringify(got)}, events ${JSON.stringify(expected)}`,
    );
}

/** Every table of every projection, as stored, each row as JSON text, in sorted order. */
function storedRows(db: Db): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  for (const projection of PROJECTIONS)
    for (const { name } of projection.tables)
      tables.set(
        name,
        (db.prepare(`SELECT * FROM "${name}"`).all() as unknown[]).map((row) => JSON.stringify(row)).sort(),
      );
  return tables;
}

/**
 * The read models the service kept equal a rebuild from the log into a fresh file (as `coup projections
 * rebuild` does), every table of every projection, row for row. Run with the services stopped.
 */
export async function checkRebuild(
  store: EventStore,
  readModelFile: string,
  scratchDir: string,
  j: Journal,
): Promise<void> {
  const live = openReadModelDb(readModelFile, { readonly: true });
  const fresh = openReadModelDb(join(scratchDir, 'rebuilt-read-models.sqlite'));
  try {
    await rebuildProjections({ store, db: fresh });
    const kept = storedRows(live);
    for (const [table, rebuilt] of storedRows(fresh)) {
      const rows = kept.get(table) ?? [];
      if (rows.length === rebuilt.length && rows.every((row, i) => row === rebuilt[i])) continue;
      const inKept = new Set(rows);
      const inRebuilt = new Set(rebuilt);
      const onlyKept = rows.filter((row) => !inRebuilt.has(row));
      const onlyRebuilt = rebuilt.filter((row) => !inKept.has(row));
      j.violation(
        'read-models-equal-rebuild',
        `${table}: ${rows.length} rows kept, ${rebuilt.length} rebuilt; only kept: ${onlyKept.slice(0, 2).join(' ')}; only rebuilt: ${onlyRebuilt.slice(0, 2).join(' ')}`,
      );
    }
  } finally {
    live.close();
    fresh.close();
  }
}
