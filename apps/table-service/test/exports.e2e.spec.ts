/**
 * GET /api/exports/:table over HTTP: a live table's coup (a side bet among its stakes), a voided round and the
 * buy-ins, folded by the service, answered for the gaming day as CSV and Parquet with the file's media type and
 * name; the body is the library's export of those read models (Parquet read back by hyparquet: the SQL rows,
 * cents as INT64); bad tables, days, formats and parameters are refused with their codes, and only the roles the
 * access matrix names may ask.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parquetReadObjects } from 'hyparquet';
import { type ExportRequest, ReadModels, exportFacts, gamingDayConfig, gamingDayOf } from '@coup/projections';
import { startService, type Harness } from './harness';
import { ok as okAs, readModelsCaughtUp } from './http-helpers';

jest.setTimeout(60_000);

// The cut-over twelve hours from now: every fact of this test falls in today's gaming day, whenever it runs.
const cutover = `${String((new Date().getUTCHours() + 12) % 24).padStart(2, '0')}:00 UTC`;
const CONFIG = gamingDayConfig({ gamingDay: cutover });

let h: Harness;
let day: string;
const ok = (method: string, path: string, body?: unknown, token?: string) =>
  okAs(h, method, path, body, token);

async function download(path: string, role: 'analyst' | 'compliance' | 'admin' = 'analyst') {
  const res = await fetch(`${h.url}${path}`, { headers: { authorization: `Bearer ${h.token(role)}` } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function libraryBytes(request: ExportRequest): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of exportFacts(h.app.get(ReadModels).sql, request)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  h = await startService({
    COUP_PROJECTIONS: 'in-process',
    COUP_PROJECTION_COMMIT_MS: '0',
    COUP_GAMING_DAY: cutover,
  });
  day = gamingDayOf(new Date().toISOString(), CONFIG);
  const dealer = h.token('dealer');
  await ok('POST', '/api/tables', {
    tableId: 'T1',
    rules: { dealing: 'live', sideBets: { playerPair: {} } },
  });
  for (const p of ['p1', 'p2']) await ok('POST', `/api/tables/T1/players/${p}/buy-in`, { amount: 50_000 });
  await ok('POST', '/api/tables/T1/shoes', { firstCard: 'Qs' }, dealer);
  await ok('POST', '/api/tables/T1/rounds', undefined, dealer);
  const bet = (playerId: string, spot: string, amount: number) =>
    ok('POST', '/api/tables/T1/rounds/1/bets', { playerId, spot, amount });
  await bet('p1', 'player', 1_000);
  await bet('p1', 'playerPair', 500);
  await bet('p2', 'banker', 2_000);
  await ok('POST', '/api/tables/T1/rounds/1/close', undefined, dealer);
  for (const card of ['5d', '9d', '2d', 'Kd'])
    await ok('POST', '/api/tables/T1/rounds/1/cards', { card }, dealer);
  await ok('POST', '/api/tables/T1/rounds', undefined, dealer);
  await ok('POST', '/api/tables/T1/rounds/2/void', { reason: 'dealer error' }, h.token('supervisor'));
  await readModelsCaughtUp(h);
});
afterAll(async () => {
  await h.close();
});

test('CSV: the day’s bets as the library exports them, named for the table and the day', async () => {
  const { res, bytes } = await download(`/api/exports/bets?gamingDay=${day}&format=csv`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="bets-${day}.csv"`);
  expect(bytes.equals(await libraryBytes({ table: 'bets', gamingDay: day, format: 'csv' }))).toBe(true);
  const lines = bytes.toString('utf8').split('\r\n');
  expect(lines).toHaveLength(5); // the header, three stakes, the last line's end
  expect(lines.slice(1, 4).map((l) => l.split(',').slice(0, 4).join(','))).toEqual([
    'T1,1,p1,player',
    'T1,1,p1,playerPair',
    'T1,1,p2,banker',
  ]);
  // the default format is CSV; the amendments hold the void
  const amendments = await download(`/api/exports/amendments?gamingDay=${day}`, 'compliance');
  expect(amendments.res.headers.get('content-disposition')).toBe(
    `attachment; filename="amendments-${day}.csv"`,
  );
  expect(amendments.bytes.toString('utf8')).toContain(',round-void,dealer error,');
});

test('Parquet: typed rows equal to the read models’, the library’s bytes', async () => {
  for (const table of ['coups', 'bets', 'cash'] as const) {
    const { res, bytes } = await download(`/api/exports/${table}?gamingDay=${day}&format=parquet`, 'admin');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${table}-${day}.parquet"`);
    expect(bytes.equals(await libraryBytes({ table, gamingDay: day, format: 'parquet' }))).toBe(true);
  }
  const { bytes } = await download(`/api/exports/bets?gamingDay=${day}&format=parquet`);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
  const rows = await parquetReadObjects({
    file,
    columns: ['player_id', 'spot', 'stake', 'paid', 'paytable'],
  });
  expect(rows).toEqual([
    { player_id: 'p1', spot: 'player', stake: 1_000n, paid: 0n, paytable: null },
    { player_id: 'p1', spot: 'playerPair', stake: 500n, paid: 0n, paytable: '11-to-1' },
    { player_id: 'p2', spot: 'banker', stake: 2_000n, paid: 3_900n, paytable: null },
  ]);
  const other = await download(`/api/exports/bets?gamingDay=2000-01-01&format=parquet`);
  const empty = other.bytes.buffer.slice(other.bytes.byteOffset, other.bytes.byteOffset + other.bytes.length);
  expect(await parquetReadObjects({ file: empty as ArrayBuffer })).toEqual([]);
});

test.each([
  ['/api/exports/hands?gamingDay=2026-12-01', 'INVALID_PARAMETER', 'table'],
  ['/api/exports/bets', 'INVALID_QUERY', 'gamingDay'],
  ['/api/exports/bets?gamingDay=2026-02-30', 'INVALID_QUERY', 'gamingDay'],
  ['/api/exports/bets?gamingDay=2026-12-01&format=xlsx', 'INVALID_QUERY', 'format'],
  ['/api/exports/bets?gamingDay=2026-12-01&limit=5', 'INVALID_QUERY', 'limit'],
  ['/api/exports/bets?gamingDay=2026-12-01&gamingDay=2026-12-02', 'INVALID_QUERY', 'gamingDay'],
])('GET %s is 400 %s naming %s', async (path, code, field) => {
  const res = await h.api('GET', path, { token: h.token('analyst') });
  expect([res.status, res.body.code, res.body.details?.field]).toEqual([400, code, field]);
});

test('dealers, supervisors and players may not export; no token is 401', async () => {
  for (const role of ['dealer', 'supervisor', 'player'] as const) {
    const res = await h.api('GET', `/api/exports/bets?gamingDay=${day}`, { token: h.token(role) });
    expect([role, res.status, res.body.code]).toEqual([role, 403, 'FORBIDDEN']);
  }
  expect((await h.api('GET', `/api/exports/bets?gamingDay=${day}`, { token: null })).status).toBe(401);
});

test('the API document lists the operation with its refusals', async () => {
  const doc = (await h.api('GET', '/docs/openapi.json', { token: null })).body;
  const op = doc.paths['/api/exports/{table}'].get;
  expect(op.parameters.find((p: { name: string }) => p.name === 'table').schema.enum).toEqual([
    'coups',
    'bets',
    'cash',
    'amendments',
  ]);
  expect(op.responses['400'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(
    expect.arrayContaining(['INVALID_PARAMETER', 'INVALID_QUERY']),
  );
  expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '500']));
});

test('a failure before the first byte is an answer in the error format, not a cut body', async () => {
  // the last test: the read models lose a table the export reads
  const db = new Database(join(h.dataDir, 'read-models.sqlite'));
  db.exec('DROP TABLE an_fact_cash');
  db.close();
  const res = await h.api('GET', `/api/exports/cash?gamingDay=${day}`, { token: h.token('analyst') });
  expect([res.status, res.body.code, res.headers.get('content-type')]).toEqual([
    503,
    'READ_MODELS_UNAVAILABLE',
    expect.stringMatching(/^application\/json/),
  ]);
  expect(res.body.message).toContain('an_fact_cash');
});
