/**
 * What the queries answer about the golden corpus: every public `ReadModels` query with a representative set of
 * filters, pages and cursors. The golden test hashes the answers from the SQLite file; the dialect test compares
 * the answers from SQLite and PostgreSQL over the same rows.
 */
import { createHash } from 'node:crypto';
import { ReadModels } from '../read';
import type { Db } from '../runner/db';

export type QueryAnswers = Record<
  'table' | 'hands' | 'hand' | 'shoe' | 'roads' | 'stats' | 'ledger' | 'betStats' | 'edge',
  unknown[]
>;

/** Every table's answers (its hands in both orders and pages, each hand, its state, shoes, roads, stats). */
async function tableAnswers(rm: ReadModels, t: string, a: QueryAnswers, players: Set<string>): Promise<void> {
  a.table.push(await rm.table(t));
  const asc = await rm.hands(t, { order: 'asc' }, { limit: 500 });
  a.hands.push(asc, await rm.hands(t, { outcome: 'banker', player: 'p1' }, { limit: 7 }));
  const page = await rm.hands(t, {}, { limit: 5 });
  a.hands.push(page, await rm.hands(t, {}, { limit: 5, cursor: page.nextCursor ?? undefined }));
  a.hands.push(
    await rm.hands(t, { outcome: 'void' }),
    await rm.hands(t, { shoe: 2, roundFrom: 3, roundTo: 40 }),
  );
  a.hands.push(await rm.hands(t, { from: '2025-01-02', to: '2025-01-03T00:00:00Z' }));
  let maxShoe = 0;
  for (const h of asc.items) {
    a.hand.push(await rm.hand(t, h.roundNo), await rm.stateBefore(t, h.roundNo));
    for (const p of h.players) players.add(p);
    maxShoe = Math.max(maxShoe, h.shoeNo);
  }
  for (let s = 1; s <= maxShoe; s++) a.shoe.push(await rm.shoe(t, s));
  a.roads.push(await rm.roads(t));
  for (let s = 1; s <= maxShoe; s += 3) a.roads.push(await rm.roads(t, s));
  a.stats.push(await rm.stats({ tableId: t }));
  a.betStats.push(await rm.betStats({ tableId: t }));
  a.edge.push(await rm.edgeNow(t), await rm.edgeReport({ tableId: t }, { limit: 500 }));
}

/**
 * What the queries answer about the corpus (every table: the hands list in both orders and pages, every hand,
 * its stored state, every shoe and road; stats overall, per table and for a day range; every player's ledger in
 * pages), by query kind, in a fixed order.
 */
export async function queryAnswers(rm: ReadModels, tableIds: readonly string[]): Promise<QueryAnswers> {
  const a: QueryAnswers = {
    table: [],
    hands: [],
    hand: [],
    shoe: [],
    roads: [],
    stats: [],
    ledger: [],
    betStats: [],
    edge: [],
  };
  const players = new Set<string>();
  for (const t of tableIds) await tableAnswers(rm, t, a, players);
  a.stats.push(await rm.stats(), await rm.stats({ from: '2025-01-02', to: '2025-01-02' }));
  a.betStats.push(await rm.betStats(), await rm.betStats({ from: '2025-01-02', to: '2025-01-02' }));
  const report = await rm.edgeReport({}, { limit: 3 });
  a.edge.push(await rm.edgeNow(), report);
  a.edge.push(await rm.edgeReport({}, { limit: 3, cursor: report.nextCursor ?? undefined }));
  a.edge.push(await rm.edgeReport({ spot: 'dragon7', from: '2025-01-02' }));
  for (const p of [...players].sort()) {
    const first = await rm.ledger(p, { limit: 20 });
    a.ledger.push(first, await rm.ledger(p, { limit: 500, cursor: first.nextCursor ?? undefined }));
    a.ledger.push(await rm.ledger(p, { tableId: tableIds[0] as string }));
  }
  return a;
}

/** The corpus's query answers from the SQLite file, hashed per query kind (the golden test's record). */
export async function queryHashes(db: Db, tableIds: readonly string[]): Promise<Record<string, string>> {
  const answers = await queryAnswers(ReadModels.sqlite(db), tableIds);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(answers))
    out[k] = createHash('sha256').update(JSON.stringify(v)).digest('hex');
  return out;
}
