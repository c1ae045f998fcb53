/**
 * Idempotency (issue 14, ADR-14): a key's first accepted answer, bound to its caller and request, on any process,
 * after restarts (with the key index kept or lost), across snapshots and evicted sessions; a duplicate never fails
 * its batch-mates.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createEventStore, type EventStore } from '@coup/event-store';
import { snapshotStream, tableStream, type TableCommand } from '@coup/table';
import { ApiError } from '../common/api-error';
import { Metrics } from '../common/metrics';
import { SqliteKeyIndex } from './idempotency';
import { TableProcessor } from './table-processor';
import { TWO_PROCESSES } from '../../test/two-processes';

const AT = '2030-01-01T12:00:00.000Z';
const TABLES = ['I1', 'I2'] as const;
const PLAYERS = ['p1', 'p2', 'p3'] as const;
type Actor = { id: string; role: string };
const admin: Actor = { id: 'boss', role: 'admin' };
const dealer: Actor = { id: 'd1', role: 'dealer' };
const cmd = (type: TableCommand['type'], data: object, actor: Actor) =>
  ({ type, data, meta: { actor, at: AT } }) as TableCommand;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'coup-keys-'));
  dirs.push(d);
  return d;
};

async function openTables(p: TableProcessor): Promise<void> {
  for (const t of TABLES) {
    await p.execute(t, cmd('OpenTable', { tableId: t, rules: { dealing: 'rng' } }, admin));
    for (const id of PLAYERS) await p.execute(t, cmd('BuyIn', { playerId: id, amount: 1_000_000 }, admin));
    await p.execute(t, cmd('StartShoe', { seed: 'cd'.repeat(32) }, dealer));
    await p.execute(t, cmd('OpenBetting', {}, dealer));
  }
}

async function recordedKeys(store: EventStore): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const t of TABLES)
    for await (const e of store.readStream(tableStream(t))) {
      const meta = e.metadata as { commandId?: string; reply?: unknown };
      if (meta.commandId && ('reply' in meta || 'replyEvents' in meta)) {
        const k = `${t}/${meta.commandId}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
    }
  return counts;
}

type Op =
  | { kind: 'new'; table: number; player: number; amount: number; clear: boolean; on: number }
  | { kind: 'retry'; of: number; change: 'none' | 'body' | 'caller'; on: number }
  | { kind: 'restart'; on: number; keepIndex: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('new' as const),
      table: fc.nat(1),
      player: fc.nat(2),
      amount: fc.constantFrom(100, 500, 2_000_000),
      clear: fc.boolean(),
      on: fc.nat(1),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('retry' as const),
      of: fc.nat(),
      change: fc.constantFrom('none' as const, 'none' as const, 'body' as const, 'caller' as const),
      on: fc.nat(1),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('restart' as const), on: fc.nat(1), keepIndex: fc.boolean() }),
  },
);

interface Request {
  readonly table: string;
  readonly key: string;
  readonly command: TableCommand;
}

describe('idempotency keys', () => {
  jest.setTimeout(120_000);

  it('given keys recorded at two instants, when the index prunes before the later, then only the later is found and the watermark stays', () => {
    const index = new SqliteKeyIndex(':memory:');
    const entry = (key: string, recordedAt: string) => ({
      key,
      hash: 'h',
      reply: { key },
      revision: 1n,
      recordedAt,
    });
    index.record(
      'T',
      [entry('old', '2030-01-01T00:00:00.000Z'), entry('new', '2030-01-09T00:00:00.000Z')],
      7n,
    );
    expect(index.prune('2030-01-02T00:00:00.000Z')).toBe(1);
    expect(index.get('T', 'old')).toBeUndefined();
    expect(index.get('T', 'new')).toEqual({ hash: 'h', reply: { key: 'new' } });
    expect(index.watermark('T')).toBe(7n);
    index.record('T', [], 3n);
    expect(index.watermark('T')).toBe(7n);
    index.close();
  });

  it.each(Object.keys(TWO_PROCESSES))(
    'given random keyed commands with retries (same, other body, other caller) on two processes with restarts, snapshots and evictions, then each key has one effect and each retry its first answer or 422 (%s)',
    async (kind) => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 10, maxLength: 50 }), async (ops) => {
          const dir = tempDir();
          const stores = TWO_PROCESSES[kind]!(dir);
          const store = stores[0];
          let generation = 0;
          // maxSessions 1: every switch of table evicts the other's session; snapshotEvery 10: loads cross snapshots.
          const make = (i: number, keepIndex = true) =>
            new TableProcessor(stores[i]!, new Metrics(false), {
              snapshotEvery: 10,
              maxSessions: 1,
              keyIndexFile: join(dir, `keys-${i}-${keepIndex ? 0 : ++generation}.sqlite`),
            });
          const procs = [make(0), make(1)];
          await openTables(procs[0]!);
          const requests: Request[] = [];
          const first = new Map<string, { command: TableCommand; reply: unknown }>();
          for (const op of ops) {
            let request: Request;
            if (op.kind === 'restart') {
              procs[op.on] = make(op.on, op.keepIndex);
              continue;
            } else if (op.kind === 'new' || requests.length === 0) {
              const o =
                op.kind === 'new' ? op : { table: 0, player: 0, amount: 100, clear: false, on: op.on };
              const playerId = PLAYERS[o.player]!;
              const table = TABLES[o.table]!;
              const command = o.clear
                ? cmd('ClearBets', { roundNo: 1, playerId }, { id: playerId, role: 'player' })
                : cmd(
                    'PlaceBet',
                    { roundNo: 1, playerId, spot: 'banker', amount: o.amount },
                    { id: playerId, role: 'player' },
                  );
              request = { table, key: `k${requests.length}`, command };
            } else {
              const base = requests[op.of % requests.length]!;
              const data = base.command.data as Record<string, unknown>;
              const command =
                op.change === 'body'
                  ? ({ ...base.command, data: { ...data, amount: 300 } } as TableCommand)
                  : op.change === 'caller'
                    ? ({ ...base.command, meta: { ...base.command.meta, actor: dealer } } as TableCommand)
                    : base.command;
              request = { ...base, command };
            }
            requests.push(request);
            const id = `${request.table}/${request.key}`;
            const answer = await procs[op.on]!.execute(request.table, request.command, request.key).then(
              (reply) => ({ ok: true as const, reply }),
              (error: unknown) => ({ ok: false as const, error }),
            );
            const seen = first.get(id);
            if (seen) {
              if (JSON.stringify(seen.command) === JSON.stringify(request.command)) {
                expect(answer).toEqual({ ok: true, reply: seen.reply });
              } else {
                expect(answer.ok).toBe(false);
                expect((answer as { error: ApiError }).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
              }
            } else if (answer.ok) {
              first.set(id, { command: request.command, reply: answer.reply });
            } else {
              // A refusal is not remembered: a domain refusal, never a server error or a reuse.
              expect(answer.error).toBeInstanceOf(ApiError);
              expect((answer.error as ApiError).status).toBeLessThan(500);
              expect((answer.error as ApiError).code).not.toBe('IDEMPOTENCY_KEY_REUSED');
            }
          }
          const counts = await recordedKeys(store);
          for (const id of first.keys()) expect([id, counts.get(id)]).toEqual([id, 1]);
          // Nothing recorded under a key that was never accepted.
          for (const id of counts.keys())
            if (/^I\d\/k\d+$/.test(id)) expect([id, first.has(id)]).toEqual([id, true]);
          for (const p of procs) await p.shutdown();
          for (const st of new Set(stores)) await st.close();
        }),
        { numRuns: kind === 'memory' ? 25 : 10, seed: 1414 },
      );
    },
  );

  it('given one key with two bodies in one batch, then the first is accepted and the second gets 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const store = createEventStore({ kind: 'memory' });
    const p = new TableProcessor(store, new Metrics(false), { snapshotEvery: 1000 });
    await openTables(p);
    const bet = (amount: number) =>
      cmd('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'player', amount }, { id: 'p1', role: 'player' });
    const [a, b] = await Promise.allSettled([
      p.execute('I1', bet(100), 'same'),
      p.execute('I1', bet(200), 'same'),
    ]);
    expect(a.status).toBe('fulfilled');
    expect(b).toMatchObject({ status: 'rejected', reason: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect((await recordedKeys(store)).get('I1/same')).toBe(1);
    await p.shutdown();
  });

  it('given a key answered for p2, when p1 sends p2 key and body, then 422, not p2 answer', async () => {
    const store = createEventStore({ kind: 'memory' });
    const p = new TableProcessor(store, new Metrics(false), { snapshotEvery: 1000 });
    await openTables(p);
    const data = { roundNo: 1, playerId: 'p2', spot: 'player', amount: 100 };
    await p.execute('I1', cmd('PlaceBet', data, { id: 'p2', role: 'player' }), 'k-p2');
    await expect(
      p.execute('I1', cmd('PlaceBet', data, { id: 'p1', role: 'player' }), 'k-p2'),
    ).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    await p.shutdown();
  });

  it('given a key recorded longer ago than the index keeps, when it is retried in a batch with others, then it alone gets 422 IDEMPOTENCY_KEY_EXPIRED', async () => {
    const dir = tempDir();
    const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite') });
    const a = new TableProcessor(store, new Metrics(false), { snapshotEvery: 10 });
    await openTables(a);
    const bet = (playerId: string) =>
      cmd(
        'PlaceBet',
        { roundNo: 1, playerId, spot: 'player', amount: 100 },
        { id: playerId, role: 'player' },
      );
    await a.execute('I1', bet('p1'), 'old');
    // Enough later events for a snapshot past the key: a later load folds only what follows it.
    for (let i = 0; i < 5; i++) await a.execute('I1', bet('p2'));
    while ((await store.streamHead(snapshotStream('I1'))) === null)
      await new Promise((r) => setTimeout(r, 5));
    await a.shutdown();
    // An index that is complete up to the head but no longer has the key (pruned after COUP_IDEMPOTENCY_DAYS).
    const file = join(dir, 'keys.sqlite');
    const index = new SqliteKeyIndex(file);
    index.record('I1', [], (await store.streamHead(tableStream('I1')))!.revision);
    index.close();
    const b = new TableProcessor(store, new Metrics(false), { snapshotEvery: 1000, keyIndexFile: file });
    const results = await Promise.allSettled([
      b.execute('I1', bet('p2'), 'fresh-1'),
      b.execute('I1', bet('p1'), 'old'),
      b.execute('I1', bet('p3'), 'fresh-2'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({
      code: 'IDEMPOTENCY_KEY_EXPIRED',
      status: 422,
    });
    expect((await recordedKeys(store)).get('I1/old')).toBe(1);
    await b.shutdown();
    await store.close();
  });

  describe('when the key index fails or is ahead of the store', () => {
    const bet = (playerId: string, amount = 100) =>
      cmd('PlaceBet', { roundNo: 1, playerId, spot: 'player', amount }, { id: playerId, role: 'player' });

    it('given the index write after an append fails, then the command is answered as recorded and its retry gets the first answer (not decided again)', async () => {
      const store = createEventStore({ kind: 'memory' });
      const inner = new SqliteKeyIndex(':memory:');
      let failNext = false;
      const flaky = Object.create(inner) as SqliteKeyIndex;
      flaky.record = (tableId, entries, complete) => {
        if (failNext && entries.length > 0) {
          failNext = false;
          throw new Error('SQLITE_BUSY: database is locked');
        }
        inner.record(tableId, entries, complete);
      };
      const p = new TableProcessor(store, new Metrics(false), { snapshotEvery: 1000, keyIndex: flaky });
      await openTables(p);
      await p.execute('I1', bet('p1'), 'warm'); // the index is complete from here on
      failNext = true;
      const first = await p.execute('I1', bet('p1'), 'k-busy');
      expect(first).toMatchObject({ playerId: 'p1', amount: 100 });
      // Later keyed traffic moves the watermark on; the missing key is filled from the stream first.
      await p.execute('I1', bet('p2'), 'k-later');
      await expect(p.execute('I1', bet('p1'), 'k-busy')).resolves.toEqual(first);
      expect((await recordedKeys(store)).get('I1/k-busy')).toBe(1);
      await p.shutdown();
    });

    it('given a catch-up whose read fails halfway, then the keys of the events it folded are indexed', async () => {
      const store = createEventStore({ kind: 'memory' });
      const a = new TableProcessor(store, new Metrics(false), { snapshotEvery: 1000 });
      await openTables(a);
      const keys = new SqliteKeyIndex(':memory:');
      const b = new TableProcessor(store, new Metrics(false), { snapshotEvery: 1000, keyIndex: keys });
      await b.read('I1');
      await a.execute('I1', bet('p1'), 'seen-1');
      await a.execute('I1', bet('p2'), 'seen-2');
      // B's next read yields one event, then the store fails.
      const original = store.readStream.bind(store);
      let failing = true;
      store.readStream = (stream, options) => {
        const inner = original(stream, options);
        if (!failing || stream !== tableStream('I1')) return inner;
        failing = false;
        return (async function* () {
          for await (const e of inner) {
            yield e;
            throw new Error('stream dropped');
          }
        })();
      };
      await expect(b.read('I1')).rejects.toThrow('stream dropped');
      expect(keys.get('I1', 'seen-1')).toBeDefined();
      // And the rest follows on the next read; both keys answer their first answer on B.
      await b.read('I1');
      expect(keys.get('I1', 'seen-2')).toBeDefined();
      await a.shutdown();
      await b.shutdown();
    });

    it('given an index whose watermark is past the store (the store restored from a backup), then it is rebuilt from the stream and answers nothing the store does not have', async () => {
      const store = createEventStore({ kind: 'memory' });
      const keys = new SqliteKeyIndex(':memory:');
      keys.record(
        'I1',
        [{ key: 'ghost', hash: 'h', reply: { ghost: true }, revision: 90n, recordedAt: AT }],
        99n,
      );
      const p = new TableProcessor(store, new Metrics(false), { snapshotEvery: 1000, keyIndex: keys });
      await openTables(p);
      expect(keys.get('I1', 'ghost')).toBeUndefined();
      const reply = await p.execute('I1', bet('p1'), 'ghost');
      expect(reply).toMatchObject({ playerId: 'p1', amount: 100 });
      expect((await recordedKeys(store)).get('I1/ghost')).toBe(1);
      await p.shutdown();
    });
  });
});
