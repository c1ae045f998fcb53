/**
 * The scenario's HTTP client: a keyed command is sent to a process chosen at random and retried, with the same
 * key and body, on connection errors, timeouts, 503, 429, other 5xx answers and 409 CONCURRENCY_CONFLICT (each
 * of the last two is also a violation), until a 2xx or a refusal (another 4xx: final, never retried); every answer
 * goes to the journal.
 */
import type { Journal, KeyRecord } from './journal';
import type { ServiceNode } from './nodes';
import { type Rng, sameJson, sleep } from './util';

export interface Answer {
  readonly status: number;
  readonly body: any;
}

/** One HTTP request; null when no answer came (refused or reset connection, timeout). */
export async function request(
  url: string,
  method: string,
  path: string,
  token: string,
  options: { body?: unknown; key?: string; timeoutMs?: number } = {},
): Promise<Answer | null> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.key) headers['idempotency-key'] = options.key;
  try {
    const res = await fetch(url + path, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body };
  } catch {
    return null;
  }
}

export interface ClientOptions {
  readonly nodes: readonly ServiceNode[];
  readonly journal: Journal;
  readonly timeoutMs: number;
  /** True once the run is over: a command then gets no more tries after one that failed. */
  readonly stopping: () => boolean;
}

/** The final outcome of a keyed command: its 2xx or refusal, or null if it never got one. */
export type Outcome = Answer | null;

const MAX_TRIES = 40;

export class ChaosClient {
  constructor(private readonly o: ClientOptions) {}

  /** Every node is up (not killed, restarting or paused). */
  private allUp(): boolean {
    return this.o.nodes.every((n) => n.state === 'up');
  }

  /** Sends a keyed command until it gets a 2xx or a refusal (or runs out of tries). */
  async send(rng: Rng, token: string, rec: KeyRecord): Promise<Outcome> {
    const j = this.o.journal;
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const node = rng.pick(this.o.nodes);
      const sentAt = performance.now();
      if (rec.firstSentAt === 0) j.firstSend(rec, sentAt);
      const bothUpBefore = this.allUp();
      const answer = await request(node.url, rec.method, rec.path, token, {
        body: rec.body,
        key: rec.key,
        timeoutMs: this.o.timeoutMs,
      });
      const receivedAt = performance.now();
      const code = typeof answer?.body?.code === 'string' ? (answer.body.code as string) : '';
      if (answer === null) {
        rec.unanswered++;
        j.count('tries.unanswered');
      } else {
        j.count(`answers.${answer.status}${code ? ` ${code}` : ''}`);
        if (answer.status >= 200 && answer.status < 300) {
          j.acknowledged(
            rec,
            answer.status,
            answer.body,
            receivedAt,
            rec.ok === null || (rec.ok.status === answer.status && sameJson(rec.ok.body, answer.body)),
          );
          return answer;
        }
        if (answer.status === 409 && code === 'CONCURRENCY_CONFLICT') {
          const alone = !(bothUpBefore && this.allUp());
          j.violation(
            'conflict-reached-client',
            `${rec.key} (${rec.type}) via ${node.name}: ${answer.body?.message ?? ''}${alone ? ' (while one process ran)' : ''}`,
          );
          j.count(alone ? 'conflicts.oneProcess' : 'conflicts.bothProcesses');
        } else if (answer.status >= 500 && answer.status !== 503) {
          j.violation(
            'server-error',
            `${rec.key} (${rec.type}) via ${node.name}: ${answer.status} ${code} ${answer.body?.message ?? ''}`,
          );
        } else if (answer.status !== 503 && answer.status !== 429) {
          // A refusal: final. A retry of an acknowledged command must not be refused.
          rec.refusals.push({ status: answer.status, code, node: node.name, sentAt, receivedAt });
          if (rec.ok)
            j.violation(
              'retry-answered-differently',
              `${rec.key} (${rec.type}): first ${rec.ok.status}, later ${answer.status} ${code} via ${node.name}`,
            );
          if (code === 'IDEMPOTENCY_KEY_REUSED')
            j.violation('key-reused-refusal', `${rec.key} (${rec.type}) via ${node.name}: same body, 422`);
          return answer;
        }
      }
      if (this.o.stopping()) return null;
      // Jittered backoff, growing to about a second.
      await sleep(rng.int(5, 20 + Math.min(1000, 10 * 1.5 ** attempt)));
    }
    j.count('commands.gaveUp');
    return null;
  }

  /** A read through a random process, retried until it answers 200 (null if it never does, or the run is over). */
  async read(rng: Rng, token: string, path: string): Promise<Answer | null> {
    for (let i = 0; i < MAX_TRIES; i++) {
      const node = rng.pick(this.o.nodes);
      const answer = await request(node.url, 'GET', path, token, { timeoutMs: this.o.timeoutMs });
      if (answer?.status === 200) return answer;
      if (answer && answer.status >= 500 && answer.status !== 503)
        this.o.journal.violation('server-error', `GET ${path} via ${node.name}: ${answer.status}`);
      if (this.o.stopping()) return null;
      await sleep(rng.int(10, 100));
    }
    return null;
  }
}
