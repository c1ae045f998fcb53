/**
 * The bare comparison for bench:live: a plain `ws` server that sends the same frames to the same sockets as Coup's
 * live push does, with nothing behind them (no token, store, decider or state). Sockets say who they are in the
 * URL (`?table=T&player=p1` or `&every=1` for a staff socket that takes every event). A bet is acked at once and
 * its event sent to the bettor and to the every-event sockets; the totals go to the other sockets at most once per
 * interval; `POST /event?table=T&type=CardDealt` sends a table event to every socket of the table. The frames are
 * Coup's own, recorded in the same run (a JSON file of one frame per kind), with the revision and time made anew.
 * Usage: bare-ws.ts <port> <frames.json> <interval ms>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

const [portArg, framesFile, intervalArg] = process.argv.slice(2);
const samples = JSON.parse(readFileSync(framesFile!, 'utf8')) as Record<string, string>;
const interval = Number(intervalArg ?? 250);

interface Table {
  revision: number;
  readonly every: Set<WebSocket>;
  readonly coalesced: Set<WebSocket>;
  readonly byPlayer: Map<string, WebSocket>;
  pending: boolean;
  timer: NodeJS.Timeout | null;
  lastFlush: number;
}
const tables = new Map<string, Table>();
const tableOf = (id: string): Table => {
  let t = tables.get(id);
  if (!t)
    tables.set(
      id,
      (t = {
        revision: 0,
        every: new Set(),
        coalesced: new Set(),
        byPlayer: new Map(),
        pending: false,
        timer: null,
        lastFlush: 0,
      }),
    );
  return t;
};

/** A recorded frame of this kind with a new revision and time: serialized once for all its sockets. */
function frame(
  kind: string,
  revision: number,
  patch: (f: Record<string, unknown>) => void = () => undefined,
): Buffer {
  const f = JSON.parse(samples[kind] ?? '{}') as Record<string, unknown>;
  f['revision'] = revision;
  if ('at' in f) f['at'] = new Date().toISOString();
  patch(f);
  return Buffer.from(JSON.stringify(f));
}

function send(ws: WebSocket, data: Buffer): void {
  if (ws.readyState === 1) ws.send(data, { binary: false });
}

function flush(t: Table): void {
  t.timer = null;
  if (!t.pending) return;
  t.pending = false;
  t.lastFlush = performance.now();
  const data = frame('bets', t.revision);
  for (const ws of t.coalesced) send(ws, data);
}

function onBet(t: Table, ws: WebSocket, message: { key: string; playerId: string }): void {
  ws.send(JSON.stringify({ ...(JSON.parse(samples['ack'] ?? '{}') as object), key: message.key }));
  t.revision++;
  const data = frame('event:BetPlaced', t.revision, (f) => {
    const event = f['event'] as { data: Record<string, unknown> };
    event.data['playerId'] = message.playerId;
  });
  for (const s of t.every) send(s, data);
  const own = t.byPlayer.get(message.playerId);
  if (own) send(own, data);
  t.pending = true;
  t.timer ??= setTimeout(() => flush(t), Math.max(0, t.lastFlush + interval - performance.now()));
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (req.method === 'POST' && url.pathname === '/event') {
    const t = tableOf(url.searchParams.get('table') ?? '');
    if (t.timer) clearTimeout(t.timer);
    flush(t);
    t.revision++;
    const data = frame(`event:${url.searchParams.get('type')}`, t.revision);
    for (const ws of [...t.every, ...t.coalesced]) send(ws, data);
    res.end('ok');
    return;
  }
  res.statusCode = 404;
  res.end();
});
const wss = new WebSocketServer({ server, maxPayload: 4096 });
wss.on('connection', (ws, req) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const t = tableOf(url.searchParams.get('table') ?? '');
  const player = url.searchParams.get('player');
  (url.searchParams.get('every') === '1' ? t.every : t.coalesced).add(ws);
  if (player) t.byPlayer.set(player, ws);
  ws.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as { type: string; key: string; playerId: string };
    if (message.type === 'subscribe') ws.send(samples['view'] ?? '{"type":"view"}');
    else if (message.type === 'bet') onBet(t, ws, message);
  });
  ws.on('close', () => {
    t.every.delete(ws);
    t.coalesced.delete(ws);
    if (player) t.byPlayer.delete(player);
  });
  ws.on('error', () => undefined);
});
server.listen(Number(portArg), '127.0.0.1', () => process.stdout.write('ready\n'));
// A clean exit on SIGTERM, so that `--cpu-prof` writes its profile.
process.on('SIGTERM', () => server.close(() => process.exit(0)));
