/**
 * A keyed command's large answer (a coup's settlements) is not stored twice: its last event keeps how many events
 * the command recorded, and a retry's answer is rebuilt from them. Every retry answers the first answer: on the same
 * process, on one that folds the command from the stream, and on one whose key index is filled from the stream.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore, type EventStore, type RecordedEvent } from '@coup/event-store';
import { snapshotStream, tableStream, type TableCommand } from '@coup/table';
import { Metrics } from '../common/metrics';
import {
  CommandWindow,
  INLINE_REPLY_MAX_CHARS,
  commandEventsIn,
  keyEntryOf,
  storedReply,
} from './key-replies';
import { TableProcessor } from './table-processor';
import { TWO_PROCESSES } from '../../test/two-processes';

const AT = '2030-01-01T12:00:00.000Z';
const admin = { id: 'boss', role: 'admin' };
const dealer = { id: 'd1', role: 'dealer' };
const cmd = (type: TableCommand['type'], data: object, actor = dealer) =>
  ({ type, data, meta: { actor, at: AT } }) as TableCommand;
const PLAYERS = Array.from(
  { length: 60 },
  (_, i) => `player-${String(i).padStart(3, '0')}-${'x'.repeat(53)}`,
);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function events(store: EventStore, tableId: string): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const e of store.readStream(tableStream(tableId))) out.push(e);
  return out;
}

/** An rng table with PLAYERS each betting on banker (the first with a key), betting closed. */
async function closedRound(p: TableProcessor, tableId: string): Promise<void> {
  await p.execute(tableId, cmd('OpenTable', { tableId, rules: { dealing: 'rng' } }, admin));
  for (const playerId of PLAYERS)
    await p.execute(tableId, cmd('BuyIn', { playerId, amount: 1_000_000 }, admin));
  await p.execute(tableId, cmd('StartShoe', { seed: 'ab'.repeat(32) }));
  await p.execute(tableId, cmd('OpenBetting', {}));
  for (const [i, playerId] of PLAYERS.entries()) {
    const bet = { roundNo: 1, playerId, spot: 'banker', amount: 1000 };
    const key = i === 0 ? 'bet-0' : undefined;
    await p.execute(tableId, cmd('PlaceBet', bet, { id: playerId, role: 'player' }), key);
  }
  await p.execute(tableId, cmd('CloseBetting', { roundNo: 1 }));
}

describe.each(Object.keys(TWO_PROCESSES))('a keyed coup on %s', (kind) => {
  jest.setTimeout(60_000);

  it('keeps its settlements once, and every retry answers the first answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coup-replies-'));
    dirs.push(dir);
    const [one, two] = TWO_PROCESSES[kind]!(dir);
    const options = (file: string) => ({ snapshotEvery: 100_000, keyIndexFile: join(dir, file) });
    const a = new TableProcessor(one, new Metrics(false), options('a.sqlite'));
    const b = new TableProcessor(two, new Metrics(false), options('b.sqlite'));
    await closedRound(a, 'K1');
    await b.read('K1'); // b holds the table from before the coup: it folds the coup from the stream

    const deal = cmd('Deal', { roundNo: 1 });
    const first = await a.execute('K1', deal, 'deal-1');
    expect((first as { settlements: unknown[] }).settlements).toHaveLength(PLAYERS.length);
    expect(JSON.stringify(first).length).toBeGreaterThan(INLINE_REPLY_MAX_CHARS);

    const recorded = await events(one, 'K1');
    const own = recorded.filter((e) => e.metadata.commandId === 'deal-1');
    const last = own.at(-1)!;
    expect(last.metadata).toMatchObject({ replyEvents: own.length, commandType: 'Deal' });
    expect(last.metadata).not.toHaveProperty('reply');
    // A keyed bet's small answer is kept as it is.
    const bet = recorded.find((e) => e.metadata.commandId === 'bet-0')!;
    expect(bet.metadata['reply']).toMatchObject({ playerId: PLAYERS[0], amount: 1000 });
    expect(bet.metadata).not.toHaveProperty('replyEvents');

    // The same process: the answer it holds, byte for byte.
    expect(JSON.stringify(await a.execute('K1', deal, 'deal-1'))).toBe(JSON.stringify(first));
    // A snapshot after the coup: a process that loads from it folds none of the coup's events.
    const snapper = new TableProcessor(one, new Metrics(false), { snapshotEvery: 1 });
    await snapper.execute('K1', cmd('BuyIn', { playerId: 'late', amount: 100 }, admin));
    while ((await one.streamHead(snapshotStream('K1'))) === null) await new Promise((r) => setTimeout(r, 5));
    await snapper.shutdown();
    // A process that folds the coup from the stream, and one with a new key index loading from the snapshot: its
    // index is filled reading the stream backwards, and the coup's events are read for the answer.
    const c = new TableProcessor(two, new Metrics(false), options('c.sqlite'));
    const reads = jest.spyOn(two, 'readStream');
    // (The same JSON; read from the store, its objects' keys come in the store's canonical order.)
    for (const p of [b, c]) expect(await p.execute('K1', deal, 'deal-1')).toEqual(first);
    expect(reads).toHaveBeenCalledWith(tableStream('K1'), {
      fromRevision: last.streamRevision - BigInt(own.length) + 1n,
      maxCount: own.length,
    });
    expect(await events(one, 'K1')).toHaveLength(recorded.length + 1);
    for (const p of [a, b, c]) await p.shutdown();
    for (const s of new Set([one, two])) await s.close();
  });
});

describe('keyEntryOf', () => {
  const recordedAt = AT;
  const event = (revision: number, commandId: string, metadata: object, type = 'X'): RecordedEvent =>
    ({
      stream: 'table-T',
      streamRevision: BigInt(revision),
      globalPosition: BigInt(revision + 1),
      id: `id-${revision}`,
      type,
      data: { roundNo: 1, tableId: 'T' },
      metadata: { schemaVersion: 1, commandId, ...metadata },
      recordedAt,
    }) as unknown as RecordedEvent;
  const noRead = async (): Promise<RecordedEvent[]> => {
    throw new Error('not read: the window held the events');
  };

  it('takes an answer kept as it is, and none from an event that is not the last of a keyed command', async () => {
    const e = event(3, 'k', { requestHash: 'h', reply: { ok: 1 } });
    expect(await keyEntryOf(e, [e], noRead)).toEqual({
      key: 'k',
      hash: 'h',
      reply: { ok: 1 },
      revision: 3n,
      recordedAt,
    });
    expect(await keyEntryOf(event(4, 'k', {}), [], noRead)).toBeNull();
  });

  it("rebuilds an answer from the command's events: from the events read just before, or read for it", async () => {
    const meta = { requestHash: 'h', commandType: 'CloseTable', replyEvents: 2 };
    const played = event(6, 'other', {}, 'BetPlaced');
    const cashed = {
      ...event(7, 'k', {}, 'PlayerCashedOut'),
      data: { playerId: 'p', paid: 5, commissionCollected: 0 },
    };
    const closed = event(8, 'k', meta, 'TableClosed');
    const window = new CommandWindow();
    window.add(played);
    window.add(cashed as RecordedEvent);
    const reply = {
      tableId: 'T',
      closed: true,
      cashedOut: [{ playerId: 'p', paid: 5, commissionCollected: 0 }],
    };
    expect((await keyEntryOf(closed, window.add(closed), noRead))?.reply).toEqual(reply);
    const asked: [bigint, number][] = [];
    const read = async (lastRevision: bigint, count: number) => {
      asked.push([lastRevision, count]);
      return [cashed as RecordedEvent, closed];
    };
    expect((await keyEntryOf(closed, [closed], read))?.reply).toEqual(reply);
    expect(asked).toEqual([[8n, 2]]);
    // Events that are not the command's (another command's, or missing) are never taken for its answer.
    await expect(keyEntryOf(closed, [closed], async () => [played, closed])).rejects.toThrow(
      /cannot be rebuilt/,
    );
    await expect(keyEntryOf(closed, [closed], async () => [closed])).rejects.toThrow(/cannot be rebuilt/);
  });

  it('keeps an answer as it is when its events would not rebuild it exactly', () => {
    const deal = cmd('CloseTable', { cashOutAll: true }, admin);
    const events = [
      { type: 'TableClosed', data: { tableId: 'T', at: AT, by: 'boss', role: 'admin' } },
    ] as never;
    const rebuilt = { tableId: 'T', closed: true, cashedOut: [] };
    expect(storedReply(deal, events, rebuilt)).toEqual({ reply: rebuilt });
    const large = { ...rebuilt, note: 'n'.repeat(INLINE_REPLY_MAX_CHARS) };
    expect(storedReply(deal, events, large)).toEqual({ reply: large });
  });

  it('reads a command through the stream', async () => {
    const store = createEventStore({ kind: 'memory' });
    await store.appendToStream('table-T', [
      { id: '00000000-0000-4000-8000-000000000001', type: 'A', data: {}, metadata: { schemaVersion: 1 } },
      { id: '00000000-0000-4000-8000-000000000002', type: 'B', data: {}, metadata: { schemaVersion: 1 } },
      { id: '00000000-0000-4000-8000-000000000003', type: 'C', data: {}, metadata: { schemaVersion: 1 } },
    ]);
    const read = commandEventsIn(store, 'table-T');
    expect((await read(2n, 2)).map((e) => e.type)).toEqual(['B', 'C']);
    await store.close();
  });
});
