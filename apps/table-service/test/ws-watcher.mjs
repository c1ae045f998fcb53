// A well-behaved client in a process of its own (so that what it measures is not held up by the test process's own
// work): follows a table over the live push and polls /health every 100 ms. Prints `ready` once it has the view.
// When stdin ends with a number n, it waits (at most 20 s) until it has seen n BetPlaced events, then prints one
// JSON line { view, events: [{ revision, type, lateMs, spot? }], health: [{ ms, status }], errors } and exits.
// Usage: node ws-watcher.mjs <service url> <token> <tableId>
import WebSocket from 'ws';

const [url, token, tableId] = process.argv.slice(2);
const events = [];
const health = [];
const errors = [];
let view = null;
let stopping = false;

const socket = new WebSocket(`${url.replace('http', 'ws')}/ws?token=${token}`);
socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe', tableId, every: true })));
socket.on('message', (raw) => {
  const arrived = Date.now();
  const frame = JSON.parse(raw.toString());
  if (frame.type === 'view') {
    view = frame.revision;
    process.stdout.write('ready\n');
  } else if (frame.type === 'event') {
    const spot = frame.event.data?.spot;
    events.push({
      revision: frame.revision,
      type: frame.event.type,
      lateMs: arrived - Date.parse(frame.at),
      ...(spot ? { spot } : {}),
    });
  } else if (frame.type !== 'hello') {
    errors.push(frame);
  }
});
socket.on('close', (code) => errors.push({ closed: code }));

const polling = (async () => {
  while (!stopping) {
    const started = performance.now();
    let status = 0;
    try {
      status = (await fetch(`${url}/health`)).status;
    } catch {
      // status 0: no answer
    }
    health.push({ ms: Math.round(performance.now() - started), status });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();

let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', async () => {
  const bets = Number(input.trim());
  const deadline = Date.now() + 20_000;
  while (events.filter((e) => e.type === 'BetPlaced').length < bets && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  stopping = true;
  await polling;
  socket.close();
  process.stdout.write(JSON.stringify({ view, events, health, errors }) + '\n');
  process.exit(0);
});
