/**
 * The built service's read side in its worker thread folds the analysts' model with the configured gaming day and
 * shifts; a service restarted with other ones refolds it (the projection's version carries them); a bad setting
 * refuses to start, naming the variable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { analystProjection, gamingDayConfig } from '@coup/projections';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';

jest.setTimeout(120_000);

const admin = signToken(SECRET, { sub: 'admin-1', role: 'admin' });
// The cut-over twelve hours from now and the shifts' starts six hours either side: no fact of this test falls on
// a boundary, whenever it runs.
const hourNow = new Date().getUTCHours();
const at = (h: number) => `${String((hourNow + h + 24) % 24).padStart(2, '0')}:00`;
const FIRST = { COUP_GAMING_DAY: `${at(12)} UTC`, COUP_SHIFTS: `early=${at(-6)},late=${at(6)}` };
const SECOND = { COUP_GAMING_DAY: `${at(12)} UTC`, COUP_SHIFTS: `one=${at(-6)},two=${at(6)}` };
const versionOf = (env: typeof FIRST) =>
  analystProjection(gamingDayConfig({ gamingDay: env.COUP_GAMING_DAY, shifts: env.COUP_SHIFTS })).version;

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'coup-analytics-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function api<T = unknown>(s: ServiceProcess, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(s.url + path, {
    method,
    headers: {
      authorization: `Bearer ${admin}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The analysts' model once it has every event, built at `version`; then the day's hold by shift. */
async function holdOnceFolded(
  s: ServiceProcess,
  version: number,
): Promise<{ shift: string; dropAmount: number }[]> {
  for (let i = 0; i < 400; i++) {
    type Status = { projections: { name: string; storedVersion: number; lag: number; checkpoint: number }[] };
    const status = await api<Status>(s, 'GET', '/api/projections');
    const an = status.projections.find((p) => p.name === 'analyst');
    if (an?.storedVersion === version && an.lag === 0 && an.checkpoint > 0)
      return (
        await api<{ rows: { shift: string; dropAmount: number }[] }>(
          s,
          'GET',
          '/api/reports/hold?groupBy=shift',
        )
      ).rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the analysts' model was not folded at version ${version}`);
}

test('folded in the worker thread with the configured shifts, then refolded with new ones after a restart', async () => {
  const first = await spawnService(dataDir, FIRST);
  try {
    await api(first, 'POST', '/api/tables', { tableId: 'T1', rules: {} });
    await api(first, 'POST', '/api/tables/T1/players/p1/buy-in', { amount: 50_000 });
    expect(await holdOnceFolded(first, versionOf(FIRST))).toEqual([
      expect.objectContaining({ shift: 'early', dropAmount: 50_000 }),
    ]);
    expect(first.output()).not.toMatch(/projection worker failed/);
  } finally {
    await first.stop();
  }
  expect(versionOf(SECOND)).not.toBe(versionOf(FIRST));
  const second = await spawnService(dataDir, SECOND);
  try {
    expect(await holdOnceFolded(second, versionOf(SECOND))).toEqual([
      expect.objectContaining({ shift: 'one', dropAmount: 50_000 }),
    ]);
  } finally {
    await second.stop();
  }
});

test.each([
  [{ COUP_GAMING_DAY: '25:00 UTC' }, /COUP_GAMING_DAY/],
  [{ COUP_SHIFTS: 'day=06:00,day=14:00' }, /COUP_SHIFTS/],
  [{ COUP_ANOMALY_Z: '-1' }, /COUP_ANOMALY_Z/],
])('%p refuses to start, naming the variable', async (env, message) => {
  const dir = mkdtempSync(join(tmpdir(), 'coup-analytics-bad-'));
  try {
    await expect(spawnService(dir, env)).rejects.toThrow(message);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
