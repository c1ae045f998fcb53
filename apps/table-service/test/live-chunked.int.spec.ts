/**
 * A totals frame to thousands of watchers goes out a chunk per turn (live.channel.ts, TOTALS_CHUNK): between its
 * chunks, a bettor's own bet, a table event or a socket joining must still see every socket's frames in revision
 * order, each totals frame once, and none older than what a socket already has. The channel is driven by hand
 * (its events fed in order, its later turns run when the test says) over a real table's events.
 */
import type { WebSocket } from 'ws';
import type { Principal, Role } from '@coup/auth';
import type { RecordedEvent } from '@coup/event-store';
import { TableChannel, TOTALS_CHUNK } from '../src/live/live.channel';
import { LiveClients, type Client } from '../src/live/live.clients';
import { TokenBucket } from '../src/live/live.limits';
import { LiveSender } from '../src/live/live.send';
import { cmd, liveRig, type LiveRig, type Sent } from './live-fake';

const TABLE = 'C';
const admin = { id: 'a1', role: 'admin' as Role };
const dealer = { id: 'd1', role: 'dealer' as Role };
const bettor = { id: 'p1', role: 'player' as Role };

interface Watcher {
  readonly client: Client;
  readonly sent: Sent[];
}

function watcher(id: string, role: Role, every = false): Watcher {
  const sent: Sent[] = [];
  const socket = {
    readyState: 1,
    bufferedAmount: 0,
    send: (data: Buffer) => sent.push(JSON.parse(String(data)) as Sent),
    close: () => undefined,
  };
  const client: Client = {
    socket: socket as unknown as WebSocket,
    principal: { id, role } as Principal,
    token: '',
    expiresAt: null,
    expiryTimer: null,
    bucket: new TokenBucket(1000, 1000),
    address: '127.0.0.1',
    tableId: TABLE,
    every,
    generation: 0,
    gone: false,
    toldLimitedAt: -Infinity,
    commandsInFlight: 0,
    totalsSeq: 0,
  };
  return { client, sent };
}

const kinds = (w: Watcher) => w.sent.map((f) => `${f.event?.type ?? f.type}@${f.revision}`);
const revisions = (w: Watcher) => w.sent.map((f) => f.revision!);
const turn = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('a totals frame sent a chunk per turn', () => {
  let rig: LiveRig;
  let channel: TableChannel;
  let later: (() => void)[];
  let fed: bigint;

  /** Runs a command on the table and feeds the channel its new events. */
  async function run(type: Parameters<typeof cmd>[0], data: object, actor = dealer): Promise<void> {
    await rig.tables.execute(TABLE, cmd(type, data, actor));
    const events: RecordedEvent[] = (await rig.events(TABLE)).filter((e) => e.streamRevision > fed);
    for (const e of events) {
      channel.onLive(e);
      fed = e.streamRevision;
    }
  }

  beforeEach(async () => {
    rig = await liveRig();
    await rig.tables.execute(TABLE, cmd('OpenTable', { tableId: TABLE, rules: { dealing: 'rng' } }, admin));
    await rig.tables.execute(TABLE, cmd('BuyIn', { playerId: 'p1', amount: 100_000 }, admin));
    await rig.tables.execute(TABLE, cmd('StartShoe', { seed: 'ab'.repeat(32) }, dealer));
    await rig.tables.execute(TABLE, cmd('OpenBetting', {}, dealer));
    later = [];
    channel = new TableChannel(TABLE, {
      store: rig.handle.store,
      load: (tableId) => rig.tables.read(tableId),
      sender: new LiveSender(new LiveClients(10), 1 << 30),
      coalesceMs: 0,
      failed: (_t, error) => {
        throw error;
      },
      later: (next) => later.push(next),
    });
    const head = (await rig.events(TABLE)).at(-1)!.streamRevision;
    await channel.sync(head);
    fed = head;
  });

  afterEach(async () => {
    channel.dispose();
    await rig.close();
  });

  it('reaches a bettor before its own next bet, every watcher before a table event, and each once', async () => {
    const staff = watcher('d1', 'dealer');
    const every = watcher('s1', 'supervisor', true);
    const watchers = Array.from({ length: TOTALS_CHUNK + 40 }, (_, i) => watcher(`w${i}`, 'player'));
    const own = watcher('p1', 'player'); // joined last: beyond the first chunk
    for (const w of [staff, every, ...watchers, own]) channel.join(w.client);

    await run('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 500 }, bettor);
    const bet1 = fed;
    await turn(); // the totals' timer: the first chunk goes, the rest waits for a later turn
    expect(later).toHaveLength(1);
    const got = [staff, ...watchers, own].filter((w) => w.sent.some((f) => f.type === 'bets'));
    expect(got).toHaveLength(TOTALS_CHUNK);
    expect(kinds(own)).toEqual([`BetPlaced@${bet1}`]);

    // The bettor's next bet: the totals under way reach it first.
    await run('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 700 }, bettor);
    const bet2 = fed;
    expect(kinds(own)).toEqual([`BetPlaced@${bet1}`, `bets@${bet1}`, `BetPlaced@${bet2}`]);

    // A table event: the send under way is finished, the newer totals follow, then the event.
    await run('CloseBetting', { roundNo: 1 });
    const closed = fed;
    for (const w of [staff, ...watchers])
      expect(kinds(w)).toEqual([`bets@${bet1}`, `bets@${bet2}`, `BettingClosed@${closed}`]);
    expect(kinds(own)).toEqual([
      `BetPlaced@${bet1}`,
      `bets@${bet1}`,
      `BetPlaced@${bet2}`,
      `bets@${bet2}`,
      `BettingClosed@${closed}`,
    ]);
    // Staff taking every event take no totals.
    expect(kinds(every)).toEqual([`BetPlaced@${bet1}`, `BetPlaced@${bet2}`, `BettingClosed@${closed}`]);

    // The send's later turn finds it finished: nobody gets the totals twice.
    for (const next of later.splice(0)) next();
    expect(kinds(watchers.at(-1)!)).toEqual([`bets@${bet1}`, `bets@${bet2}`, `BettingClosed@${closed}`]);
  });

  it('goes on a chunk per turn to the sockets still following; one that joined meanwhile is not sent it', async () => {
    const watchers = Array.from({ length: 2 * TOTALS_CHUNK + 10 }, (_, i) => watcher(`w${i}`, 'player'));
    for (const w of watchers) channel.join(w.client);
    await run('PlaceBet', { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 500 }, bettor);
    await turn();
    const sentTo = () => watchers.filter((w) => w.sent.length > 0).length;
    expect(sentTo()).toBe(TOTALS_CHUNK);

    const leaving = watchers.at(-1)!;
    channel.leave(leaving.client);
    const late = watcher('w-late', 'player'); // joins with a view at the channel's revision: newer than the send
    channel.join(late.client);

    later.shift()!();
    expect(sentTo()).toBe(2 * TOTALS_CHUNK);
    later.shift()!();
    expect(later).toHaveLength(0);
    expect(sentTo()).toBe(watchers.length - 1);
    expect(leaving.sent).toEqual([]);
    expect(late.sent).toEqual([]);
    for (const w of watchers.slice(0, -1)) expect(kinds(w)).toEqual([`bets@${fed}`]);
    for (const w of watchers) expect(revisions(w)).toEqual([...revisions(w)].sort((a, b) => a - b));
  });
});
