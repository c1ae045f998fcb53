/**
 * A flood of commands and oversized bodies against one table: every bet is answered and recorded exactly once,
 * oversized bodies are refused with 413 and record nothing, and another table keeps being served meanwhile.
 */
import { request } from 'node:http';
import { EventStoreHandle } from '../src/store/event-store.provider';
import { startService, type Harness } from './harness';

jest.setTimeout(120_000);

let h: Harness;
beforeAll(async () => {
  h = await startService();
  for (const t of ['F1', 'F2']) {
    await h.api('POST', '/api/tables', { body: { tableId: t, rules: { dealing: 'rng' } } });
    for (let i = 0; i < 20; i++)
      await h.api('POST', `/api/tables/${t}/players/f${i}/buy-in`, { body: { amount: 10_000_000 } });
    await h.api('POST', `/api/tables/${t}/shoes`, { token: h.token('dealer') });
    await h.api('POST', `/api/tables/${t}/rounds`, { token: h.token('dealer') });
  }
});
afterAll(async () => {
  await h.close();
});

function postOnOwnSocket(path: string, token: string, pad: string): Promise<number | 'reset'> {
  const body = JSON.stringify({ playerId: 'f1', spot: 'tie', amount: 100, pad });
  return new Promise((resolve) => {
    const req = request(
      `${h.url}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve('reset'));
    req.end(body);
  });
}

it('serves 2,000 concurrent bets, 100 oversized bodies and another table at once, losing and doubling nothing', async () => {
  const dealer = h.token('dealer');
  // 2,000 bets from 200 concurrent clients (more sockets than that overflow the listen backlog of a loaded machine,
  // which measures the kernel, not the table).
  let next = 0;
  const bets: { status: number }[] = [];
  const flood = Array.from({ length: 200 }, async () => {
    while (next < 2000) {
      const i = next++;
      bets.push(
        await h.api('POST', '/api/tables/F1/rounds/1/bets', {
          token: dealer,
          body: { playerId: `f${i % 20}`, spot: 'banker', amount: 100 },
          headers: { 'idempotency-key': `flood-${i}` },
        }),
      );
    }
  });
  // Oversized bodies go on their own sockets (agent: false): the server answers 413 and may close the socket while
  // the client is still sending, so the client sees either the 413 or a reset. Either way nothing is recorded, and
  // no other request shares (and loses) that socket.
  const oversized = Array.from({ length: 100 }, () =>
    postOnOwnSocket('/api/tables/F1/rounds/1/bets', dealer, 'x'.repeat(100_000)),
  );
  const other = (async () => {
    const answers = [];
    for (let i = 0; i < 20; i++) {
      answers.push(
        (
          await h.api('POST', '/api/tables/F2/rounds/1/bets', {
            token: dealer,
            body: { playerId: `f${i}`, spot: 'player', amount: 500 },
          })
        ).status,
      );
    }
    return answers;
  })();
  const [, big, others] = await Promise.all([Promise.all(flood), Promise.all(oversized), other]);
  expect(bets).toHaveLength(2000);
  expect(bets.filter((b) => b.status !== 201)).toEqual([]);
  expect(big.filter((status) => status !== 413 && status !== 'reset')).toEqual([]);
  expect(others).toEqual(others.map(() => 201));

  const store = h.app.get(EventStoreHandle).store;
  const placed: string[] = [];
  for await (const e of store.readStream('table-F1'))
    if (e.type === 'BetPlaced') placed.push(e.metadata.commandId as string);
  expect(placed).toHaveLength(2000);
  expect(new Set(placed).size).toBe(2000);
  const view = (await h.api('GET', '/api/tables/F1')).body;
  for (const p of view.players as { chips: number }[]) expect(p.chips).toBe(10_000_000 - 100 * 100);
});
