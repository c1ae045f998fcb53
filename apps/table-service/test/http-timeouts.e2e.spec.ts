/**
 * Slow clients: a request whose body (or headers) does not arrive in time is answered 408 in the service's error
 * format and its connection closed, and one client address holds at most COUP_MAX_CONNECTIONS_PER_IP connections.
 */
import { connect, type Socket } from 'node:net';
import { eventRows, openRound } from './http-helpers';
import { startService, type Harness } from './harness';

jest.setTimeout(60_000);

const REQUEST_TIMEOUT_MS = 1_500;
const HEADERS_TIMEOUT_MS = 600;

let h: Harness;
let port: number;
beforeAll(async () => {
  h = await startService({
    COUP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    COUP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    COUP_MAX_CONNECTIONS_PER_IP: '6',
  });
  port = Number(new URL(h.url).port);
  await openRound(h, 'S1');
});
afterAll(async () => {
  await h.close();
});

interface Answer {
  readonly text: string;
  readonly ms: number;
}

/**
 * Opens a socket from `from` (any 127.x address reaches the service on Linux, and the service sees it as the
 * client's address: these tests' connections never mix with the harness's own pooled ones), writes `head` and
 * nothing more, and collects what the server sends until it closes.
 */
function slowClient(head: string, from = '127.0.0.2'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    let text = '';
    socket.on('connect', () => socket.write(head));
    socket.on('data', (d) => (text += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
  });
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
const bodyOf = (text: string) =>
  JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

describe('timeouts', () => {
  it('a POST announcing 60,000 bytes and sending one is answered 408 and closed after COUP_REQUEST_TIMEOUT_MS', async () => {
    const before = await eventRows(h);
    const answer = await slowClient(
      'POST /api/tables/S1/rounds/1/bets HTTP/1.1\r\nHost: x\r\n' +
        `Authorization: Bearer ${h.token('dealer')}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 60000\r\n\r\n{',
    );
    expect(statusOf(answer.text)).toBe(408);
    expect(bodyOf(answer.text)).toEqual({
      statusCode: 408,
      code: 'REQUEST_TIMEOUT',
      message: expect.any(String),
    });
    expect(answer.text.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(answer.text.toLowerCase()).toContain("frame-ancestors 'none'");
    // Node checks its connections every quarter of the headers timeout (at most a second): answered within that.
    expect(answer.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(answer.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 5_000);
    expect(await eventRows(h)).toBe(before);
  });

  it('headers that never end are answered 408 after COUP_HEADERS_TIMEOUT_MS', async () => {
    const answer = await slowClient('GET /api/tables HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(statusOf(answer.text)).toBe(408);
    expect(bodyOf(answer.text)['code']).toBe('REQUEST_TIMEOUT');
    expect(answer.ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(answer.ms).toBeLessThan(REQUEST_TIMEOUT_MS);
  });

  it('timeouts are counted in coup_http_client_errors_total', async () => {
    const metrics = (await h.api('GET', '/metrics')).body as string;
    expect(metrics).toMatch(/coup_http_client_errors_total\{kind="timeout"\} [2-9]/);
  });
});

describe('connections per client address', () => {
  const FROM = '127.0.0.3';

  /** Opens a keep-alive connection from FROM and proves the server took it (one request answered on it). */
  async function openKeptAlive(): Promise<Socket> {
    const socket = connect({ port, host: '127.0.0.1', localAddress: FROM });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('data', () => resolve());
      socket.on('connect', () => socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n'));
    });
    return socket;
  }

  it('one more than COUP_MAX_CONNECTIONS_PER_IP is closed at once, and counted; a freed slot is usable again', async () => {
    const held: Socket[] = [];
    for (let i = 0; i < 6; i++) held.push(await openKeptAlive());
    const health = 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
    const refused = await slowClient(health, FROM);
    expect(refused.text).toBe('');
    // Another address is not affected.
    expect(statusOf((await slowClient(health, '127.0.0.4')).text)).toBe(200);
    held.pop()!.destroy();
    // The server frees the slot when it sees the close, on one of its next turns: try until it has.
    let again = await slowClient(health, FROM);
    while (again.text === '') again = await slowClient(health, FROM);
    expect(statusOf(again.text)).toBe(200);
    for (const s of held) s.destroy();
    const metrics = (await h.api('GET', '/metrics')).body as string;
    expect(metrics).toMatch(/coup_connections_refused_total [1-9]/);
  });
});
