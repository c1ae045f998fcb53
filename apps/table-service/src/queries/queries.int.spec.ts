import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, Reflector } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { Registry } from 'prom-client';
import { type Role, TokenVerifier, signToken } from '@coup/auth';
import { type EventStore, createEventStore } from '@coup/event-store';
import { ProjectionRunner } from '@coup/projections';
import * as testing from '@coup/projections/testing';
import type { Actor } from '@coup/table';
import { AuthGuard } from '../common/auth';
import { AllExceptionsFilter } from '../common/exception.filter';
import { QueriesModule } from './index';

const SECRET = 'queries-int-secret-0123456789-0123456789';
const SUPER: Actor = { id: 'super-1', role: 'supervisor' };

let dir: string;
let store: EventStore;
let app: NestFastifyApplication;
let registry: Registry;
let lastPosition: bigint;

const token = (role: Role, sub = `${role}-1`, tables?: string[]) =>
  signToken(SECRET, { sub, role, ...(tables ? { tables } : {}) });

async function get(
  path: string,
  role: Role | null = 'analyst',
  headers: Record<string, string> = {},
  sub?: string,
) {
  const res = await app.inject({
    method: 'GET',
    url: path,
    headers: { ...(role ? { authorization: `Bearer ${token(role, sub)}` } : {}), ...headers },
  });
  const json = (res.headers['content-type'] ?? '').toString().includes('json') ? res.json() : undefined;
  return { status: res.statusCode, body: json, text: res.body, headers: res.headers };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coup-queries-'));
  store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
  // history made by the real decider: an rng shoe played to its end, a second shoe in progress, a live table
  const rng = new testing.TableDriver({ tableId: 'T1', players: 3, seed: 21, voidRate: 0.05 });
  await testing.appendTable(store, 'T1', rng.open());
  for (let i = 0; i < 12; i++) await testing.appendTable(store, 'T1', rng.playRound({ void: i === 4 }));
  await testing.appendTable(store, 'T1', rng.execute('EndShoe', {}, SUPER));
  rng.setTime('2025-01-02T09:00:00.000Z');
  for (let i = 0; i < 5; i++) await testing.appendTable(store, 'T1', rng.playRound({ void: false }));
  const live = new testing.TableDriver({
    tableId: 'L1',
    rules: { dealing: 'live', commission: 'box', decks: 6 },
    seed: 8,
    correctionRate: 0.3,
  });
  await testing.appendTable(store, 'L1', live.open());
  for (let i = 0; i < 6; i++)
    lastPosition = (await testing.appendTable(store, 'L1', live.playRound({ void: false }))).position;

  registry = new Registry();
  @Module({
    imports: [
      QueriesModule.register({
        store,
        readModels: join(dir, 'read-models.sqlite'),
        sqliteEventsFile: join(dir, 'events.sqlite'),
        metricsRegistry: registry,
      }),
    ],
    providers: [
      {
        provide: APP_GUARD,
        inject: [Reflector],
        useFactory: (reflector: Reflector) => new AuthGuard(reflector, new TokenVerifier(SECRET)),
      },
      { provide: APP_FILTER, useClass: AllExceptionsFilter },
    ],
  })
  class TestApp {}
  const moduleRef = await Test.createTestingModule({ imports: [TestApp] }).compile();
  app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  await app.get(ProjectionRunner).waitFor(lastPosition);
}, 60_000);

afterAll(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hand history queries', () => {
  test('lists hands newest first with a cursor to the next page', async () => {
    const first = await get('/api/tables/T1/hands?limit=5');
    expect(first.status).toBe(200);
    expect(first.body.items.map((h: { roundNo: number }) => h.roundNo)).toEqual([17, 16, 15, 14, 13]);
    const second = await get(`/api/tables/T1/hands?limit=5&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((h: { roundNo: number }) => h.roundNo)).toEqual([12, 11, 10, 9, 8]);
    const all = await get('/api/tables/T1/hands?limit=500&order=asc');
    expect(all.body.items).toHaveLength(17);
    expect(all.body.nextCursor).toBeNull();
  });

  test('filters by shoe, round range, time, outcome and player', async () => {
    expect((await get('/api/tables/T1/hands?shoe=2&limit=500')).body.items).toHaveLength(5);
    expect(
      (await get('/api/tables/T1/hands?roundFrom=3&roundTo=6')).body.items.map(
        (h: { roundNo: number }) => h.roundNo,
      ),
    ).toEqual([6, 5, 4, 3]);
    expect((await get('/api/tables/T1/hands?from=2025-01-02&limit=500')).body.items).toHaveLength(5);
    expect((await get('/api/tables/T1/hands?to=2025-01-02T00:00:00Z&limit=500')).body.items).toHaveLength(12);
    const voids = (await get('/api/tables/T1/hands?outcome=void')).body.items;
    expect(voids.map((h: { roundNo: number; status: string }) => [h.roundNo, h.status])).toEqual([
      [5, 'voided'],
    ]);
    const bankers = (await get('/api/tables/T1/hands?outcome=banker&limit=500')).body.items;
    expect(bankers.every((h: { outcome: string }) => h.outcome === 'banker')).toBe(true);
    const p2 = (await get('/api/tables/T1/hands?player=p2&limit=500')).body.items;
    expect(p2.length).toBeGreaterThan(0);
    expect(p2.every((h: { players: string[] }) => h.players.includes('p2'))).toBe(true);
  });

  test('one hand: bets with who and when, cards, settlements, span and hashes', async () => {
    const { status, body } = await get('/api/tables/T1/hands/2', 'compliance');
    expect(status).toBe(200);
    expect(body).toMatchObject({ tableId: 'T1', roundNo: 2, shoeNo: 1, status: 'resolved' });
    expect(body.cards.length).toBeGreaterThanOrEqual(4);
    expect(body.cards[0]).toMatchObject({ index: 0, by: 'dealer-1', role: 'dealer' });
    expect(body.span.lastHash).toMatch(/^[0-9a-f]{64}$/);
    expect(body.bets.every((b: { at: string; by: string }) => b.at && b.by)).toBe(true);
  });

  test('as CSV with Accept: text/csv', async () => {
    const list = await get('/api/tables/T1/hands?limit=3', 'analyst', { accept: 'text/csv' });
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toContain('text/csv');
    const lines = list.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'tableId,roundNo,shoeNo,status,openedAt,resolvedAt,outcome,natural,playerTotal,bankerTotal,betCount,totalStaked,totalPaid,commission,houseResult,dealer,voidReason,playerCards,bankerCards,players',
    );
    expect(lines).toHaveLength(4);
    expect(list.headers['x-next-cursor']).toBeTruthy();
    const audit = await get('/api/tables/T1/hands/2', 'compliance', { accept: 'text/csv' });
    expect(audit.text.split('\r\n')[0]).toBe('position,at,kind,playerId,spot,amount,card,detail,by,role');
    expect(audit.text).toContain(',card,');
  });

  test('replay: the hand step by step from the state before it', async () => {
    const hand = (await get('/api/tables/T1/hands/3')).body;
    const { status, body } = await get('/api/tables/T1/hands/3/replay', 'supervisor');
    expect(status).toBe(200);
    expect(body.steps).toHaveLength(hand.span.eventCount);
    expect(body.steps.at(-1).view.lastResult).toMatchObject({ roundNo: 3, outcome: hand.outcome });
    const csv = await get('/api/tables/T1/hands/3/replay', 'supervisor', { accept: 'text/csv' });
    expect(csv.text.trim().split('\r\n')).toHaveLength(hand.span.eventCount + 1);
  });

  test('replay never shows the seed of the shoe in progress', async () => {
    const r = await get('/api/tables/T1/hands/15/replay');
    expect(r.body.before.shoe.seed).toBeNull();
    expect(r.text).not.toMatch(/"seed":"[0-9a-f]{64}"/);
  });

  test("verify: named checks; the ended shoe's seed proves the cards; the shoe in progress is pending", async () => {
    const done = await get('/api/tables/T1/hands/2/verify', 'compliance');
    expect(done.status).toBe(200);
    expect(done.body.ok).toBe(true);
    expect(
      Object.fromEntries(done.body.checks.map((c: { name: string; status: string }) => [c.name, c.status])),
    ).toEqual({
      index: 'pass',
      chain: 'pass',
      coup: 'pass',
      settlements: 'pass',
      commitment: 'pass',
      shuffle: 'pass',
    });
    expect(done.body.checks.find((c: { name: string }) => c.name === 'chain').detail).toContain(
      'from the stored bytes',
    );
    const pending = await get('/api/tables/T1/hands/15/verify', 'compliance');
    expect(pending.body.checks.find((c: { name: string }) => c.name === 'commitment').status).toBe('pending');
    const csv = await get('/api/tables/L1/hands/1/verify', 'compliance', { accept: 'text/csv' });
    expect(csv.text.split('\r\n')[0]).toBe('check,status,detail,eventRevision,eventPosition,eventType');
    expect(csv.text).toContain('commitment,skipped');
  });

  test('roads of a shoe, the latest by default, and as CSV', async () => {
    const r = await get('/api/tables/T1/roads?shoe=1', 'player', {}, 'p1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ shoeNo: 1, coups: 11, shoes: [2, 1] });
    expect(r.body.outcomes).toMatch(/^[PBT]{11}$/);
    expect(r.body.bigRoad.length).toBe(r.body.outcomes.replace(/T/g, '').length);
    expect((await get('/api/tables/T1/roads')).body.shoeNo).toBe(2);
    const csv = await get('/api/tables/T1/roads?shoe=1', 'analyst', { accept: 'text/csv' });
    expect(csv.text.trim().split('\r\n')).toHaveLength(12);
  });
});

describe('statistics and ledger', () => {
  test('stats per table, day and shoe with exact odds, chi-square and hold', async () => {
    const { status, body } = await get('/api/stats?tableId=T1');
    expect(status).toBe(200);
    expect(body.overall.coups).toBe(16);
    expect(body.overall.voids).toBe(1);
    expect(body.overall.expected.banker).toBeCloseTo(0.4585974226, 8);
    expect(body.overall.chiSquare.degreesOfFreedom).toBe(2);
    expect(body.days.map((d: { day: string; coups: number }) => [d.day, d.coups])).toEqual([
      ['2025-01-01', 11],
      ['2025-01-02', 5],
    ]);
    expect(body.shoes.map((s: { shoeNo: number }) => s.shoeNo)).toEqual([1, 2]);
    expect(body.overall.holdPercent).toBeCloseTo(
      (body.overall.houseResult / body.overall.handle.total) * 100,
      10,
    );
    const oneDay = await get('/api/stats?from=2025-01-02&to=2025-01-02');
    expect(oneDay.body.overall.coups).toBe(5);
    expect(oneDay.body.tables.map((t: { tableId: string }) => t.tableId)).toEqual(['T1']);
    const firstDay = await get('/api/stats?to=2025-01-01');
    expect(
      firstDay.body.tables.map((t: { tableId: string; coups: number }) => [t.tableId, t.coups]).sort(),
    ).toEqual([
      ['L1', 6],
      ['T1', 11],
    ]);
    const csv = await get('/api/stats', 'analyst', { accept: 'text/csv' });
    expect(csv.text.split('\r\n')[1]).toMatch(/^overall,,22,/);
  });

  test("a player's ledger: accounts per table and entries; CSV of entries", async () => {
    const { status, body } = await get('/api/players/p1/ledger', 'compliance');
    expect(status).toBe(200);
    expect(body.accounts.map((a: { tableId: string }) => a.tableId)).toEqual(['L1', 'T1']);
    const t1 = body.accounts.find((a: { tableId: string }) => a.tableId === 'T1');
    // camelCase like the rest of the API
    expect(Object.keys(t1)).toEqual([
      'tableId',
      'firstAt',
      'buyIns',
      'boughtIn',
      'bets',
      'staked',
      'cleared',
      'wins',
      'losses',
      'pushes',
      'paid',
      'netResult',
      'commissionDeducted',
      'commissionOwed',
      'commissionCollected',
      'voidedReturned',
      'cashOuts',
      'cashedOut',
      'chips',
    ]);
    expect(Object.keys(body.totals)).toEqual(Object.keys(t1).slice(2));
    expect(t1.boughtIn).toBeGreaterThan(0);
    // staked counts every bet placed, as bets does; what clears and voids gave back is counted apart
    expect(t1.chips).toBe(
      t1.boughtIn -
        t1.staked +
        t1.cleared +
        t1.voidedReturned +
        t1.paid -
        t1.commissionCollected -
        t1.cashedOut,
    );
    expect(body.entries[0]).toMatchObject({ kind: 'buy-in' });
    const page = await get('/api/players/p1/ledger?limit=2&tableId=T1');
    expect(page.body.entries).toHaveLength(2);
    const next = await get(`/api/players/p1/ledger?limit=2&tableId=T1&cursor=${page.body.nextCursor}`);
    expect(next.body.entries[0].position).toBeGreaterThanOrEqual(page.body.entries[1].position);
    const csv = await get('/api/players/p1/ledger?limit=3', 'analyst', { accept: 'text/csv' });
    expect(csv.text.split('\r\n')[0]).toBe(
      'position,seq,tableId,at,kind,roundNo,spot,paytable,amount,chipsDelta,result,commission,by,role,reason',
    );
  });

  test("a player reads its own ledger and no one else's", async () => {
    expect((await get('/api/players/p1/ledger', 'player', {}, 'p1')).status).toBe(200);
    const other = await get('/api/players/p2/ledger', 'player', {}, 'p1');
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('FORBIDDEN');
  });

  test('projection status and the lag gauge', async () => {
    const { body } = await get('/api/projections', 'admin');
    expect(body.projections.map((p: { name: string }) => p.name)).toEqual([
      'table-view',
      'hand-history',
      'roads',
      'stats',
      'ledger',
      'edge-monitor',
      'analyst',
    ]);
    expect(
      body.projections.every(
        (p: { lag: number; checkpoint: number }) => p.lag === 0 && p.checkpoint === Number(lastPosition),
      ),
    ).toBe(true);
    const metrics = await registry.metrics();
    expect(metrics).toContain('coup_projection_lag_events{projection="hand-history"} 0');
    expect(metrics).toContain(`coup_projection_checkpoint{projection="ledger"} ${lastPosition}`);
  });
});

describe('OpenAPI', () => {
  test('every query is documented, with CSV as an answer type', () => {
    const doc = SwaggerModule.createDocument(app, new DocumentBuilder().addBearerAuth().build());
    for (const path of [
      '/api/tables/{tableId}/hands',
      '/api/tables/{tableId}/hands/{roundNo}',
      '/api/tables/{tableId}/hands/{roundNo}/replay',
      '/api/tables/{tableId}/hands/{roundNo}/verify',
      '/api/tables/{tableId}/roads',
      '/api/stats',
      '/api/players/{playerId}/ledger',
    ]) {
      const op = doc.paths[path]?.get;
      expect(op?.summary).toBeTruthy();
      expect(
        Object.keys(
          op?.responses?.['200'] && 'content' in op.responses['200']
            ? (op.responses['200'].content ?? {})
            : {},
        ),
      ).toEqual(expect.arrayContaining(['application/json', 'text/csv']));
    }
    expect(
      doc.paths['/api/tables/{tableId}/hands']!.get!.parameters!.map((p) => ('name' in p ? p.name : '')),
    ).toEqual(
      expect.arrayContaining([
        'shoe',
        'roundFrom',
        'roundTo',
        'from',
        'to',
        'outcome',
        'player',
        'corrected',
        'cursor',
        'limit',
      ]),
    );
  });
});

describe('refusals', () => {
  test.each([
    ['/api/tables/T1/hands?shoe=0', 'INVALID_QUERY', 'shoe'],
    ['/api/tables/T1/hands?roundFrom=abc', 'INVALID_QUERY', 'roundFrom'],
    ['/api/tables/T1/hands?from=yesterday', 'INVALID_QUERY', 'from'],
    ['/api/tables/T1/hands?outcome=dragon', 'INVALID_QUERY', 'outcome'],
    ['/api/tables/T1/hands?corrected=yes', 'INVALID_QUERY', 'corrected'],
    ['/api/tables/T1/hands?limit=501', 'INVALID_QUERY', 'limit'],
    ['/api/tables/T1/hands?cursor=nonsense', 'INVALID_CURSOR', 'cursor'],
    ['/api/tables/T1/hands?colour=red', 'INVALID_QUERY', 'colour'],
    ['/api/tables/T1/hands?shoe=1&shoe=2', 'INVALID_QUERY', 'shoe'],
    ['/api/tables/T1/hands/0', 'INVALID_QUERY', 'roundNo'],
    ['/api/tables/T1/roads?shoe=x', 'INVALID_QUERY', 'shoe'],
    ['/api/stats?from=2025-13-01', 'INVALID_QUERY', 'from'],
    ['/api/stats?tableId=bad!id', 'INVALID_PARAMETER', 'tableId'],
    ['/api/players/p1/ledger?cursor=e30', 'INVALID_CURSOR', 'cursor'],
  ])('%s -> 400 %s naming %s', async (path, code, field) => {
    const { status, body } = await get(path, 'admin');
    expect(status).toBe(400);
    expect(body).toMatchObject({ statusCode: 400, code, details: { field } });
  });

  test('a table in the log that the read models have not folded yet has no hands so far (empty page, not 404)', async () => {
    const runner = app.get(ProjectionRunner);
    await runner.stop();
    try {
      const fresh = new testing.TableDriver({ tableId: 'NEW1', seed: 11 });
      await testing.appendTable(store, 'NEW1', fresh.open());
      const { status, body } = await get('/api/tables/NEW1/hands');
      expect(status).toBe(200);
      expect(body).toEqual({ items: [], nextCursor: null });
      expect((await get('/api/tables/NEVER/hands')).body.code).toBe('UNKNOWN_TABLE');
    } finally {
      runner.start();
    }
  });

  test('unknown tables, hands and shoes are 404 with a code', async () => {
    expect((await get('/api/tables/NOPE/hands')).body.code).toBe('UNKNOWN_TABLE');
    expect((await get('/api/tables/T1/hands/999')).body.code).toBe('UNKNOWN_HAND');
    expect((await get('/api/tables/T1/hands/999/verify')).body.code).toBe('UNKNOWN_HAND');
    expect((await get('/api/tables/T1/hands/999/replay')).status).toBe(404);
    expect((await get('/api/tables/T1/roads?shoe=9')).body.code).toBe('UNKNOWN_SHOE');
  });

  test.each([
    ['/api/tables/T1/hands'],
    ['/api/tables/T1/hands/1'],
    ['/api/tables/T1/hands/1/replay'],
    ['/api/tables/T1/hands/1/verify'],
    ['/api/tables/T1/roads'],
    ['/api/stats'],
    ['/api/players/p1/ledger'],
    ['/api/projections'],
  ])('%s: 401 without a token', async (path) => {
    const { status, body } = await get(path, null);
    expect(status).toBe(401);
    expect(body.code).toBe('UNAUTHENTICATED');
  });

  test.each([
    ['/api/tables/T1/hands', 'player'],
    ['/api/tables/T1/hands/1/verify', 'player'],
    ['/api/stats', 'dealer'],
    ['/api/stats', 'player'],
    ['/api/players/p1/ledger', 'dealer'],
    ['/api/projections', 'player'],
  ] as [string, Role][])('%s: 403 for a %s', async (path, role) => {
    const { status, body } = await get(path, role);
    expect(status).toBe(403);
    expect(body.code).toBe('FORBIDDEN');
  });

  test('a dealer limited to other tables cannot read this one', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/tables/T1/hands',
      headers: { authorization: `Bearer ${token('dealer', 'd9', ['L1'])}` },
    });
    expect(res.statusCode).toBe(403);
  });
});
