/**
 * Pieces of the two reproductions of issue 14 (../repro-*.e2e.spec.ts, after
 * ../shared/repro/*.mjs): a table with a round open, and WebSocket subscribes racing the bets.
 */
import WebSocket from 'ws';
import { signToken } from '@coup/auth';
import { request } from './http';

/** Who plays in both repros (20 players p0..p19 with 100,000.00 each, an admin, a dealer) and how long they race. */
export function reproCast(secret: string) {
  const token = (role: 'admin' | 'dealer' | 'player', sub: string) => signToken(secret, { sub, role });
  return {
    raceMs: Number(process.env['REPRO_RACE_MS'] ?? 4000),
    chips: 10_000_000,
    admin: token('admin', 'admin-1'),
    dealer: token('dealer', 'dealer-1'),
    players: Array.from({ length: 20 }, (_, i) => `p${i}`),
    playerToken: (p: string) => token('player', p),
  };
}

/** Opens an rng table through `url` with generous limits, buys each player in, starts a shoe, opens round 1. */
export async function tableWithOpenRound(
  url: string,
  tokens: { admin: string; dealer: string },
  tableId: string,
  players: readonly string[],
  chips: number,
): Promise<void> {
  const limit = { min: 100, max: 100_000_000 };
  const steps: [string, string, unknown][] = [
    [
      '/api/tables',
      tokens.admin,
      { tableId, rules: { dealing: 'rng', limits: { player: limit, banker: limit, tie: limit } } },
    ],
    ...players.map((p): [string, string, unknown] => [
      `/api/tables/${tableId}/players/${p}/buy-in`,
      tokens.admin,
      { amount: chips },
    ]),
    [`/api/tables/${tableId}/shoes`, tokens.dealer, {}],
    [`/api/tables/${tableId}/rounds`, tokens.dealer, {}],
  ];
  for (const [path, token, body] of steps) {
    const answer = await request(url, 'POST', path, token, { body });
    if (answer === null || answer.status >= 300) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  }
}

/**
 * How long a repro races: at least `ms`, and until `minSubscribes` subscribes have been made (so a slow machine
 * races longer instead of racing less), but no longer than `maxMs`.
 */
export class Race {
  subscribes = 0;
  private readonly started = Date.now();
  constructor(
    private readonly ms: number,
    readonly minSubscribes = 100,
    private readonly maxMs = 60_000,
  ) {}

  over(): boolean {
    const elapsed = Date.now() - this.started;
    return elapsed >= this.maxMs || (elapsed >= this.ms && this.subscribes >= this.minSubscribes);
  }
}

/**
 * Subscribes to a table again and again on one process (connect, subscribe, close once the view arrives) until
 * `done()`, counting each subscribe in `race`; each subscribe makes the service read the table.
 */
export function subscribeRepeatedly(
  url: string,
  token: string,
  tableId: string,
  race: Race,
  done: () => boolean = () => race.over(),
): Promise<void> {
  return new Promise((resolve) => {
    const next = () => {
      if (done()) return resolve();
      const ws = new WebSocket(`${url.replace('http', 'ws')}/ws?token=${token}`);
      ws.on('open', () => {
        race.subscribes++;
        ws.send(JSON.stringify({ type: 'subscribe', tableId }));
      });
      ws.on('message', (raw) => {
        if ((JSON.parse(String(raw)) as { type: string }).type !== 'hello') ws.close();
      });
      ws.on('error', () => undefined);
      ws.on('close', () => setTimeout(next, 2));
    };
    next();
  });
}
