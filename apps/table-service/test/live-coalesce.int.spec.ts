/**
 * The coalesced live push, as a property over random tables (fast-check): players bet, clear and rebet (taken or
 * refused), the dealer closes, deals and opens, players buy in and cash out, and time passes now and then; staff and
 * players watch, one player drops and resumes. Then:
 * - every `bets` frame's totals per spot and bettors equal the sum of the bets accepted up to its revision (folded
 *   from the store by a model of its own);
 * - no table event is reordered or coalesced away: a coalesced staff watcher gets every event but bets, in order; a
 *   staff watcher that asked for every event gets every one; frames never go back in revision;
 * - a player gets exactly what `redactEvent` gives it of each event (its own bets, chips and settlements, no other
 *   player's), and no frame names another player;
 * - every watcher's state, folded from its frames (a resuming one's too), equals a fresh view of the table.
 */
import fc from 'fast-check';
import type { RecordedEvent } from '@coup/event-store';
import { redactEvent, type Role, type TableEvent } from '@coup/table';
import { cmd, liveRig, settle, type FakeSocket, type LiveRig, type Sent } from './live-fake';
import { applyFrame, seenInView, type Seen } from './live-fold';

const COALESCE_MS = 10;
const TABLE = 'T';
const PLAYERS = ['p1', 'p2', 'p3', 'p4'] as const;
const SPOTS = ['player', 'banker', 'tie', 'playerPair'] as const;
const dealer = { id: 'd1', role: 'dealer' as Role };
const admin = { id: 'a1', role: 'admin' as Role };

type Step =
  | { readonly kind: 'bet'; readonly p: string; readonly spot: string; readonly amount: number }
  | { readonly kind: 'clear' | 'rebet' | 'buyIn' | 'cashOut'; readonly p: string }
  | { readonly kind: 'close' | 'deal' | 'open' | 'void' | 'pause' | 'drop' };

const player = fc.constantFrom(...PLAYERS);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('bet' as const),
      p: player,
      spot: fc.constantFrom(...SPOTS),
      amount: fc.constantFrom(100, 500, 2500, 3000, 10_000_000),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constantFrom('clear' as const, 'rebet' as const), p: player }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constantFrom('buyIn' as const, 'cashOut' as const), p: player }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constantFrom('close' as const, 'deal' as const, 'open' as const) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('pause' as const, 'drop' as const) }) },
);

/** The model: each player's stakes in the current round, folded from the events on their own. */
interface Model {
  roundNo: number | null;
  stakes: Map<string, Map<string, number>>;
}

function modelsByRevision(
  events: readonly RecordedEvent[],
): Map<number, { roundNo: number | null; totals: Record<string, number>; bettors: number }> {
  const m: Model = { roundNo: null, stakes: new Map() };
  const out = new Map<number, { roundNo: number | null; totals: Record<string, number>; bettors: number }>();
  for (const e of events) {
    const event = { type: e.type, data: e.data } as TableEvent;
    if (event.type === 'BettingOpened') {
      m.roundNo = event.data.roundNo;
      m.stakes = new Map();
    } else if (event.type === 'BetPlaced') {
      const own = m.stakes.get(event.data.playerId) ?? new Map<string, number>();
      own.set(event.data.spot, (own.get(event.data.spot) ?? 0) + event.data.amount);
      m.stakes.set(event.data.playerId, own);
    } else if (event.type === 'BetsCleared') {
      m.stakes.delete(event.data.playerId);
    } else if (event.type === 'PlayerCashedOut' && event.data.commissionOwed === 0) {
      m.stakes.delete(event.data.playerId); // the player leaves the table, and its stakes the layout's totals
    }
    const totals: Record<string, number> = {};
    let bettors = 0;
    for (const own of m.stakes.values()) {
      let sum = 0;
      for (const [spot, amount] of own) {
        totals[spot] = (totals[spot] ?? 0) + amount;
        sum += amount;
      }
      if (sum > 0) bettors++;
    }
    out.set(Number(e.streamRevision), { roundNo: m.roundNo, totals, bettors });
  }
  return out;
}

const staked = (totals: Record<string, number> = {}) =>
  Object.fromEntries(Object.entries(totals).filter(([, v]) => v > 0));

async function run(rig: LiveRig, steps: readonly Step[]): Promise<void> {
  const { tables } = rig;
  const exec = (type: Parameters<typeof cmd>[0], data: object, actor: { id: string; role: Role }) =>
    tables.execute(TABLE, cmd(type, data, actor)).catch(() => undefined); // a refusal records nothing
  const roundNo = async () => (await tables.state(TABLE)).roundNo;
  for (const s of steps) {
    switch (s.kind) {
      case 'bet':
        await exec(
          'PlaceBet',
          { roundNo: await roundNo(), playerId: s.p, spot: s.spot, amount: s.amount },
          { id: s.p, role: 'player' },
        );
        break;
      case 'clear':
        await exec('ClearBets', { roundNo: await roundNo(), playerId: s.p }, { id: s.p, role: 'player' });
        break;
      case 'rebet':
        await exec('Rebet', { roundNo: await roundNo(), playerId: s.p }, { id: s.p, role: 'player' });
        break;
      case 'buyIn':
        await exec('BuyIn', { playerId: s.p, amount: 50_000 }, admin);
        break;
      case 'cashOut':
        await exec('CashOut', { playerId: s.p }, admin);
        break;
      case 'close':
        await exec('CloseBetting', { roundNo: await roundNo() }, dealer);
        break;
      case 'deal':
        await exec('Deal', { roundNo: await roundNo() }, dealer);
        break;
      case 'open':
        await exec('OpenBetting', {}, dealer);
        break;
      case 'void':
        await exec(
          'VoidRound',
          { roundNo: await roundNo(), reason: 'a misdeal' },
          { id: 'su1', role: 'supervisor' },
        );
        break;
      case 'pause':
        await new Promise((r) => setTimeout(r, 2 * COALESCE_MS));
        break;
      case 'drop':
        break;
    }
  }
}

interface Watcher {
  readonly socket: FakeSocket;
  readonly me: string | null;
}

const afterView = (socket: FakeSocket): Sent[] =>
  socket.sent.slice(socket.sent.findIndex((f) => f.type === 'view') + 1);

/** Frames never go back in revision; events strictly forward. */
function expectInOrder(frames: readonly Sent[]): void {
  let last = -1;
  let lastEvent = -1;
  for (const f of frames) {
    if (f.revision === undefined) continue;
    expect(f.revision).toBeGreaterThanOrEqual(last);
    last = f.revision;
    if (f.type === 'event') {
      expect(f.revision).toBeGreaterThan(lastEvent);
      lastEvent = f.revision;
    }
  }
}

function fold(view: Sent, frames: readonly Sent[], me: string | null): Seen {
  return frames.reduce((seen, f) => applyFrame(seen, f, me), seenInView(view.view, me));
}

describe('the coalesced live push', () => {
  it('totals equal the accepted bets at their revision; events arrive all, in order, redacted; every state equals a fresh view', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40 }), async (steps) => {
        const rig = await liveRig({ coalesceMs: COALESCE_MS });
        try {
          await rig.tables.execute(
            TABLE,
            cmd(
              'OpenTable',
              {
                tableId: TABLE,
                rules: { dealing: 'rng', allowPlayerAndBanker: true, sideBets: { playerPair: {} } },
              },
              admin,
            ),
          );
          for (const p of PLAYERS.slice(0, 3))
            await rig.tables.execute(TABLE, cmd('BuyIn', { playerId: p, amount: 100_000 }, admin));
          await rig.tables.execute(TABLE, cmd('StartShoe', { seed: 'ab'.repeat(32) }, dealer));
          await rig.tables.execute(TABLE, cmd('OpenBetting', {}, dealer));
          const watch = (role: Role, sub: string, every = false): Watcher => {
            const socket = rig.connect(role, sub);
            socket.message({ type: 'subscribe', tableId: TABLE, ...(every ? { every } : {}) });
            return { socket, me: role === 'player' ? sub : null };
          };
          const staff = watch('dealer', 'd1');
          const every = watch('supervisor', 's1', true);
          const players = [watch('player', 'p1'), watch('player', 'p2'), watch('player', 'p4')];
          const resumer = watch('player', 'p3');
          const all = [staff, every, ...players, resumer];
          await settle(() => all.every((w) => w.socket.sent.some((f) => f.type === 'view')), 'the views');

          const dropAt = Math.max(
            0,
            steps.findIndex((s) => s.kind === 'drop'),
          );
          await run(rig, steps.slice(0, dropAt));
          // The resuming player's last revision: that of its last frame (or its view).
          rig.disconnect(resumer.socket);
          const lastSeen = Math.max(...resumer.socket.sent.map((f) => f.revision ?? -1));
          await run(rig, steps.slice(dropAt));

          const events = await rig.events(TABLE);
          const head = Number(events.at(-1)!.streamRevision);
          await settle(
            () => every.socket.sent.at(-1)?.revision === head,
            'the every-event watcher at the head',
          );
          await new Promise((r) => setTimeout(r, 4 * COALESCE_MS)); // the last totals are due

          const again = rig.connect('player', 'p3');
          again.message({ type: 'subscribe', tableId: TABLE, fromRevision: lastSeen });
          await settle(() => again.sent.some((f) => f.type === 'resumed'), 'the resume');

          const models = modelsByRevision(events);
          /** `live`: how many of `frames` came live (a resume's come after: its totals only at its end). */
          const check = (w: Watcher, view: Sent, frames: readonly Sent[], live = frames.length) => {
            expectInOrder(frames);
            for (const f of frames.filter((x) => x.type === 'bets')) {
              const model = models.get(f.revision!)!;
              expect({ roundNo: f.roundNo, totals: staked(f.totals), bettors: f.bettors }).toEqual({
                ...model,
                totals: staked(model.totals),
              });
            }
            // Exactly the events this watcher is to see after its view, in order.
            const expected = events
              .filter((e) => Number(e.streamRevision) > view.revision!)
              .map((e) => ({ revision: Number(e.streamRevision), event: expectedEvent(e, w) }))
              .filter((x) => x.event !== null);
            // Before each other event, a coalesced watcher knows the totals true just before it.
            if (w !== every) {
              let seen = seenInView(view.view, w.me);
              for (const f of frames.slice(0, live)) {
                if (f.type === 'event' && f.event!.type !== 'BetPlaced' && f.event!.type !== 'BetsCleared') {
                  const model = models.get(f.revision! - 1)!;
                  if (model.roundNo === seen.roundNo)
                    expect({ at: f.revision, totals: seen.totals, bettors: seen.bettors }).toEqual({
                      at: f.revision,
                      totals: staked(model.totals),
                      bettors: model.bettors,
                    });
                }
                seen = applyFrame(seen, f, w.me);
              }
            }
            const got = frames
              .filter((f) => f.type === 'event')
              .map((f) => ({ revision: f.revision, event: f.event }));
            expect(got).toEqual(expected);
          };
          const expectedEvent = (e: RecordedEvent, w: Watcher): TableEvent | null => {
            const event = { type: e.type, data: e.data } as TableEvent;
            if (w === every) return redactEvent(event);
            if (event.type === 'BetPlaced' || event.type === 'BetsCleared') {
              if (w.me === null || event.data.playerId !== w.me) return null;
            }
            return w.me === null ? redactEvent(event) : redactEvent(event, { id: w.me, role: 'player' });
          };

          const fresh = (role: Role, sub: string) => {
            const s = rig.connect(role, sub);
            s.message({ type: 'subscribe', tableId: TABLE });
            return s;
          };
          const freshStaff = fresh('analyst', 'an1');
          const freshPlayers = PLAYERS.map((p) => fresh('player', p));
          await settle(
            () => [freshStaff, ...freshPlayers].every((s) => s.sent.some((f) => f.type === 'view')),
            'fresh views',
          );
          const freshView = (me: string | null) =>
            (me === null
              ? freshStaff
              : freshPlayers[PLAYERS.indexOf(me as (typeof PLAYERS)[number])]!
            ).sent.find((f) => f.type === 'view')!;

          for (const w of [staff, every, ...players]) {
            const view = w.socket.sent.find((f) => f.type === 'view')!;
            const frames = afterView(w.socket);
            check(w, view, frames);
            if (w !== every) expect(fold(view, frames, w.me)).toEqual(seenInView(freshView(w.me).view, w.me));
          }
          // The resuming player: its frames before the drop, then those of its resume, equal a fresh view.
          const view = resumer.socket.sent.find((f) => f.type === 'view')!;
          const before = afterView(resumer.socket);
          const resumed = again.sent.filter((f) => f.type !== 'hello');
          expect(resumed.at(-1)).toMatchObject({ type: 'resumed', revision: head });
          check(resumer, view, [...before, ...resumed.slice(0, -1)], before.length);
          expect(fold(view, [...before, ...resumed], 'p3')).toEqual(seenInView(freshView('p3').view, 'p3'));

          // No frame to a player names another player.
          for (const [socket, me] of [
            ...players.map((w) => [w.socket, w.me] as const),
            [resumer.socket, 'p3'] as const,
            [again, 'p3'] as const,
          ]) {
            for (const raw of socket.raw) {
              const others = [...String(raw).matchAll(/"playerId":"([^"]+)"/g)]
                .map((m) => m[1])
                .filter((id) => id !== me);
              expect(others).toEqual([]);
            }
          }
        } finally {
          await rig.close();
        }
      }),
      {
        numRuns: 30,
        // A player who leaves after a coup takes its stakes off the layout: the totals change on a table event.
        examples: [
          [
            [
              { kind: 'bet', p: 'p1', spot: 'banker', amount: 500 },
              { kind: 'bet', p: 'p2', spot: 'player', amount: 100 },
              { kind: 'close' },
              { kind: 'deal' },
              { kind: 'pause' },
              { kind: 'cashOut', p: 'p1' },
              { kind: 'pause' },
            ],
          ],
        ],
      },
    );
  }, 120_000);
});

describe('one frame per audience', () => {
  it('staff share one frame per event, players another, a player its own; the totals are one frame for all', async () => {
    const rig = await liveRig({ coalesceMs: COALESCE_MS });
    try {
      const exec = (type: Parameters<typeof cmd>[0], data: object, actor: { id: string; role: Role }) =>
        rig.tables.execute(TABLE, cmd(type, data, actor));
      await exec('OpenTable', { tableId: TABLE, rules: { dealing: 'rng' } }, admin);
      for (const p of ['p1', 'p2', 'p3']) await exec('BuyIn', { playerId: p, amount: 100_000 }, admin);
      await exec('StartShoe', { seed: 'cd'.repeat(32) }, dealer);
      await exec('OpenBetting', {}, dealer);
      const watch = (role: Role, sub: string) => {
        const socket = rig.connect(role, sub);
        socket.message({ type: 'subscribe', tableId: TABLE });
        return socket;
      };
      const staff = [watch('dealer', 'd1'), watch('compliance', 'c1'), watch('analyst', 'a1')];
      const players = [watch('player', 'p1'), watch('player', 'p2'), watch('player', 'p3')];
      const all = [...staff, ...players];
      await settle(() => all.every((s) => s.sent.some((f) => f.type === 'view')), 'the views');
      const from = all.map((s) => s.raw.length);
      await exec(
        'PlaceBet',
        { roundNo: 1, playerId: 'p1', spot: 'banker', amount: 500 },
        { id: 'p1', role: 'player' },
      );
      await exec('CloseBetting', { roundNo: 1 }, dealer);
      await exec('Deal', { roundNo: 1 }, dealer);
      await settle(() => all.every((s) => s.sent.some((f) => f.event?.type === 'CoupResolved')), 'the coup');
      const frames = (s: FakeSocket) => s.raw.slice(from[all.indexOf(s)]);
      const typesOf = (s: FakeSocket) =>
        s.sent.slice(from[all.indexOf(s)]).map((f) => f.event?.type ?? f.type);

      // The bet reached its player at once; the others had the totals frame before betting closed.
      expect(typesOf(players[0]!)).toEqual([
        'BetPlaced',
        'bets',
        'BettingClosed',
        'CardDealt',
        'CardDealt',
        'CardDealt',
        'CardDealt',
        ...typesOf(players[0]!).slice(7),
      ]);
      for (const s of [...staff, players[1]!, players[2]!]) expect(typesOf(s)[0]).toBe('bets');
      // Every frame a staff socket got is the very buffer the other staff sockets got: serialized once.
      for (const s of staff.slice(1))
        expect(frames(s).every((b, i) => b === frames(staff[0]!)[i])).toBe(true);
      // Uninvolved players share theirs; the involved player's CoupResolved (its settlement) is its own.
      expect(frames(players[2]!).every((b, i) => b === frames(players[1]!)[i])).toBe(true);
      const coup = (s: FakeSocket) => frames(s)[typesOf(s).indexOf('CoupResolved')];
      expect(coup(players[0]!)).not.toBe(coup(players[1]!));
      expect(players[1]!.sent.find((f) => f.event?.type === 'CoupResolved')!.event!.data).toMatchObject({
        settlements: [],
      });
      // The totals: one frame for staff and players alike.
      const bets = (s: FakeSocket) => frames(s)[typesOf(s).indexOf('bets')];
      for (const s of all) expect(bets(s)).toBe(bets(staff[0]!));
    } finally {
      await rig.close();
    }
  });
});
