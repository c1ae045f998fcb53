import type { TableView } from '@coup/table';
import { type FeedState, type SocketLike, TableFeed, backoffMs } from './feed';

/** A scripted socket: records what the feed sends, and lets the test play the server. */
class FakeSocket {
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  readonly sent: unknown[] = [];
  closed = false;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.({});
  }
  serve(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.onclose?.({ code, reason: '' });
  }
}

const view = (roundNo: number) => ({ tableId: 'T1', phase: 'betting', roundNo }) as unknown as TableView;
const event = (revision: number, type = 'BetPlaced') => ({
  type: 'event',
  tableId: 'T1',
  revision,
  event: { type, data: { at: '2026-01-01T00:00:00.000Z' } },
});

function setup() {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number; done: boolean }[] = [];
  const reads: { resolve: (v: TableView) => void }[] = [];
  const feed = new TableFeed({
    tableId: 'T1',
    token: 'tok',
    url: (t) => `ws://x/ws?token=${t}`,
    connect: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s as unknown as SocketLike;
    },
    readView: () => new Promise<TableView>((resolve) => reads.push({ resolve })),
    setTimer: (fn, ms) => {
      const t = { fn, ms, done: false };
      timers.push(t);
      return t;
    },
    clearTimer: (h) => {
      (h as { done: boolean }).done = true;
    },
  });
  const states: FeedState[] = [];
  feed.subscribe((s) => states.push(s));
  const runTimers = () => {
    for (const t of timers.splice(0)) if (!t.done) t.fn();
  };
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { feed, sockets, timers, reads, states, runTimers, flush };
}

describe('TableFeed', () => {
  it('subscribes without a revision first, and shows the view it gets', () => {
    const { feed, sockets } = setup();
    feed.start();
    const s = sockets[0]!;
    expect(s.url).toBe('ws://x/ws?token=tok');
    s.open();
    expect(s.sent).toEqual([{ type: 'subscribe', tableId: 'T1' }]);
    s.serve({ type: 'hello', role: 'dealer', id: 'd1' });
    s.serve({ type: 'view', tableId: 'T1', revision: 7, view: view(3) });
    expect(feed.current.connection).toBe('live');
    expect(feed.current.revision).toBe(7);
    expect(feed.current.view?.roundNo).toBe(3);
  });

  it('after a burst of events, re-reads the view once (debounced) and keeps the last revision', async () => {
    const { feed, sockets, reads, runTimers, flush } = setup();
    feed.start();
    const s = sockets[0]!;
    s.open();
    s.serve({ type: 'view', tableId: 'T1', revision: 7, view: view(3) });
    s.serve(event(8));
    s.serve(event(9));
    s.serve(event(10, 'BettingClosed'));
    expect(reads).toHaveLength(0);
    runTimers();
    expect(reads).toHaveLength(1);
    reads[0]!.resolve(view(4));
    await flush();
    expect(feed.current.view?.roundNo).toBe(4);
    expect(feed.current.revision).toBe(10);
    expect(feed.current.log.map((e) => e.revision)).toEqual([10, 9, 8]);
  });

  it('ignores an event it has already seen (no duplicate)', () => {
    const { feed, sockets } = setup();
    feed.start();
    const s = sockets[0]!;
    s.open();
    s.serve({ type: 'view', tableId: 'T1', revision: 7, view: view(3) });
    s.serve(event(8));
    s.serve(event(8));
    s.serve(event(5));
    expect(feed.current.log.map((e) => e.revision)).toEqual([8]);
  });

  it('a dropped connection shows reconnecting, backs off, and resumes from the last revision seen', async () => {
    const { feed, sockets, timers, reads, runTimers, flush } = setup();
    feed.start();
    const first = sockets[0]!;
    first.open();
    first.serve({ type: 'view', tableId: 'T1', revision: 7, view: view(3) });
    first.serve(event(8));
    runTimers(); // the debounced read
    first.drop();
    expect(feed.current.connection).toBe('reconnecting');
    expect(feed.current.retryInMs).toBe(backoffMs(0));
    expect(timers.at(-1)!.ms).toBe(500);
    runTimers();
    const second = sockets[1]!;
    second.drop(); // the service is still down: the delay doubles
    expect(timers.at(-1)!.ms).toBe(1000);
    runTimers();
    const third = sockets[2]!;
    third.open();
    expect(third.sent).toEqual([{ type: 'subscribe', tableId: 'T1', fromRevision: 8 }]);
    third.serve(event(9, 'BettingClosed'));
    third.serve({ type: 'resumed', tableId: 'T1', revision: 9 });
    expect(feed.current.connection).toBe('live');
    expect(feed.current.revision).toBe(9);
    expect(feed.current.log.map((e) => e.revision)).toEqual([9, 8]);
    reads.at(-1)!.resolve(view(3));
    await flush();
    expect(feed.current.view?.roundNo).toBe(3);
    // a later drop starts the backoff again from the shortest delay
    third.drop();
    expect(timers.at(-1)!.ms).toBe(500);
  });

  it('never lets an older view answer overwrite a newer one', async () => {
    const { feed, sockets, reads, flush } = setup();
    feed.start();
    sockets[0]!.open();
    sockets[0]!.serve({ type: 'view', tableId: 'T1', revision: 1, view: view(1) });
    void feed.refresh();
    void feed.refresh();
    reads[1]!.resolve(view(5));
    await flush();
    reads[0]!.resolve(view(4));
    await flush();
    expect(feed.current.view?.roundNo).toBe(5);
  });

  it('stops on a refusal from the service (bad token, unknown table) and says why', () => {
    const { feed, sockets, timers } = setup();
    feed.start();
    const s = sockets[0]!;
    s.open();
    s.serve({ type: 'error', code: 'UNKNOWN_TABLE', message: "there is no table 'T1'" });
    expect(s.closed).toBe(true);
    s.drop(1000);
    expect(feed.current.connection).toBe('failed');
    expect(feed.current.error).toEqual({ code: 'UNKNOWN_TABLE', message: "there is no table 'T1'" });
    expect(timers).toHaveLength(0);
  });

  it('keeps the coups of the current shoe for the roads, starting over at a new shoe', () => {
    const { feed, sockets } = setup();
    feed.start();
    const s = sockets[0]!;
    s.open();
    s.serve({ type: 'view', tableId: 'T1', revision: 1, view: view(1) });
    const coup = (revision: number, roundNo: number, outcome: string) => ({
      type: 'event',
      tableId: 'T1',
      revision,
      event: {
        type: 'CoupResolved',
        data: { roundNo, outcome, natural: false, playerTotal: 1, bankerTotal: 2, at: 'x' },
      },
    });
    s.serve(coup(2, 1, 'banker'));
    s.serve(coup(3, 2, 'tie'));
    expect(feed.current.road.map((r) => r.outcome)).toEqual(['banker', 'tie']);
    s.serve(event(4, 'ShoeStarted'));
    s.serve(coup(5, 3, 'player'));
    expect(feed.current.road.map((r) => r.outcome)).toEqual(['player']);
  });

  it("follows a settled coup's correction and void on the road: corrected in place, voided off it", () => {
    const { feed, sockets } = setup();
    feed.start();
    const s = sockets[0]!;
    s.open();
    s.serve({ type: 'view', tableId: 'T1', revision: 1, view: view(1) });
    const served = (revision: number, type: string, data: Record<string, unknown>) =>
      s.serve({ type: 'event', tableId: 'T1', revision, event: { type, data: { at: 'x', ...data } } });
    const totals = { natural: false, playerTotal: 1, bankerTotal: 2 };
    served(2, 'ShoeStarted', { shoeNo: 3 });
    served(3, 'CoupResolved', { roundNo: 1, shoeNo: 3, outcome: 'banker', ...totals });
    served(4, 'CoupResolved', { roundNo: 2, shoeNo: 3, outcome: 'player', ...totals });
    expect(feed.current.amendments).toBe(0);
    served(5, 'SettledCoupCorrected', {
      roundNo: 2,
      shoeNo: 3,
      outcome: 'tie',
      natural: true,
      playerTotal: 6,
      bankerTotal: 6,
    });
    expect(feed.current.road).toEqual([
      { roundNo: 1, outcome: 'banker', ...totals },
      { roundNo: 2, outcome: 'tie', natural: true, playerTotal: 6, bankerTotal: 6 },
    ]);
    expect(feed.current.amendments).toBe(1);
    expect(feed.current.amendedAt).toBe('x');
    served(6, 'SettledCoupVoided', { roundNo: 2, shoeNo: 3, at: 'y' });
    expect(feed.current.amendedAt).toBe('y');
    expect(feed.current.road.map((r) => r.roundNo)).toEqual([1]);
    expect(feed.current.roadVoided).toEqual([2]);
    expect(feed.current.amendments).toBe(2);
    // a coup the console did not see resolve (it subscribed later), corrected: laid on the road in round order
    served(7, 'SettledCoupCorrected', { roundNo: 0, shoeNo: 3, outcome: 'player', ...totals });
    expect(feed.current.road.map((r) => `${r.roundNo}${r.outcome}`)).toEqual(['0player', '1banker']);
    // the previous shoe's last coup, amended after the next shoe started: not on this shoe's road, but re-read
    served(8, 'ShoeStarted', { shoeNo: 4 });
    served(9, 'CoupResolved', { roundNo: 3, shoeNo: 4, outcome: 'banker', ...totals });
    served(10, 'SettledCoupVoided', { roundNo: 1, shoeNo: 3 });
    expect(feed.current.road.map((r) => r.roundNo)).toEqual([3]);
    expect(feed.current.roadVoided).toEqual([]);
    expect(feed.current.amendments).toBe(4);
    expect(feed.current.amendedAt).toBeNull(); // nothing of this shoe amended
  });

  it('closes its socket and schedules nothing once disposed', () => {
    const { feed, sockets, timers } = setup();
    feed.start();
    feed.dispose();
    expect(sockets[0]!.closed).toBe(true);
    sockets[0]!.drop();
    expect(timers).toHaveLength(0);
  });
});

describe('TableFeed on the coalesced stream', () => {
  const roundView = (roundNo: number, totals: Record<string, number>, bettors: number) =>
    ({
      tableId: 'T1',
      phase: 'betting',
      roundNo,
      round: { roundNo, status: 'betting', bets: { totals, bettors, players: [] } },
    }) as unknown as TableView;
  const bets = (revision: number, roundNo: number, banker: number, bettors: number) => ({
    type: 'bets',
    tableId: 'T1',
    revision,
    roundNo,
    totals: { player: 0, banker, tie: 0 },
    bettors,
  });

  /** A feed following T1, its view of round 3 at revision 7 with no bets yet. */
  const live = () => {
    const rig = setup();
    rig.feed.start();
    const s = rig.sockets[0]!;
    s.open();
    s.serve({
      type: 'view',
      tableId: 'T1',
      revision: 7,
      view: roundView(3, { player: 0, banker: 0, tie: 0 }, 0),
    });
    return { ...rig, s };
  };

  it("shows a totals frame's figures at once, moves the revision, and re-reads the view after", async () => {
    const { feed, s, reads, runTimers, flush } = live();
    s.serve(bets(12, 3, 2500, 4));
    expect(feed.current.view?.round?.bets).toEqual({
      totals: { player: 0, banker: 2500, tie: 0 },
      bettors: 4,
      players: [],
    });
    expect(feed.current.revision).toBe(12);
    expect(feed.current.log).toEqual([]); // totals are not events
    runTimers();
    expect(reads).toHaveLength(1);
    reads[0]!.resolve(roundView(3, { player: 0, banker: 2500, tie: 0 }, 4));
    await flush();
    expect(feed.current.view?.round?.bets.bettors).toBe(4);
  });

  it('drops a read answered before the totals, and ignores totals older than what it has or of another round', async () => {
    const { feed, s, reads, flush } = live();
    void feed.refresh(); // a read in flight from before the totals
    s.serve(bets(9, 3, 500, 1));
    reads[0]!.resolve(roundView(3, { player: 0, banker: 0, tie: 0 }, 0));
    await flush();
    expect(feed.current.view?.round?.bets.bettors).toBe(1);
    s.serve(bets(8, 3, 100, 9));
    s.serve(bets(10, 2, 100, 9));
    expect(feed.current.view?.round?.bets.bettors).toBe(1);
    expect(feed.current.revision).toBe(10);
  });
});
