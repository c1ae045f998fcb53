/**
 * Faults with real processes on one SQLite file: SIGKILL under bet load, two service processes betting on one
 * table, a live coup interrupted between cards, and SIGTERM finishing the commands in flight.
 * Runs the built service (`npm run build` first; Nx's test target depends on build).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { createEventStore, type EventStore } from '@coup/event-store';
import { SECRET } from './harness';
import { spawnService, type ServiceProcess } from './process';

jest.setTimeout(120_000);

const token = (role: 'admin' | 'dealer' | 'supervisor' | 'player', sub = `${role}-1`) =>
  signToken(SECRET, { sub, role });

async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  auth = token('admin'),
  key?: string,
) {
  const res = await fetch(base + path, {
    method,
    headers: {
      authorization: `Bearer ${auth}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
}

async function eventsOf(dataDir: string, tableId: string) {
  const store: EventStore = createEventStore({ kind: 'sqlite', file: join(dataDir, 'events.sqlite') });
  const events = [];
  for await (const e of store.readStream(`table-${tableId}`)) events.push(e);
  const verification = await store.verifyStream(`table-${tableId}`);
  await store.close();
  return { events, verification };
}

const dirs: string[] = [];
const procs: ServiceProcess[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'coup-crash-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  for (const p of procs) await p.stop('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function openRngTable(base: string, tableId: string, players: string[]) {
  expect(
    (
      await call(base, 'POST', '/api/tables', {
        tableId,
        rules: {
          dealing: 'rng',
          limits: {
            player: { min: 100, max: 10_000_000 },
            banker: { min: 100, max: 10_000_000 },
            tie: { min: 100, max: 1_000_000 },
          },
        },
      })
    ).status,
  ).toBe(201);
  for (const p of players)
    expect(
      (await call(base, 'POST', `/api/tables/${tableId}/players/${p}/buy-in`, { amount: 100_000_000 }))
        .status,
    ).toBe(200);
  expect((await call(base, 'POST', `/api/tables/${tableId}/shoes`, {}, token('dealer'))).status).toBe(201);
  expect((await call(base, 'POST', `/api/tables/${tableId}/rounds`, undefined, token('dealer'))).status).toBe(
    201,
  );
}

describe('SIGKILL under bet load', () => {
  it('every acknowledged bet is recorded exactly once, nothing unsent is recorded, and the round goes on', async () => {
    const dataDir = tempDir();
    let service = await spawnService(dataDir);
    procs.push(service);
    const players = Array.from({ length: 20 }, (_, i) => `p${i}`);
    await openRngTable(service.url, 'K1', players);

    const acknowledged = new Set<string>();
    const sent = new Set<string>();
    let stop = false;
    const loops = players.map(async (p) => {
      for (let i = 0; !stop; i++) {
        const key = `${p}-${i}`;
        sent.add(key);
        try {
          const res = await call(
            service.url,
            'POST',
            '/api/tables/K1/rounds/1/bets',
            { playerId: p, spot: 'player', amount: 100 },
            token('player', p),
            key,
          );
          if (res.status === 201) acknowledged.add(key);
          else throw new Error(`unexpected ${res.status} ${JSON.stringify(res.body)}`);
        } catch (error) {
          if (!stop) throw error;
        }
      }
    });
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await service.stop('SIGKILL');
    await Promise.allSettled(loops);
    expect(acknowledged.size).toBeGreaterThan(50);

    const { events, verification } = await eventsOf(dataDir, 'K1');
    expect(verification.ok).toBe(true);
    const betKeys = events.filter((e) => e.type === 'BetPlaced').map((e) => e.metadata.commandId as string);
    expect(new Set(betKeys).size).toBe(betKeys.length);
    for (const key of acknowledged) expect(betKeys).toContain(key);
    for (const key of betKeys) expect(sent.has(key)).toBe(true);

    service = await spawnService(dataDir);
    procs.push(service);
    // A retry of an acknowledged bet after the restart returns its first answer and records nothing.
    const [someKey] = [...acknowledged];
    const [player] = someKey!.split('-');
    const retry = await call(
      service.url,
      'POST',
      '/api/tables/K1/rounds/1/bets',
      { playerId: player, spot: 'player', amount: 100 },
      token('player', player),
      someKey,
    );
    expect(retry.status).toBe(201);
    expect(
      (await call(service.url, 'POST', '/api/tables/K1/rounds/1/close', undefined, token('dealer'))).status,
    ).toBe(200);
    const coup = await call(service.url, 'POST', '/api/tables/K1/rounds/1/deal', undefined, token('dealer'));
    expect(coup.status).toBe(200);
    const staked = coup.body.settlements.reduce((a: number, s: { amount: number }) => a + s.amount, 0);
    expect(staked).toBe(betKeys.length * 100);
    await service.stop();
  });
});

describe('two service processes on one store', () => {
  it('bet on one table at once with no bet lost or doubled (conflicts are retried)', async () => {
    const dataDir = tempDir();
    const a = await spawnService(dataDir);
    procs.push(a);
    const players = Array.from({ length: 10 }, (_, i) => `q${i}`);
    await openRngTable(a.url, 'D1', players);
    const b = await spawnService(dataDir);
    procs.push(b);

    const answers = await Promise.all(
      players.flatMap((p, i) =>
        Array.from({ length: 20 }, (_, j) =>
          call(
            (i + j) % 2 === 0 ? a.url : b.url,
            'POST',
            '/api/tables/D1/rounds/1/bets',
            { playerId: p, spot: 'banker', amount: 100 },
            token('player', p),
            `${p}-${j}`,
          ),
        ),
      ),
    );
    expect(answers.filter((x) => x.status !== 201)).toEqual([]);
    const { events } = await eventsOf(dataDir, 'D1');
    const bets = events.filter((e) => e.type === 'BetPlaced');
    expect(bets).toHaveLength(200);
    expect(new Set(bets.map((e) => e.metadata.commandId)).size).toBe(200);
    // Each process sees the other's bets once it reloads the tail: the view agrees on every chip.
    const view = (await call(b.url, 'GET', '/api/tables/D1')).body;
    for (const p of view.players as { chips: number }[]) expect(p.chips).toBe(100_000_000 - 20 * 100);
    const metrics = await (await fetch(`${a.url}/metrics`)).text();
    const conflicts = await (await fetch(`${b.url}/metrics`)).text();
    expect(metrics + conflicts).toMatch(/coup_append_conflicts_total \d+/);
    await a.stop();
    await b.stop();
  });
});

describe('an interrupted live coup', () => {
  it('resumes where it stood after a restart between cards; one that cannot complete is voided with every bet returned', async () => {
    const dataDir = tempDir();
    let service = await spawnService(dataDir);
    procs.push(service);
    const dealer = token('dealer');
    expect(
      (await call(service.url, 'POST', '/api/tables', { tableId: 'LV', rules: { dealing: 'live' } })).status,
    ).toBe(201);
    await call(service.url, 'POST', '/api/tables/LV/players/p1/buy-in', { amount: 100_000 });
    await call(service.url, 'POST', '/api/tables/LV/shoes', { firstCard: '3c' }, dealer);
    await call(service.url, 'POST', '/api/tables/LV/rounds', undefined, dealer);
    await call(
      service.url,
      'POST',
      '/api/tables/LV/rounds/1/bets',
      { playerId: 'p1', spot: 'banker', amount: 5000 },
      token('player', 'p1'),
    );
    await call(service.url, 'POST', '/api/tables/LV/rounds/1/close', undefined, dealer);
    for (const card of ['2h', '3d'])
      expect(
        (await call(service.url, 'POST', '/api/tables/LV/rounds/1/cards', { card }, dealer)).status,
      ).toBe(200);
    await service.stop('SIGKILL');

    service = await spawnService(dataDir);
    procs.push(service);
    const view = (await call(service.url, 'GET', '/api/tables/LV', undefined, dealer)).body;
    expect(view.phase).toBe('dealing');
    expect(view.round.cards.map((c: { card: string }) => c.card)).toEqual(['2h', '3d']);
    expect(view.round.next).toMatchObject({ to: 'player' });
    // P 2+5 = 7 stands, B 3+4 = 7 stands: the coup completes with the fourth card.
    expect(
      (await call(service.url, 'POST', '/api/tables/LV/rounds/1/cards', { card: '5s' }, dealer)).body.next,
    ).toMatchObject({ to: 'banker' });
    const done = await call(service.url, 'POST', '/api/tables/LV/rounds/1/cards', { card: '4s' }, dealer);
    expect(done.body).toMatchObject({ outcome: 'tie', playerTotal: 7, bankerTotal: 7 });

    // Round 2 is interrupted and cannot complete (the shoe reader failed): the supervisor voids it.
    await call(service.url, 'POST', '/api/tables/LV/rounds', undefined, dealer);
    await call(
      service.url,
      'POST',
      '/api/tables/LV/rounds/2/bets',
      { playerId: 'p1', spot: 'player', amount: 5000 },
      token('player', 'p1'),
    );
    await call(service.url, 'POST', '/api/tables/LV/rounds/2/close', undefined, dealer);
    await call(service.url, 'POST', '/api/tables/LV/rounds/2/cards', { card: '9h' }, dealer);
    await service.stop('SIGKILL');
    service = await spawnService(dataDir);
    procs.push(service);
    const voided = await call(
      service.url,
      'POST',
      '/api/tables/LV/rounds/2/void',
      { reason: 'shoe reader failed mid-coup' },
      token('supervisor'),
    );
    expect(voided.status).toBe(200);
    const after = (await call(service.url, 'GET', '/api/tables/LV')).body;
    expect(after.players).toEqual([expect.objectContaining({ playerId: 'p1', chips: 100_000 })]);
    await service.stop();
  });
});

describe('graceful shutdown', () => {
  it('SIGTERM finishes the commands in flight, closes the store and exits 0', async () => {
    const dataDir = tempDir();
    const service = await spawnService(dataDir, {
      LOG_LEVEL: 'info',
      COUP_PROJECTIONS: process.env['XP'] ?? 'on',
    });
    procs.push(service);
    await openRngTable(service.url, 'G1', ['g']);
    const inFlight = Array.from({ length: 50 }, (_, i) =>
      call(
        service.url,
        'POST',
        '/api/tables/G1/rounds/1/bets',
        { playerId: 'g', spot: 'tie', amount: 100 },
        token('player', 'g'),
        `g-${i}`,
      ).catch(() => null),
    );
    await new Promise((r) => setTimeout(r, 20));
    const code = await service.stop('SIGTERM');
    const answers = await Promise.all(inFlight);
    if (code !== 0)
      throw new Error(
        `exit ${code}; answers ${JSON.stringify(answers.map((a) => a?.status ?? 'ERR'))}; output:\n${service.output().slice(-3000)}`,
      );
    const acknowledged = answers.filter((a) => a?.status === 201).length;
    const { events, verification } = await eventsOf(dataDir, 'G1');
    expect(verification.ok).toBe(true);
    expect(events.filter((e) => e.type === 'BetPlaced').length).toBeGreaterThanOrEqual(acknowledged);
  });
});
