/**
 * bench:pg-lag's tables and load: each table lives on one instance (a table's commands go to the instance that
 * holds it), with its own players bought in and an RNG shoe; its bets come open loop at a fixed rate
 * (tools/bench/paced.ts), one round after another: the round is open for `roundSeconds`, then closed and dealt
 * (its settlements are folded too) and the next one opened, the offer going on meanwhile.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { signToken } from '@coup/auth';
import { request } from '../../apps/table-service/test/chaos/http';
import { paced, type PacedRequest, type PacedResult } from './paced';
import { BENCH_SECRET as SECRET } from './children';

const admin = signToken(SECRET, { sub: 'bench-admin', role: 'admin' });
const dealer = signToken(SECRET, { sub: 'bench-dealer', role: 'dealer' });
const LIMITS = {
  player: { min: 100, max: 1_000_000_000 },
  banker: { min: 100, max: 1_000_000_000 },
  tie: { min: 100, max: 1_000_000_000 },
};

export interface Table {
  readonly id: string;
  readonly url: string;
  readonly bets: readonly PacedRequest[];
  roundNo: number;
}

/** A request that must succeed; answers the body. */
async function call(url: string, method: string, path: string, token: string, body?: unknown): Promise<any> {
  const r = await request(url, method, path, token, body === undefined ? {} : { body });
  if (r === null || r.status >= 300)
    throw new Error(`${method} ${path}: ${r?.status} ${JSON.stringify(r?.body)}`);
  return r.body;
}

/** Opens the next round, starting a new shoe first when there is none or it has ended. */
async function openRound(table: Table): Promise<void> {
  const view = await call(table.url, 'GET', `/api/tables/${table.id}`, admin);
  if (view.shoe === null || view.shoe?.ended)
    await call(table.url, 'POST', `/api/tables/${table.id}/shoes`, dealer, {});
  table.roundNo = (await call(table.url, 'POST', `/api/tables/${table.id}/rounds`, dealer)).roundNo as number;
}

/** A table `id` on `url` with `players` players bought in (ids `<id>p<i>`, their own tokens), a round open. */
export async function prepareTable(url: string, id: string, players: number): Promise<Table> {
  await call(url, 'POST', '/api/tables', admin, { tableId: id, rules: { dealing: 'rng', limits: LIMITS } });
  const ids = Array.from({ length: players }, (_, i) => `${id}p${i}`);
  for (let i = 0; i < ids.length; i += 50)
    await Promise.all(
      ids
        .slice(i, i + 50)
        .map((p) =>
          call(url, 'POST', `/api/tables/${id}/players/${p}/buy-in`, admin, { amount: 10_000_000_000 }),
        ),
    );
  const bets = ids.map((playerId, i) => ({
    body: JSON.stringify({ playerId, spot: i % 2 ? 'player' : 'banker', amount: 100 }),
    token: signToken(SECRET, { sub: playerId, role: 'player' }),
  }));
  const table: Table = { id, url, bets, roundNo: 0 };
  await openRound(table);
  return table;
}

export interface TableLoad {
  sent: number;
  ok: number;
  refused: number;
  errors: number;
  /** The worst p99 and max of the rounds' answer latencies (ms from when each bet was due). */
  p99: number;
  max: number;
  rounds: number;
}

function add(load: TableLoad, r: PacedResult): void {
  load.sent += r.sent;
  load.ok += r.ok;
  load.refused += r.non2xx;
  load.errors += r.errors;
  load.p99 = Math.max(load.p99, r.p99);
  load.max = Math.max(load.max, r.max);
}

/**
 * Bets on `table` at `rate`/s for `seconds`, round after round (the first `firstRound` seconds long, so that the
 * tables' rounds do not all end at once); answers what came back. The offer stays open loop across rounds: when a
 * round's betting time is over it is closed, dealt and the next one opened while its last bets are still being
 * answered (a bet that reaches the table after the close is refused, as on a real table).
 */
export async function driveTable(
  table: Table,
  options: { rate: number; seconds: number; roundSeconds: number; connections: number; firstRound?: number },
): Promise<TableLoad> {
  const load: TableLoad = { sent: 0, ok: 0, refused: 0, errors: 0, p99: 0, max: 0, rounds: 0 };
  const answers: Promise<void>[] = [];
  const end = performance.now() + options.seconds * 1000;
  for (;;) {
    const left = (end - performance.now()) / 1000;
    if (left <= 0.05) break;
    const round = load.rounds === 0 ? (options.firstRound ?? options.roundSeconds) : options.roundSeconds;
    const seconds = options.roundSeconds > 0 ? Math.min(round, left) : left;
    const path = `/api/tables/${table.id}/rounds/${table.roundNo}`;
    const betting = paced(
      table.url,
      `${path}/bets`,
      { connections: options.connections, rate: options.rate, seconds },
      table.bets,
    ).then((r) => add(load, r));
    answers.push(betting);
    load.rounds++;
    if (options.roundSeconds <= 0) break;
    // paced's schedule starts once its connections are made (a few ms): the round closes when it has offered all.
    await Promise.race([betting, sleep(seconds * 1000 + 20)]);
    await call(table.url, 'POST', `${path}/close`, dealer);
    await call(table.url, 'POST', `${path}/deal`, dealer);
    await openRound(table);
  }
  await Promise.all(answers);
  return load;
}
