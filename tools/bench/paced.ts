/**
 * An open-loop load at a fixed offered rate, for latency: request i is due at start + i / rate, on connection
 * i mod connections (HTTP/1.1 keep-alive, one request at a time per connection; a request due while its connection
 * still waits for an answer queues behind it). Latency is measured from the moment the request was DUE, so time
 * spent queued counts (no coordinated omission).
 *
 * Why not autocannon's `overallRate`: it gives each connection a quota per second that starts on the same timer
 * tick for all of them, so 1,000 connections at 1,000/s send 1,000 requests in the same millisecond once a second;
 * that measures a burst, not a rate (both are printed by bench:service).
 */
import { connect, type Socket } from 'node:net';

export interface PacedRequest {
  readonly body: string;
  readonly token: string;
  /** An Idempotency-Key header, if any. */
  readonly key?: string;
}

export interface PacedOptions {
  readonly connections: number;
  /** Requests per second offered, spread evenly. */
  readonly rate: number;
  readonly seconds: number;
}

export interface PacedResult {
  readonly sent: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  /**
   * The stalls: runs of requests answered later than STALL_MS after they were due, as [due (ms after the start) of
   * the first, of the last, the worst latency (ms), how many requests].
   */
  readonly stalls: readonly (readonly [number, number, number, number])[];
  /** When request 0 was due (performance.now() of this process): the stalls' times are counted from it. */
  readonly startedAt: number;
}

/** A request answered this much after it was due counts as stalled (the aim's p99 is 50 ms). */
const STALL_MS = 50;

interface Conn {
  readonly socket: Socket;
  /** Due times (ms, performance.now) of the requests written or waiting on this connection, oldest first. */
  readonly due: number[];
  /** Their request numbers, in the same order. */
  readonly seq: number[];
  /** Requests waiting for the one in flight to be answered. */
  readonly waiting: Buffer[];
  buffer: Buffer;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** Parses complete HTTP/1.1 responses off the front of `buffer`; returns their status codes and the rest. */
function takeResponses(buffer: Buffer): { statuses: number[]; rest: Buffer } {
  const statuses: number[] = [];
  let offset = 0;
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n', offset, 'latin1');
    if (end < 0) break;
    const head = buffer.toString('latin1', offset, end);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) throw new Error(`a response without content-length: ${head.slice(0, 200)}`);
    const bodyEnd = end + 4 + Number(length[1]);
    if (buffer.length < bodyEnd) break;
    statuses.push(Number(head.slice(9, 12)));
    offset = bodyEnd;
  }
  return { statuses, rest: offset === 0 ? buffer : buffer.subarray(offset) };
}

export async function paced(
  url: string,
  path: string,
  options: PacedOptions,
  requests: readonly PacedRequest[],
): Promise<PacedResult> {
  const { hostname, port } = new URL(url);
  const raw = requests.map((r) =>
    Buffer.from(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
        `Authorization: Bearer ${r.token}\r\n${r.key === undefined ? '' : `Idempotency-Key: ${r.key}\r\n`}` +
        `Content-Length: ${Buffer.byteLength(r.body)}\r\n\r\n${r.body}`,
    ),
  );
  const total = Math.round(options.rate * options.seconds);
  const latencies = new Float64Array(total);
  /** Latency by request number (NaN: not answered). */
  const byRequest = new Float64Array(total).fill(NaN);
  let answered = 0;
  let ok = 0;
  let non2xx = 0;
  let errors = 0;

  const conns: Conn[] = [];
  // Connect in groups, so the handshakes themselves are not what is measured.
  for (let i = 0; i < options.connections; i += 100) {
    const group = await Promise.all(
      Array.from({ length: Math.min(100, options.connections - i) }, () => {
        return new Promise<Socket>((resolve, reject) => {
          const socket = connect({ host: hostname, port: Number(port), noDelay: true });
          socket.once('connect', () => resolve(socket));
          socket.once('error', reject);
        });
      }),
    );
    for (const socket of group) {
      const conn: Conn = { socket, due: [], seq: [], waiting: [], buffer: Buffer.alloc(0) };
      socket.on('data', (chunk: Buffer) => {
        conn.buffer = conn.buffer.length === 0 ? chunk : Buffer.concat([conn.buffer, chunk]);
        const { statuses, rest } = takeResponses(conn.buffer);
        conn.buffer = rest;
        const now = performance.now();
        for (const status of statuses) {
          const due = conn.due.shift()!;
          byRequest[conn.seq.shift()!] = now - due;
          latencies[answered++] = now - due;
          if (status >= 200 && status < 300) ok++;
          else non2xx++;
          const next = conn.waiting.shift();
          if (next) socket.write(next);
        }
      });
      socket.on('error', () => {
        errors += conn.due.length;
        conn.due.length = 0;
      });
      conns.push(conn);
    }
  }

  const start = performance.now() + 5;
  const interval = 1000 / options.rate;
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) {
        const conn = conns[next % conns.length]!;
        const request = raw[next % raw.length]!;
        conn.due.push(start + next * interval);
        conn.seq.push(next);
        if (conn.due.length === 1) conn.socket.write(request);
        else conn.waiting.push(request);
        next++;
      }
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
      else resolve();
    };
    setTimeout(tick, 5);
  });
  // Wait for the answers (at most 10 s more), then close.
  const deadline = performance.now() + 10_000;
  while (answered + errors < total && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  for (const conn of conns) {
    errors += conn.due.length;
    conn.socket.destroy();
  }
  const stalls: [number, number, number, number][] = [];
  let current: [number, number, number, number] | null = null;
  for (let i = 0; i < total; i++) {
    const latency = byRequest[i]!;
    if (!(latency > STALL_MS)) {
      current = null;
      continue;
    }
    const at = Math.round(i * interval);
    if (current) {
      current[1] = at;
      current[2] = Math.max(current[2], Math.round(latency));
      current[3]++;
    } else stalls.push((current = [at, at, Math.round(latency), 1]));
  }
  const sorted = latencies.slice(0, answered).sort();
  return {
    sent: total,
    ok,
    non2xx,
    errors,
    p50: Math.round(percentile(sorted, 50) * 10) / 10,
    p90: Math.round(percentile(sorted, 90) * 10) / 10,
    p99: Math.round(percentile(sorted, 99) * 10) / 10,
    max: Math.round((sorted[sorted.length - 1] ?? NaN) * 10) / 10,
    stalls,
    startedAt: start,
  };
}
