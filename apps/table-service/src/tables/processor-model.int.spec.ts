/**
 * The processor against a store whose commits, acknowledgements and reads interleave under the test's control
 * (issue 14): two processors on one store (two service processes), commands with and without keys, retries of a
 * key on either process, reads (a WebSocket subscribe, a view), restarts, snapshots, and appends held between
 * their commit and their acknowledgement (the writer thread's order) or before their commit (inline).
 * After every step, each process's table session is a fold of the stream up to its revision, and its revision
 * is one the store has; at the end every key has one effect and one answer, no client saw a conflict or a 5xx.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  createEventStore,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type NewEvent,
} from '@coup/event-store';
import {
  evolve,
  initialState,
  tableStream,
  type TableCommand,
  type TableEvent,
  type TableState,
} from '@coup/table';
import { ApiError } from '../common/api-error';
import { Metrics } from '../common/metrics';
import { TableProcessor } from './table-processor';

const T = 'M1';
const AT = '2030-01-01T12:00:00.000Z';
const PLAYERS = ['p1', 'p2', 'p3'] as const;
const cmd = (type: TableCommand['type'], data: object, actor: { id: string; role: string }) =>
  ({ type, data, meta: { actor, at: AT } }) as TableCommand;
const admin = { id: 'boss', role: 'admin' };
const dealer = { id: 'd1', role: 'dealer' };

type Ordering = 'worker' | 'inline';

/** Appends to table streams are held: `worker` commits at once and holds the answer; `inline` holds both. */
class ControlledStore {
  readonly held: (() => void)[] = [];
  readonly store: EventStore;

  constructor(
    readonly inner: EventStore,
    private readonly ordering: Ordering,
  ) {
    const store = Object.create(inner) as EventStore;
    store.appendToStream = (stream: string, events: readonly NewEvent[], options?: AppendOptions) =>
      stream.startsWith('table-')
        ? this.append(stream, events, options)
        : inner.appendToStream(stream, events, options);
    this.store = store;
  }

  private append(
    stream: string,
    events: readonly NewEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult> {
    if (this.ordering === 'worker') {
      const committed = this.inner.appendToStream(stream, events, options);
      return new Promise((resolve, reject) => this.held.push(() => committed.then(resolve, reject)));
    }
    return new Promise((resolve, reject) =>
      this.held.push(() => void this.inner.appendToStream(stream, events, options).then(resolve, reject)),
    );
  }

  release(index: number): void {
    if (this.held.length === 0) return;
    this.held.splice(index % this.held.length, 1)[0]!();
  }
}

/** The states after each event of the stream, folded once. */
class Folds {
  private readonly states: TableState[] = [];
  constructor(private readonly store: EventStore) {}
  async at(revision: bigint): Promise<TableState> {
    if (revision < 0n) return initialState;
    if (BigInt(this.states.length) <= revision) {
      let s = this.states.at(-1) ?? initialState;
      for await (const e of this.store.readStream(tableStream(T), {
        fromRevision: BigInt(this.states.length),
      })) {
        s = evolve(s, { type: e.type, data: e.data } as TableEvent);
        this.states.push(s);
      }
    }
    const state = this.states[Number(revision)];
    if (!state) throw new Error(`revision ${revision} is past the stream's head (${this.states.length - 1})`);
    return state;
  }
}

type Step =
  | { kind: 'bet'; on: 0 | 1; player: number; amount: number; keyed: boolean }
  | { kind: 'clear'; on: 0 | 1; player: number }
  | { kind: 'retry'; on: 0 | 1; of: number }
  | { kind: 'read'; on: 0 | 1 }
  | { kind: 'release'; index: number }
  | { kind: 'evict'; on: 0 | 1 }
  | { kind: 'close'; on: 0 | 1 }
  | { kind: 'restart' };

const on = fc.constantFrom(0 as const, 1 as const);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('bet' as const),
      on,
      player: fc.nat(2),
      amount: fc.constantFrom(100, 500, 2_500),
      keyed: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('clear' as const), on, player: fc.nat(2) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('retry' as const), on, of: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('read' as const), on }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('release' as const), index: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('evict' as const), on }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
  // The betting timer's "no more bets" (later bets are refused: refusals are checked too).
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), on }) },
);

interface Sent {
  readonly key: string | null;
  readonly command: TableCommand;
  result?: { ok: true; reply: unknown } | { ok: false; error: unknown };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

async function run(ordering: Ordering, steps: readonly Step[]): Promise<void> {
  const inner = createEventStore({ kind: 'memory' });
  const controlled = new ControlledStore(inner, ordering);
  const folds = new Folds(inner);
  // Both processes share one key index file, as processes on one data folder do; one table session each at most,
  // so reading another table evicts this one.
  const keyIndexFile = join(mkdtempSync(join(tmpdir(), 'coup-model-')), 'idempotency.sqlite');
  const make = () =>
    new TableProcessor(controlled.store, new Metrics(false), {
      snapshotEvery: 10,
      maxSessions: 1,
      keyIndexFile,
    });
  const procs: TableProcessor[] = [make(), make()];
  const sent: Sent[] = [];
  const pending: Promise<void>[] = [];

  const send = (on: 0 | 1, command: TableCommand, key: string | null) => {
    const entry: Sent = { key, command };
    sent.push(entry);
    pending.push(
      procs[on]!.execute(T, command, key ?? undefined).then(
        (reply) => void (entry.result = { ok: true, reply }),
        (error: unknown) => void (entry.result = { ok: false, error }),
      ),
    );
  };
  const drainAll = async () => {
    for (let i = 0; i < 10_000 && (controlled.held.length > 0 || sent.some((s) => !s.result)); i++) {
      while (controlled.held.length > 0) controlled.release(0);
      await settle();
      if (i % 50 === 49) await new Promise((r) => setTimeout(r, 5));
    }
  };
  /** Every loaded session is a fold of the stream up to its revision, a revision the store has. */
  const checkSessions = async () => {
    for (const p of procs) {
      const at = p.peek(T);
      if (!at) continue;
      expect(at.state).toEqual(await folds.at(at.revision));
    }
  };

  // The table: three players with chips, a shoe, betting open on round 1.
  send(0, cmd('OpenTable', { tableId: T, rules: { dealing: 'rng' } }, admin), 'open');
  await drainAll();
  for (const p of PLAYERS) send(0, cmd('BuyIn', { playerId: p, amount: 1_000_000 }, admin), `buy-${p}`);
  send(0, cmd('StartShoe', { seed: 'ab'.repeat(32) }, dealer), 'shoe');
  send(0, cmd('OpenBetting', {}, dealer), 'round-1');
  await drainAll();

  let n = 0;
  for (const step of steps) {
    switch (step.kind) {
      case 'bet': {
        const playerId = PLAYERS[step.player]!;
        const command = cmd(
          'PlaceBet',
          { roundNo: 1, playerId, spot: 'player', amount: step.amount },
          { id: playerId, role: 'player' },
        );
        send(step.on, command, step.keyed ? `bet-${n++}` : null);
        break;
      }
      case 'clear': {
        const playerId = PLAYERS[step.player]!;
        send(
          step.on,
          cmd('ClearBets', { roundNo: 1, playerId }, { id: playerId, role: 'player' }),
          `clear-${n++}`,
        );
        break;
      }
      case 'retry': {
        const keyed = sent.filter((s) => s.key !== null);
        const first = keyed[step.of % keyed.length]!;
        send(step.on, first.command, first.key);
        break;
      }
      case 'read':
        pending.push(procs[step.on]!.read(T).then(() => undefined));
        break;
      case 'release':
        controlled.release(step.index);
        break;
      case 'evict':
        pending.push(procs[step.on]!.read('ELSEWHERE').then(() => undefined));
        break;
      case 'close':
        send(step.on, cmd('CloseBetting', { roundNo: 1 }, dealer), null);
        break;
      case 'restart':
        // The second process restarts (what it had in flight goes on, like a process that has not died yet).
        procs[1] = make();
        break;
    }
    await settle();
    await checkSessions();
  }
  await drainAll();
  await Promise.all(pending);
  await checkSessions();

  // Both processes read the whole stream.
  const head = (await inner.streamHead(tableStream(T)))!.revision;
  for (const p of procs) {
    const at = await p.read(T);
    expect(at.revision).toBe(head);
    expect(at.state).toEqual(await folds.at(head));
  }
  // No client saw a conflict, a 5xx or anything but a domain refusal.
  for (const s of sent) {
    expect(s.result).toBeDefined();
    if (s.result && !s.result.ok) {
      expect(s.result.error).toBeInstanceOf(ApiError);
      const error = s.result.error as ApiError;
      expect(error.status).toBeLessThan(500);
      expect(error.code).not.toBe('CONCURRENCY_CONFLICT');
      expect(error.code).not.toBe('IDEMPOTENCY_KEY_REUSED');
    }
  }
  // Each key: one effect at most, and every accepted answer the same.
  const recorded = new Map<string, number>();
  for await (const e of inner.readStream(tableStream(T))) {
    const meta = e.metadata as { commandId?: string; reply?: unknown };
    if (meta.commandId && ('reply' in meta || 'replyEvents' in meta))
      recorded.set(meta.commandId, (recorded.get(meta.commandId) ?? 0) + 1);
  }
  const answers = new Map<string, unknown[]>();
  for (const s of sent)
    if (s.key !== null && s.result?.ok) answers.set(s.key, [...(answers.get(s.key) ?? []), s.result.reply]);
  for (const [key, replies] of answers) {
    expect(recorded.get(key)).toBe(1);
    for (const r of replies) expect(r).toEqual(replies[0]);
  }
  for (const [key, count] of recorded) expect([key, count]).toEqual([key, 1]);
  for (const p of procs) await p.shutdown();
}

describe('TableProcessor, modelled against a store with controlled interleavings', () => {
  jest.setTimeout(120_000);

  for (const ordering of ['worker', 'inline'] as const)
    it(`keeps every session a fold of the stream at an acknowledged revision (${ordering} ordering)`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 60 }), (steps) => run(ordering, steps)),
        { numRuns: 40, seed: ordering === 'worker' ? 14 : 41 },
      );
    });
});
