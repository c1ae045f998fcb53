/**
 * The built service (`dist/main.js`) in each place the projections can run (COUP_PROJECTIONS=worker, the
 * default; in-process; off): `/metrics` carries the projection lag and checkpoint gauges, and `GET /api/tables`
 * lists every table, those opened in earlier runs and those opened by another service process on the same store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';

jest.setTimeout(120_000);

const admin = signToken(SECRET, { sub: 'admin-1', role: 'admin' });
const PROJECTIONS = ['table-view', 'hand-history', 'roads', 'stats', 'ledger', 'edge-monitor', 'analyst'];

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'coup-read-side-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function api(s: ServiceProcess, method: string, path: string, body?: unknown) {
  const res = await fetch(s.url + path, {
    method,
    headers: {
      authorization: `Bearer ${admin}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** The projection gauges on /metrics: { lag: {projection: n}, checkpoint: {projection: n} }. */
async function gauges(s: ServiceProcess) {
  const text = await (await fetch(`${s.url}/metrics`)).text();
  const read = (name: string) =>
    Object.fromEntries(
      [...text.matchAll(new RegExp(`^${name}\\{projection="([a-z-]+)"\\} (\\d+)$`, 'gm'))].map((m) => [
        m[1]!,
        Number(m[2]),
      ]),
    );
  return { lag: read('coup_projection_lag_events'), checkpoint: read('coup_projection_checkpoint') };
}

async function eventually<T>(get: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await get();
  for (let i = 0; i < 200 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 50));
    v = await get();
  }
  return v;
}

const tableIds = async (s: ServiceProcess) =>
  ((await api(s, 'GET', '/api/tables')).body as { tableId: string }[]).map((t) => t.tableId);

const opened: string[] = [];
async function openTable(s: ServiceProcess, tableId: string) {
  expect((await api(s, 'POST', '/api/tables', { tableId, rules: { dealing: 'live' } })).status).toBe(201);
  expect((await api(s, 'POST', `/api/tables/${tableId}/players/p1/buy-in`, { amount: 1000 })).status).toBe(
    200,
  );
  opened.push(tableId);
  opened.sort();
}

describe.each(['worker', 'in-process', 'off'])('COUP_PROJECTIONS=%s', (mode) => {
  let s: ServiceProcess;
  beforeAll(async () => {
    s = await spawnService(dataDir, { COUP_PROJECTIONS: mode });
  });
  afterAll(async () => {
    expect(await s.stop()).toBe(0);
  });

  it('lists the tables of earlier runs and the one it opens', async () => {
    expect(await tableIds(s)).toEqual(opened);
    await openTable(s, `M-${mode}`);
    expect(
      await eventually(
        () => tableIds(s),
        (ids) => ids.length === opened.length,
      ),
    ).toEqual(opened);
  });

  it('publishes the lag and checkpoint of every projection on /metrics', async () => {
    const head = opened.length * 2; // each table: TableOpened, PlayerBoughtIn
    const g = await eventually(
      () => gauges(s),
      (g) => mode === 'off' || Object.values(g.lag).every((l) => l === 0),
    );
    expect(Object.keys(g.lag).sort()).toEqual([...PROJECTIONS].sort());
    expect(Object.keys(g.checkpoint).sort()).toEqual([...PROJECTIONS].sort());
    for (const p of PROJECTIONS) {
      if (mode === 'off') {
        // nothing folds here: the lag is what this run appended since the last fold
        expect([p, g.checkpoint[p], g.lag[p]]).toEqual([p, head - 2, 2]);
      } else {
        expect([p, g.checkpoint[p], g.lag[p]]).toEqual([p, head, 0]);
      }
    }
  });
});

it('lists a table opened by another service process on the same store', async () => {
  const a = await spawnService(dataDir);
  const b = await spawnService(dataDir, { COUP_PROJECTIONS: 'off' });
  try {
    await openTable(a, 'X-from-a');
    await openTable(b, 'X-from-b');
    for (const s of [a, b])
      expect(
        await eventually(
          () => tableIds(s),
          (ids) => ids.length === opened.length,
        ),
      ).toEqual(opened);
  } finally {
    expect(await b.stop()).toBe(0);
    expect(await a.stop()).toBe(0);
  }
});
