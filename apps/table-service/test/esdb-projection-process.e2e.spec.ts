/**
 * The read side on EventStoreDB runs in the projection process, not on a service's request thread (issue 20): the
 * BUILT service with COUP_EVENT_STORE=eventstoredb and COUP_PROJECTIONS=off, and the BUILT `coup projections run`
 * folding $all (through @eventstore/db-client over gRPC, against the protocol-level stand-in, or the real server
 * EVENTSTORE_CONNECTION_STRING names) into the read models the service reads (a SQLite file here; PostgreSQL in the
 * multi-instance spec). On the stand-in the store is stopped and started again under both: the projection process
 * subscribes again and folds what came after. Its read models then equal $all folded from scratch, and the service
 * answers from them with no lag.
 * Build first: `npx nx run-many -t build -p @coup/table-service @coup/cli`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { signToken } from '@coup/auth';
import { EventStoreDbEventStore } from '@coup/event-store';
import { request } from './chaos/http';
import { esdbForTests, type EsdbForTests } from './esdb-standin';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';
import { type ProjectionProcess, spawnProjections } from './projection-process';
import { dumpReadModels, rebuildInto } from './read-model-dump';

jest.setTimeout(90_000);

const admin = signToken(SECRET, { sub: 'admin-1', role: 'admin' });
const dealer = signToken(SECRET, { sub: 'dealer-1', role: 'dealer' });

let esdb: EsdbForTests;
let dir: string;
let service: ServiceProcess | null = null;
let projector: ProjectionProcess | null = null;

beforeAll(async () => {
  esdb = await esdbForTests();
  dir = mkdtempSync(join(tmpdir(), 'coup-esdb-projector-'));
});

afterAll(async () => {
  await projector?.stop('SIGKILL');
  await service?.stop('SIGKILL');
  await esdb?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function ok(method: string, path: string, token: string, body?: unknown) {
  for (let attempt = 0; ; attempt++) {
    const r = await request(service!.url, method, path, token, body === undefined ? {} : { body });
    // Just after the store came back the service may still answer 503 once: a command is decided again.
    if (r && r.status === 503 && attempt < 50) {
      await sleep(100);
      continue;
    }
    if (!r || r.status >= 300) throw new Error(`${method} ${path}: ${r?.status} ${JSON.stringify(r?.body)}`);
    return r.body;
  }
}

// A real server keeps what earlier suites wrote: this spec's table and player are its own.
const suffix = randomUUID().slice(0, 8);
const TABLE = `E${suffix}`;
const PLAYER = `p-${suffix}`;

async function round(tableId: string): Promise<void> {
  const { roundNo } = await ok('POST', `/api/tables/${tableId}/rounds`, dealer);
  await ok('POST', `/api/tables/${tableId}/rounds/${roundNo}/bets`, admin, {
    playerId: PLAYER,
    spot: 'banker',
    amount: 1_000,
  });
  await ok('POST', `/api/tables/${tableId}/rounds/${roundNo}/close`, dealer);
  await ok('POST', `/api/tables/${tableId}/rounds/${roundNo}/deal`, dealer);
}

type Status = {
  readModels: string;
  foldedBy: string;
  projections: { lag: number; lagIsLowerBound: boolean }[];
};

it('coup projections run folds $all into the read models a service with COUP_PROJECTIONS=off answers from, across a store restart (on the stand-in)', async () => {
  const readModels = join(dir, 'shared-read-models.sqlite');
  const store = { COUP_EVENT_STORE: 'eventstoredb', EVENTSTORE_CONNECTION_STRING: esdb.connectionString };
  service = await spawnService(dir, { ...store, COUP_PROJECTIONS: 'off', COUP_READ_MODELS: readModels });
  projector = spawnProjections({ ...store, COUP_DATA_DIR: dir, COUP_READ_MODELS: readModels }, [
    '--commit-ms',
    '20',
  ]);
  await projector.until((l) => l['msg'] === 'following the log', 'it follows $all');

  await ok('POST', '/api/tables', admin, { tableId: TABLE, rules: { dealing: 'rng' } });
  await ok('POST', `/api/tables/${TABLE}/players/${PLAYER}/buy-in`, admin, { amount: 50_000 });
  await ok('POST', `/api/tables/${TABLE}/shoes`, dealer);
  await round(TABLE);

  // The store goes away under both processes and comes back on its port: the projection process subscribes again.
  // A real server cannot be stopped from here.
  const standin = esdb.standin;
  if (standin) {
    await standin.stop();
    await sleep(300);
    await standin.start();
  }
  await round(TABLE);
  await round(TABLE);

  let status = (await ok('GET', '/api/projections', admin)) as Status;
  for (let i = 0; i < 500 && !status.projections.every((p) => p.lag === 0 && !p.lagIsLowerBound); i++) {
    await sleep(20);
    status = (await ok('GET', '/api/projections', admin)) as Status;
  }
  expect(status).toMatchObject({ readModels: 'sqlite', foldedBy: 'another process' });
  expect(status.projections.map((p) => p.lag)).toEqual(status.projections.map(() => 0));
  expect(
    projector.logs().some((l) => l['msg'] === 'projection batch failed: retrying from the checkpoints'),
  ).toBe(standin !== null);

  const hands = await ok('GET', `/api/tables/${TABLE}/hands?order=asc`, admin);
  expect(hands.items.map((h: { roundNo: number }) => h.roundNo)).toEqual([1, 2, 3]);
  const ledger = await ok('GET', `/api/players/${PLAYER}/ledger`, admin);
  expect(ledger.accounts).toEqual([expect.objectContaining({ tableId: TABLE, bets: 3, staked: 3_000 })]);

  const reader = new EventStoreDbEventStore({ connectionString: esdb.connectionString });
  try {
    const fresh = join(dir, 'rebuilt.sqlite');
    await rebuildInto(reader, fresh);
    expect(await dumpReadModels(readModels)).toEqual(await dumpReadModels(fresh));
  } finally {
    await reader.close();
  }
  expect(await projector.stop('SIGTERM')).toBe(0);
});
