/**
 * The chaos scenario of issue 14, shared by the CI test (../chaos.e2e.spec.ts) and `npm run chaos`
 * (tools/chaos/chaos.ts). Two service processes on one SQLite store (A folds the read models, B runs with
 * COUP_PROJECTIONS=off); players betting with Idempotency-Keys and retrying through either process; an admin
 * buying in and cashing out; a dealer opening, closing, dealing and now and then voiding rounds (open or just settled); WebSocket
 * watchers resuming with `fromRevision`; kill -9 of a random process every few seconds with a restart on the same
 * port and data folder; one SIGSTOP. Then the invariants (docs/reliability.md), from the raw events.
 * Every choice comes from a PRNG seeded with `seed`; timing varies from run to run, the invariants must not.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signToken } from '@coup/auth';
import { GAME_MODES, SIDE_SPOTS, isSideSpot, sideBetRefusal } from '@coup/engine';
import { createEventStore, type ReadSnapshot, readSnapshots, type RecordedEvent } from '@coup/event-store';
import type { Actor, TableCommandType } from '@coup/table';
import { snapshotData, snapshotState } from '../../src/tables/snapshots';
import { checkAgainstFold, checkCommands, foldMoney, viewAt, type AtRevision } from './checks';
import { ChaosClient, request } from './http';
import { Journal, type KeyRecord, type Violation } from './journal';
import { ONE_ADDRESS_FLOOR, ServiceNode, unusedPort } from './nodes';
import { checkLedgers, checkRebuild, checkStats, readSideCaughtUp } from './readside';
import { jsonDiff, maskSealed, Rng, sameJson, sleep } from './util';
import { Watcher, type Viewer } from './watchers';

export interface ChaosOptions {
  /** How long the load and the faults last (the checks follow). */
  readonly seconds: number;
  readonly seed: number;
  readonly players: number;
  readonly watchers: number;
  /** A process is killed every this many ms (drawn from the range). */
  readonly killEveryMs: readonly [number, number];
  /** ... and restarted this long after. */
  readonly restartAfterMs: readonly [number, number];
  /** One SIGSTOP of this long, at a random time in the middle third of the run (0: none). */
  readonly pauseMs: number;
  /** COUP_SNAPSHOT_EVERY of both processes (small, so that many snapshots are taken and checked). */
  readonly snapshotEvery: number;
  /** A player waits this long between commands (drawn from the range). */
  readonly thinkMs: readonly [number, number];
  /** A round stays open for bets this long (drawn from the range). */
  readonly bettingMs: readonly [number, number];
  /** A request without an answer after this long is abandoned and retried. */
  readonly timeoutMs: number;
  /** Acknowledged commands repeated at the end (after every restart), each must get its first answer. */
  readonly repeatAtEnd: number;
  /** The built service (apps/table-service/dist/main.js). */
  readonly main: string;
  readonly secret: string;
  /** Keep the data folder (its path is in the summary). */
  readonly keepData?: boolean;
  readonly log?: (line: string) => void;
}

export const DEFAULT_CHAOS: Omit<ChaosOptions, 'main' | 'secret'> = {
  seconds: 60,
  seed: 14,
  players: 50,
  watchers: 20,
  killEveryMs: [2000, 5000],
  restartAfterMs: [200, 1500],
  pauseMs: 3000,
  snapshotEvery: 20,
  thinkMs: [30, 150],
  bettingMs: [400, 1500],
  timeoutMs: 2500,
  repeatAtEnd: 200,
};

export interface ChaosSummary {
  readonly ok: boolean;
  readonly seed: number;
  readonly seconds: number;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly dataDir: string | null;
  /** Seconds each part took: setup, load (with the faults), repeats, checks, readSide, rebuild. */
  readonly phases: Record<string, number>;
  readonly counts: Record<string, number>;
  /** Invariant -> how often it was violated, with the first examples. Empty when the run passed. */
  readonly violations: Record<string, Violation>;
}

const TABLE = 'CHAOS';

/**
 * The chaos table: one deck, the game mode of the seed (seed mod 3: commission, no-commission, ez), every side bet
 * that mode offers, and chips of 25 cents so that fractional payouts (0.54:1, 1.5:1, a banker 6's 1:2) round.
 */
export function chaosRules(seed: number) {
  const game = GAME_MODES[seed % GAME_MODES.length]!;
  const sideBets = SIDE_SPOTS.filter(
    (spot) => sideBetRefusal(spot, { game, shuffle: 'shoe', decks: 1 }) === null,
  );
  return {
    dealing: 'rng',
    decks: 1,
    game,
    chips: [25, 100, 500, 2500, 10_000],
    sideBets: Object.fromEntries(sideBets.map((spot) => [spot, {}])),
  };
}

type Role = Actor['role'];

export async function runChaos(o: ChaosOptions): Promise<ChaosSummary> {
  const log = o.log ?? (() => undefined);
  const startedAt = new Date().toISOString();
  /** Seconds each part of the run took. */
  const phases: Record<string, number> = {};
  let phaseStart = performance.now();
  const phase = (name: string, line: string) => {
    const now = performance.now();
    phases[name] = Math.round((now - phaseStart) / 100) / 10;
    phaseStart = now;
    log(line);
  };
  const dir = mkdtempSync(join(tmpdir(), 'coup-chaos-'));
  const journal = new Journal();
  const token = (role: Role, sub: string) => signToken(o.secret, { sub, role });
  const admin = token('admin', 'cashier-1');
  const dealer = token('dealer', 'dealer-1');
  const tokens = new Map<string, string>([
    ['admin', admin],
    ['dealer', dealer],
    ['supervisor', token('supervisor', 'pitboss-1')],
  ]);
  /** The token of a command's actor (`player:<id>` for players). */
  const tokenOf = (actor: string) => {
    let t = tokens.get(actor);
    if (t === undefined) tokens.set(actor, (t = token('player', actor.slice('player:'.length))));
    return t;
  };
  const env = {
    ...ONE_ADDRESS_FLOOR,
    COUP_DATA_DIR: dir,
    COUP_JWT_SECRET: o.secret,
    // The key that seals unrevealed seeds at rest, one per run (a service that does not seal them ignores it).
    COUP_SEED_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    COUP_SNAPSHOT_EVERY: String(o.snapshotEvery),
    COUP_DOCS_UI: 'false',
  };
  const a = new ServiceNode('A', await unusedPort(), o.main, env);
  const b = new ServiceNode('B', await unusedPort(), o.main, { ...env, COUP_PROJECTIONS: 'off' });
  const nodes = [a, b];
  let deadline = Infinity;
  const stopping = () => performance.now() >= deadline;
  const client = new ChaosClient({ nodes, journal, timeoutMs: o.timeoutMs, stopping });
  const players = Array.from({ length: o.players }, (_, i) => `p${String(i).padStart(2, '0')}`);
  const watchers: Watcher[] = [];
  /** What the processes said the table was at a revision (views, snapshots), checked against the fold. */
  const claims: AtRevision[] = [];
  try {
    await a.start();
    await b.start();
    log(`A ${a.url}, B ${b.url}, data ${dir}`);

    // The table and the players' first buy-ins.
    /** Records a new keyed command and sends it. */
    const send = (
      rng: Rng,
      command: Omit<KeyRecord, 'repeats' | 'firstSentAt' | 'ok' | 'refusals' | 'unanswered' | 'body'> & {
        body?: Record<string, unknown>;
      },
    ) => {
      const rec = journal.record({ ...command, body: command.body });
      return client.send(rng, tokenOf(rec.actor), rec).then((answer) => ({ rec, answer }));
    };
    const rules = chaosRules(o.seed);
    const sideSpots = Object.keys(rules.sideBets);
    log(`a ${rules.game} table with side bets ${sideSpots.join(', ')}`);
    const opened = await send(Rng.derive(o.seed, 'open'), {
      key: 'open-table',
      actor: 'admin',
      type: 'OpenTable',
      method: 'POST',
      path: '/api/tables',
      body: { tableId: TABLE, rules },
      player: null,
      roundNo: null,
    });
    if (opened.answer?.status !== 201)
      throw new Error(`the table did not open: ${JSON.stringify(opened.answer)}`);
    const buyIn = (rng: Rng, key: string, p: string, amount: number) =>
      send(rng, {
        key,
        actor: 'admin',
        type: 'BuyIn',
        method: 'POST',
        path: `/api/tables/${TABLE}/players/${p}/buy-in`,
        body: { amount },
        player: p,
        roundNo: null,
      });
    for (let i = 0; i < players.length; i += 10)
      await Promise.all(
        players
          .slice(i, i + 10)
          .map((p) => buyIn(Rng.derive(o.seed, `buy-in-${p}`), `buy-in-${p}-first`, p, 1_000_000)),
      );

    const viewers: Viewer[] = [
      { id: 'dealer-1', role: 'dealer' },
      { id: 'compliance-1', role: 'compliance' },
      { id: 'analyst-1', role: 'analyst' },
      { id: 'pitboss-1', role: 'supervisor' },
      { id: 'cashier-1', role: 'admin' },
    ];
    for (let i = 0; i < o.watchers; i++) {
      const viewer = viewers[i % viewers.length]!;
      const w = new Watcher(
        `w${i}`,
        viewer,
        token(viewer.role, viewer.id),
        TABLE,
        nodes,
        Rng.derive(o.seed, `watcher-${i}`),
        journal,
      );
      watchers.push(w);
      w.start();
    }

    deadline = performance.now() + o.seconds * 1000;
    phase('setup', `load and faults for ${o.seconds} s`);

    /** The round the dealer has open for bets (the players bet on it), or null. */
    let bettingRound: number | null = null;

    const dealerLoop = async () => {
      const rng = Rng.derive(o.seed, 'dealer');
      let n = 0;
      const command = async (
        type: TableCommandType,
        path: string,
        roundNo: number | null,
        actor = 'dealer',
        body: Record<string, unknown> = {},
      ) => {
        const { answer } = await send(rng, {
          key: `dealer-${n++}`,
          actor,
          type,
          method: 'POST',
          path: `/api/tables/${TABLE}${path}`,
          body,
          player: null,
          roundNo,
        });
        // A refusal: read the table again, a little later.
        if (answer && answer.status >= 300) await sleep(50);
        return answer;
      };
      while (!stopping()) {
        const read = await client.read(rng, dealer, `/api/tables/${TABLE}`);
        if (!read) continue;
        const { revision, ...view } = read.body as {
          revision: number;
          phase: string;
          round: { roundNo: number };
        };
        claims.push(
          viewAt(
            revision,
            view,
            { id: 'dealer-1', role: 'dealer' },
            'a table view the dealer read',
            'view-consistent',
          ),
        );
        const round = view.round?.roundNo ?? null;
        if (view.phase === 'idle') await command('StartShoe', '/shoes', null);
        else if (view.phase === 'ready') {
          const answer = await command('OpenBetting', '/rounds', null);
          if (answer?.status === 201) bettingRound = (answer.body as { roundNo: number }).roundNo;
        } else if (view.phase === 'betting' && round !== null) {
          bettingRound = round;
          await sleep(rng.int(o.bettingMs[0], o.bettingMs[1]));
          bettingRound = null;
          if (rng.chance(0.05))
            await command('VoidRound', `/rounds/${round}/void`, round, 'supervisor', {
              reason: 'chaos: a void',
            });
          else await command('CloseBetting', `/rounds/${round}/close`, round);
        } else if (view.phase === 'dealing' && round !== null) {
          const dealt = await command('Deal', `/rounds/${round}/deal`, round);
          // Now and then a supervisor voids the coup just settled (its settlement reversed, stakes returned); a
          // player who cashed out since makes it refused (CORRECTION_CONFLICT).
          if (dealt?.status === 201 && rng.chance(0.1))
            await command('VoidRound', `/rounds/${round}/void`, round, 'supervisor', {
              reason: 'chaos: a settled coup voided',
            });
        } else await sleep(100);
      }
    };

    const playerLoop = async (p: string) => {
      const rng = Rng.derive(o.seed, p);
      const actor = `player:${p}`;
      const acknowledged: KeyRecord[] = [];
      /** The side the player backs in a round (now and then the other one too: refused, PLAYER_AND_BANKER). */
      let side = { round: 0, spot: 'player' };
      for (let n = 0; !stopping();) {
        await sleep(rng.int(o.thinkMs[0], o.thinkMs[1]));
        if (acknowledged.length > 0 && rng.chance(0.04)) {
          // A client that did not see its answer sends the same command again, later.
          const again = rng.pick(acknowledged);
          again.repeats++;
          journal.count('repeats.duringRun');
          await client.send(rng, tokenOf(actor), again);
          continue;
        }
        const round = bettingRound;
        if (round === null) continue;
        const r = rng.next();
        const base = `/api/tables/${TABLE}/rounds/${round}`;
        if (side.round !== round) side = { round, spot: rng.pick(['player', 'banker']) };
        const other = side.spot === 'player' ? 'banker' : 'player';
        // A quarter of the bets on a side bet (25-cent amounts: fractional payouts round), a few on a side bet
        // the table does not offer (refused, SPOT_NOT_OFFERED).
        const onSide = rng.chance(0.25);
        const spot = onSide
          ? rng.chance(0.04)
            ? rng.pick(SIDE_SPOTS.filter((s) => !sideSpots.includes(s)).concat(['dragon7']))
            : rng.pick(sideSpots)
          : rng.chance(0.15)
            ? 'tie'
            : rng.chance(0.03)
              ? other
              : side.spot;
        const amount = onSide ? 25 * rng.int(4, 40) : 100 * rng.int(1, 20);
        const common = { key: `${p}-${n++}`, actor, player: p, roundNo: round };
        const { rec, answer } = await send(
          rng,
          r < 0.85
            ? {
                ...common,
                type: 'PlaceBet',
                method: 'POST',
                path: `${base}/bets`,
                body: { playerId: p, spot, amount },
              }
            : r < 0.93
              ? { ...common, type: 'ClearBets', method: 'DELETE', path: `${base}/bets/${p}` }
              : { ...common, type: 'Rebet', method: 'POST', path: `${base}/rebet`, body: { playerId: p } },
        );
        if (answer && answer.status < 300) acknowledged.push(rec);
      }
    };

    const adminLoop = async () => {
      const rng = Rng.derive(o.seed, 'admin');
      const away = new Set<string>();
      for (let n = 0; !stopping(); n++) {
        await sleep(rng.int(200, 800));
        if (away.size > 0 && rng.chance(0.5)) {
          const p = rng.pick([...away].sort());
          const { answer } = await buyIn(rng, `admin-${n}`, p, 100 * rng.int(1000, 5000));
          if (answer?.status === 200) away.delete(p);
        } else if (rng.chance(0.2)) {
          const p = rng.pick(players);
          const { answer } = await send(rng, {
            key: `admin-${n}`,
            actor: 'admin',
            type: 'CashOut',
            method: 'POST',
            path: `/api/tables/${TABLE}/players/${p}/cash-out`,
            player: p,
            roundNo: null,
          });
          if (answer?.status === 200) away.add(p);
        } else await buyIn(rng, `admin-${n}`, rng.pick(players), 100 * rng.int(100, 2000));
      }
    };

    const faults = async () => {
      const rng = Rng.derive(o.seed, 'faults');
      const pauseAt = performance.now() + o.seconds * 1000 * (1 / 4 + rng.next() / 4);
      let paused = o.pauseMs <= 0;
      for (;;) {
        const wait = rng.int(o.killEveryMs[0], o.killEveryMs[1]);
        await sleep(Math.max(0, Math.min(wait, deadline - performance.now())));
        if (stopping()) return;
        const node = rng.pick(nodes);
        // The SIGSTOP comes in the middle of the run, or at the latest while there is time left for it.
        const late = deadline - performance.now() < o.pauseMs + o.killEveryMs[1];
        if (!paused && (performance.now() >= pauseAt || late)) {
          paused = true;
          log(`SIGSTOP ${node.name} for ${o.pauseMs} ms`);
          node.pause();
          journal.count('faults.sigstop');
          await sleep(o.pauseMs);
          node.resume();
          continue;
        }
        log(`kill -9 ${node.name}`);
        await node.kill();
        journal.count('faults.kill9');
        await sleep(rng.int(o.restartAfterMs[0], o.restartAfterMs[1]));
        await restart(node);
      }
    };

    const restart = async (node: ServiceNode) => {
      for (let attempt = 1; ; attempt++) {
        try {
          await node.start();
          journal.count('faults.restarts');
          return;
        } catch (error) {
          journal.violation(
            'process-restarts',
            `${node.name} (attempt ${attempt}): ${(error as Error).message}\n${node.output().slice(-2000)}`,
          );
          if (attempt === 3) throw error;
        }
      }
    };

    // A failed restart ends the run at once (the actors stop at their next step).
    const outcomes = await Promise.allSettled([
      faults().catch((error: unknown) => {
        deadline = 0;
        throw error;
      }),
      dealerLoop(),
      adminLoop(),
      ...players.map(playerLoop),
    ]);
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
    phase('load', 'load over: repeats of acknowledged commands');

    // Acknowledged commands sent again after all the restarts: each must get its first answer.
    const repeatRng = Rng.derive(o.seed, 'repeat');
    const acked = [...journal.keys.values()].filter((k) => k.ok !== null);
    const sample = Array.from({ length: Math.min(o.repeatAtEnd, acked.length) }, () => repeatRng.pick(acked));
    const repeatsUntil = performance.now() + 30_000;
    const patient = new ChaosClient({
      nodes,
      journal,
      timeoutMs: o.timeoutMs,
      stopping: () => performance.now() > repeatsUntil,
    });
    for (let i = 0; i < sample.length; i += 10)
      await Promise.all(
        sample.slice(i, i + 10).map((rec) => {
          rec.repeats++;
          journal.count('repeats.atEnd');
          return patient.send(repeatRng, tokenOf(rec.actor), rec);
        }),
      );

    // The truth: the raw events, read-only.
    const store = createEventStore({ kind: 'sqlite', file: join(dir, 'events.sqlite'), readonly: true });
    const events: RecordedEvent[] = [];
    for await (const e of store.readStream(`table-${TABLE}`)) events.push(e);
    const snapshots: ReadSnapshot[] = [];
    for await (const snap of readSnapshots(store, `tablesnapshot-${TABLE}`)) snapshots.push(snap);
    const headPosition = Number((await store.headPosition()) ?? 0n);
    const head = events.length - 1;
    journal.count('events', events.length);
    for (const e of events)
      if (e.type === 'CoupResolved')
        for (const st of (e.data as { settlements: { spot: string }[] }).settlements)
          if (isSideSpot(st.spot)) journal.count('sideBets.settled');
    journal.count('snapshots', snapshots.length);
    phase('repeats', `${events.length} events, ${snapshots.length} snapshots; checking`);

    // The table as each process shows it now (within a few seconds): exactly the fold of the whole stream.
    const adminViewer: Viewer = { id: 'cashier-1', role: 'admin' };
    for (const node of nodes) {
      const until = performance.now() + 5000;
      for (;;) {
        const answer = await request(node.url, 'GET', `/api/tables/${TABLE}`, admin);
        const { revision, ...view } = (answer?.body ?? {}) as { revision: number };
        const atHead = answer?.status === 200 && revision === head;
        if (atHead || performance.now() > until) {
          // The last view read is checked against the fold at the revision it names (the head, or a violation).
          if (answer?.status === 200)
            claims.push(
              viewAt(revision, view, adminViewer, `${node.name}'s view at the end`, 'table-view-exact'),
            );
          if (!atHead)
            journal.violation(
              'table-view-exact',
              `${node.name} shows revision ${revision} (${answer?.status ?? 'no answer'}), the log's head is ${head}`,
            );
          break;
        }
        await sleep(200);
      }
    }

    // Every watcher reaches the head.
    const watchDeadline = performance.now() + 60_000;
    while (watchers.some((w) => w.last !== head) && performance.now() < watchDeadline) await sleep(100);
    for (const w of watchers) {
      await w.stop();
      if (w.last !== head)
        journal.violation('watcher-gapless', `${w.name} stopped at ${w.last}, the head is ${head}`);
      journal.count('watchers.connections', w.connections);
      journal.count('watchers.resumes', w.resumes);
      journal.count('watchers.viewResets', w.viewResets);
      journal.count('watchers.events', w.revisions.length);
      w.revisions.forEach((r, i) => {
        if (events[r]?.type !== w.types[i])
          journal.violation(
            'watcher-gapless',
            `${w.name}: event ${r} pushed as ${w.types[i]}, the log has ${events[r]?.type}`,
          );
      });
      for (const v of w.views)
        claims.push(viewAt(v.revision, v.view, w.viewer, `${w.name}'s view frame`, 'view-consistent'));
    }

    // Money: the events, then every other place it shows.
    const { accounts, totals } = foldMoney(events, journal);
    for (const s of snapshots) {
      const data = snapshotData(s);
      const stored = data && snapshotState(data);
      if (typeof data?.revision !== 'string' || !stored) {
        const why = s.ok ? 'has no revision or state' : `is discarded: ${s.reason}`;
        journal.violation('snapshot-exact', `snapshot ${s.revision} ${why}`);
        continue;
      }
      claims.push({
        revision: Number(data.revision),
        what: `snapshot ${s.revision}`,
        invariant: 'snapshot-exact',
        check: (state) => {
          const [kept, folded] = maskSealed(stored, state);
          return sameJson(kept, folded) ? null : `its state differs from the fold: ${jsonDiff(kept, folded)}`;
        },
      });
    }
    const final = checkAgainstFold(events, claims, journal);
    for (const [p, account] of accounts) {
      const seated = final.players.find((x) => x.playerId === p);
      if ((seated?.chips ?? 0) !== account.chips)
        journal.violation(
          'money-exact-in-events',
          `${p}: the decider's fold says ${seated?.chips ?? 0}, the money fold ${account.chips}`,
        );
    }
    checkCommands(events, journal);
    journal.checkRefusalsAgainstFacts();
    for (const stream of [`table-${TABLE}`, `tablesnapshot-${TABLE}`]) {
      const verification = await store.verifyStream(stream);
      if (!verification.ok)
        journal.violation(
          'hash-chain',
          `${stream}: ${JSON.stringify(verification, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
        );
    }

    phase('checks', 'read side');
    const caught = await readSideCaughtUp(a, admin, headPosition, 60_000);
    if (!caught.ok)
      journal.violation(
        'read-side-caught-up',
        `checkpoints ${JSON.stringify(caught.checkpoints)}, the log's head is ${headPosition}`,
      );
    await checkLedgers(nodes, admin, TABLE, accounts, journal);
    await checkStats(nodes, admin, TABLE, totals, journal);

    for (const node of nodes) {
      const t = performance.now();
      const code = await node.terminate();
      const took = Math.round(performance.now() - t);
      if (code !== 0)
        journal.violation(
          'graceful-shutdown',
          `${node.name} exited with ${code} ${took} ms after SIGTERM\n${node.output().slice(-2000)}`,
        );
    }
    phase('readSide', 'shut down; rebuilding the read models');
    await checkRebuild(store, join(dir, 'read-models.sqlite'), dir, journal);
    await store.close();
    phase('rebuild', 'done');
    countKeys(journal);
  } catch (error) {
    journal.violation('scenario-completed', String((error as Error).stack ?? error));
  } finally {
    deadline = 0;
    for (const w of watchers) await w.stop();
    for (const node of nodes) await node.kill();
    if (!o.keepData) rmSync(dir, { recursive: true, force: true });
  }
  minimumExercise(journal, o);
  const violations = journal.violationSummary();
  return {
    ok: Object.keys(violations).length === 0,
    seed: o.seed,
    seconds: o.seconds,
    startedAt,
    finishedAt: new Date().toISOString(),
    dataDir: o.keepData ? dir : null,
    phases,
    counts: Object.fromEntries(Object.entries(journal.counts).sort(([x], [y]) => (x < y ? -1 : 1))),
    violations,
  };
}

/** Commands sent, acknowledged, refused and left without an answer, by type. */
function countKeys(j: Journal): void {
  for (const rec of j.keys.values()) {
    j.count(`commands.${rec.type}.sent`);
    if (rec.ok) j.count(`commands.${rec.type}.acknowledged`);
    else if (rec.refusals.length > 0) j.count(`commands.${rec.type}.refused`);
    else j.count(`commands.${rec.type}.unanswered`);
  }
}

/** A run that did not exercise what it claims to check cannot pass: so few bets or faults is a violation too. */
function minimumExercise(j: Journal, o: ChaosOptions): void {
  const c = j.counts;
  const expect = (what: string, got: number, least: number) => {
    if (got < least) j.violation('scenario-exercised', `${what}: ${got}, expected at least ${least}`);
  };
  // Low bars (a busy machine runs slower): they tell a run that did nothing from one that did.
  expect('bets acknowledged', c['commands.PlaceBet.acknowledged'] ?? 0, 2 * o.seconds);
  expect('side bets settled', c['sideBets.settled'] ?? 0, Math.floor(o.seconds / 2));
  expect('coups dealt', c['commands.Deal.acknowledged'] ?? 0, Math.floor(o.seconds / 20));
  expect('kill -9', c['faults.kill9'] ?? 0, 1);
  expect('SIGSTOP', c['faults.sigstop'] ?? 0, o.pauseMs > 0 ? 1 : 0);
  expect('watcher resumes', c['watchers.resumes'] ?? 0, o.watchers);
  expect('repeats at the end', c['repeats.atEnd'] ?? 0, Math.min(o.repeatAtEnd, 1));
}
