/**
 * A load process of bench:live: holds many WebSockets (to Coup's live push or to the bare broadcast server), sends
 * the bets it is told to, and records what arrives: acks, each bettor's own bet events, every totals frame, the
 * staff's bet events and every card, with the time they arrived. Driven by its parent over IPC (live.bench.ts);
 * its own CPU is not the server's. Run as a child process: live-clients.ts (no arguments).
 */
import WebSocket from 'ws';

export interface SocketSpec {
  readonly url: string;
  readonly tableId: string;
  /** Asks for every event (staff consoles), else the coalesced stream. */
  readonly every: boolean;
  /** The player this socket bets as, or null (a watcher). */
  readonly bettor: string | null;
}

export type Command =
  | { readonly cmd: 'open'; readonly sockets: readonly SocketSpec[] }
  | { readonly cmd: 'mark' }
  | {
      readonly cmd: 'bet';
      readonly seconds: number;
      readonly perSecond: number;
      readonly rounds: Record<string, number>;
    }
  | {
      readonly cmd: 'round';
      readonly tableId: string;
      readonly roundNo: number;
      readonly bettors: readonly string[];
      readonly spreadMs: number;
    }
  | { readonly cmd: 'accepted' }
  | { readonly cmd: 'results'; readonly bets: readonly Accepted[] }
  | { readonly cmd: 'close' };

/** A bet the service accepted: its table, revision and when it was recorded (ms since the epoch). */
export type Accepted = readonly [tableId: string, revision: number, at: number];

interface Conn {
  readonly spec: SocketSpec;
  readonly ws: WebSocket;
  /** Totals frames: [revision, arrival]. */
  readonly totals: [number, number][];
  /** This bettor's own BetPlaced events, in order: [revision, recorded at]. */
  readonly own: [number, number][];
  readonly sentAt: Map<string, number>;
  /** The bettor's id and the closing quote, as bytes (null: a watcher). */
  readonly bettorId: Buffer | null;
  ready: boolean;
}

/** Wall-clock ms: what the server's recorded times are in (performance.timeOrigin + now() drifts from it here). */
const now = (): number => Date.now();
const conns: Conn[] = [];
const byPlayer = new Map<string, Conn>();
/** [sent, acked, status] of each bet. */
const acks: [number, number, number][] = [];
const staffDelays: number[] = [];
const cardDelays: number[] = [];
/** The latest arrival of each card (`table:revision`) over this process's sockets, after it was recorded. */
const cardLatest = new Map<string, number>();
const counts = { frames: 0, bytes: 0, closes: 0, tooSlow: 0 };
const samples: Record<string, string> = {};
let betSeq = 0;

function reply(message: unknown): void {
  process.send?.(message);
}

/**
 * The frames that come by the hundred thousand (totals, other bets, cards) are read by their fields' places in the
 * bytes, without decoding or parsing the whole frame: this process must not be what the timings measure.
 */
const bytes = (s: string) => Buffer.from(s);
const BETS = bytes('{"type":"bets"');
const EVENT = bytes('{"type":"event"');
const REVISION = bytes('"revision":');
const AT = bytes('"at":"');
const EVENT_TYPE = bytes('"event":{"type":"');
const BET_PLACED = bytes('BetPlaced"');
const CARD_DEALT = bytes('CardDealt"');
/** A bet event's player (its data's keys are in the store's order: sorted). */
const PLAYER_ID = bytes('"playerId":"');

const startsWith = (buf: Buffer, prefix: Buffer, at = 0) =>
  buf.length >= at + prefix.length && buf.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0;

/** The whole number written at `at` in `buf`. */
function numberAt(buf: Buffer, at: number): number {
  let n = 0;
  for (let i = at; i < buf.length; i++) {
    const c = buf[i]!;
    if (c < 48 || c > 57) break;
    n = n * 10 + c - 48;
  }
  return n;
}

function onFrame(conn: Conn, data: WebSocket.RawData): void {
  const arrived = now();
  const buf = data as Buffer;
  counts.frames++;
  counts.bytes += buf.length;
  if (startsWith(buf, BETS) || startsWith(buf, EVENT)) return onFeed(conn, buf, arrived);
  const text = String(buf);
  const f = JSON.parse(text) as { type: string; key?: string; status?: number };
  samples[f.type] ??= text;
  switch (f.type) {
    case 'view':
    case 'resumed':
      conn.ready = true;
      return;
    case 'ack': {
      const sent = conn.sentAt.get(f.key!);
      if (sent !== undefined) acks.push([sent, performance.now(), f.status!]);
      conn.sentAt.delete(f.key!);
      return;
    }
  }
}

/** A totals or event frame: `{"type":..,"tableId":..,"revision":n[,"position":n,"at":"..","event":{"type":..,"data":{..}}]`. */
function onFeed(conn: Conn, buf: Buffer, arrived: number): void {
  const r = buf.indexOf(REVISION);
  const revision = numberAt(buf, r + REVISION.length);
  if (startsWith(buf, BETS)) {
    samples['bets'] ??= String(buf);
    conn.totals.push([revision, arrived]);
    return;
  }
  const t = buf.indexOf(EVENT_TYPE, r) + EVENT_TYPE.length;
  const bet = startsWith(buf, BET_PLACED, t);
  const card = !bet && startsWith(buf, CARD_DEALT, t);
  if (!bet && !card) {
    const type = buf.toString('latin1', t, buf.indexOf(34, t));
    samples[`event:${type}`] ??= String(buf);
    return;
  }
  const a = buf.indexOf(AT, r) + AT.length;
  const at = Date.parse(buf.toString('latin1', a, a + 24));
  if (bet) {
    samples['event:BetPlaced'] ??= String(buf);
    if (conn.spec.every) staffDelays.push(arrived - at);
    if (conn.bettorId !== null) {
      const p = buf.indexOf(PLAYER_ID, t) + PLAYER_ID.length;
      if (startsWith(buf, conn.bettorId, p)) conn.own.push([revision, at]);
    }
    return;
  }
  samples['event:CardDealt'] ??= String(buf);
  cardDelays.push(arrived - at);
  const key = `${conn.spec.tableId}:${revision}`;
  cardLatest.set(key, Math.max(cardLatest.get(key) ?? -Infinity, arrived - at));
}

async function open(specs: readonly SocketSpec[]): Promise<void> {
  const batch = 100;
  for (let i = 0; i < specs.length; i += batch) {
    await Promise.all(
      specs.slice(i, i + batch).map(
        (spec) =>
          new Promise<void>((resolve) => {
            const ws = new WebSocket(spec.url, { perMessageDeflate: false, skipUTF8Validation: true });
            const conn: Conn = {
              spec,
              ws,
              totals: [],
              own: [],
              sentAt: new Map(),
              bettorId: spec.bettor === null ? null : bytes(`${spec.bettor}"`),
              ready: false,
            };
            conns.push(conn);
            if (spec.bettor) byPlayer.set(spec.bettor, conn);
            ws.on('message', (data) => {
              onFrame(conn, data);
              if (conn.ready) resolve();
            });
            ws.on('open', () =>
              ws.send(
                JSON.stringify({
                  type: 'subscribe',
                  tableId: spec.tableId,
                  ...(spec.every ? { every: true } : {}),
                }),
              ),
            );
            ws.on('close', (code) => {
              counts.closes++;
              if (code === 4008) counts.tooSlow++;
              resolve();
            });
            ws.on('error', () => undefined);
          }),
      ),
    );
  }
  reply({ ev: 'opened', ready: conns.filter((c) => c.ready).length, closes: counts.closes });
}

function sendBet(conn: Conn, tableId: string, roundNo: number): void {
  if (conn.ws.readyState !== WebSocket.OPEN) return;
  const key = `${conn.spec.bettor}-${process.pid}-${betSeq++}`;
  conn.sentAt.set(key, performance.now());
  conn.ws.send(
    JSON.stringify({
      type: 'bet',
      key,
      tableId,
      roundNo,
      playerId: conn.spec.bettor,
      spot: 'player',
      amount: 100,
    }),
  );
}

/** Each bettor bets `perSecond` a second for `seconds`, each at its own phase; answers once the acks are in. */
async function bet(seconds: number, perSecond: number, rounds: Record<string, number>): Promise<void> {
  const bettors = conns.filter((c) => c.spec.bettor !== null);
  const start = performance.now();
  const every = 1000 / perSecond;
  const timers = bettors.map((conn) => {
    const phase = Math.random() * every;
    let n = 0;
    const tick = (): void => {
      sendBet(conn, conn.spec.tableId, rounds[conn.spec.tableId]!);
      n++;
      const due = start + phase + n * every;
      if (due - start < seconds * 1000) handle.t = setTimeout(tick, Math.max(0, due - performance.now()));
    };
    const handle: { t: NodeJS.Timeout } = { t: setTimeout(tick, phase) };
    return handle;
  });
  await new Promise((r) => setTimeout(r, seconds * 1000 + every));
  for (const h of timers) clearTimeout(h.t);
  await drained();
  reply({ ev: 'betted' });
}

/** Waits (at most 10 s) until every bet sent has its ack. */
async function drained(): Promise<void> {
  for (let i = 0; i < 100 && conns.some((c) => c.sentAt.size > 0); i++)
    await new Promise((r) => setTimeout(r, 100));
}

/** One round of a table: each of `bettors` bets once at a random moment within `spreadMs`. */
function round(tableId: string, roundNo: number, bettors: readonly string[], spreadMs: number): void {
  for (const id of bettors) {
    const conn = byPlayer.get(id);
    if (conn) setTimeout(() => sendBet(conn, tableId, roundNo), Math.random() * spreadMs);
  }
}

/** For each accepted bet, the latest arrival over this process's coalesced watchers of its table of a totals frame that includes it. */
function results(bets: readonly Accepted[]): void {
  const watchers = new Map<string, Conn[]>();
  for (const c of conns)
    if (!c.spec.every)
      (watchers.get(c.spec.tableId) ?? watchers.set(c.spec.tableId, []).get(c.spec.tableId)!).push(c);
  let missed = 0;
  const latest = bets.map(([tableId, revision, at]) => {
    let worst = -Infinity;
    for (const c of watchers.get(tableId) ?? []) {
      const i = firstAtOrAfter(c.totals, revision);
      if (i < 0) {
        missed++;
        continue;
      }
      worst = Math.max(worst, c.totals[i]![1] - at);
    }
    return worst;
  });
  reply({
    ev: 'results',
    latest,
    missed,
    acks,
    staffDelays,
    cardDelays,
    cardLatest: [...cardLatest],
    counts,
    samples,
  });
}

/** The bets this process's bettors saw accepted (their own events). */
function accepted(): void {
  const bets: Accepted[] = [];
  for (const c of conns) for (const [revision, at] of c.own) bets.push([c.spec.tableId, revision, at]);
  reply({ ev: 'accepted', bets });
}

function firstAtOrAfter(frames: readonly [number, number][], revision: number): number {
  let lo = 0;
  let hi = frames.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid]![0] < revision) lo = mid + 1;
    else hi = mid;
  }
  return lo < frames.length ? lo : -1;
}

process.on('message', (message: Command) => {
  switch (message.cmd) {
    case 'open':
      void open(message.sockets);
      return;
    case 'mark':
      acks.length = 0;
      staffDelays.length = 0;
      cardDelays.length = 0;
      cardLatest.clear();
      Object.assign(counts, { frames: 0, bytes: 0 });
      for (const c of conns) {
        c.totals.length = 0;
        c.own.length = 0;
      }
      reply({ ev: 'marked' });
      return;
    case 'bet':
      void bet(message.seconds, message.perSecond, message.rounds);
      return;
    case 'round':
      round(message.tableId, message.roundNo, message.bettors, message.spreadMs);
      return;
    case 'accepted':
      accepted();
      return;
    case 'results':
      results(message.bets);
      return;
    case 'close':
      for (const c of conns) c.ws.terminate();
      process.exit(0);
  }
});
reply({ ev: 'started' });
