import { ApiError, apiClient, command, readToken } from './api';

function respond(status: number, body: unknown) {
  return jest.fn(async (_url: string, _init?: RequestInit) => ({
    ok: status < 400,
    status,
    statusText: 'x',
    json: async () => body,
    text: async () => (body === undefined ? '' : JSON.stringify(body)),
  })) as unknown as jest.Mock<Promise<Response>, [string, RequestInit?]>;
}

describe('api client', () => {
  it('sends the bearer token and JSON body to the right path', async () => {
    const fetchFn = respond(200, { next: { to: 'banker', slot: 'banker1' } });
    await apiClient('tok', fetchFn).dealCard('T1', 4, 'Ah');
    const [url, init] = fetchFn.mock.calls[0]!;
    expect(url).toBe('/api/tables/T1/rounds/4/cards');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(init?.body).toBe('{"card":"Ah"}');
  });

  it("turns a refusal into an ApiError with the service's code and message", async () => {
    const fetchFn = respond(409, { statusCode: 409, code: 'CARD_NOT_DUE', message: 'the coup is complete' });
    const error = await apiClient('tok', fetchFn)
      .dealCard('T1', 4, 'Ah')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 409, code: 'CARD_NOT_DUE', message: 'the coup is complete' });
  });

  it('says NETWORK when the service cannot be reached', async () => {
    const fetchFn = jest.fn(async () => {
      throw new Error('connection refused');
    });
    await expect(apiClient('tok', fetchFn).listTables()).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('reads a token payload for display, and rejects what is not a JWT', () => {
    const payload = btoa(JSON.stringify({ sub: 'd1', role: 'dealer' })).replace(/=+$/, '');
    expect(readToken(`h.${payload}.s`)).toEqual({ sub: 'd1', role: 'dealer', exp: null });
    expect(readToken('not a token')).toBeNull();
    expect(readToken('a.b.c')).toBeNull();
  });
});

describe('Idempotency-Key: one per user action, kept across its retry', () => {
  const keyOf = (init?: RequestInit) => (init?.headers as Record<string, string>)['idempotency-key'];
  /** A fetch answering `statuses` in turn: 0 is a lost answer (the request may have reached the service). */
  function answers(...statuses: number[]) {
    const queue = [...statuses];
    return jest.fn(async (_url: string, _init?: RequestInit) => {
      const status = queue.shift() ?? 200;
      if (status === 0) throw new TypeError('Failed to fetch');
      const body = status < 400 ? { ok: true } : { statusCode: status, code: 'X', message: 'refused' };
      return {
        ok: status < 400,
        status,
        statusText: 'x',
        json: async () => body,
        text: async () => JSON.stringify(body),
      };
    }) as unknown as jest.Mock<Promise<Response>, [string, RequestInit?]>;
  }

  it('every command the dealer sends carries a key; a read carries none', async () => {
    const fetchFn = answers(200, 200, 200);
    const api = apiClient('tok', fetchFn);
    await api.openBetting('T1');
    await api.dealCard('T1', 1, 'Ah');
    await api.listTables();
    const keys = fetchFn.mock.calls.map(([, init]) => keyOf(init));
    expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBeUndefined();
  });

  it('the same command sent again after a lost answer carries the same key; after an answer, a new one', async () => {
    const fetchFn = answers(0, 200, 200);
    const buyIn = () =>
      command('tok', 'POST', '/tables/T1/players/alice/buy-in', { amount: 100_000 }, { fetchFn });
    await expect(buyIn()).rejects.toMatchObject({ code: 'NETWORK' });
    await buyIn(); // the second click: the service answers as it did to the first, recording nothing new
    await buyIn(); // answered: a new action
    const [first, retry, next] = fetchFn.mock.calls.map(([, init]) => keyOf(init));
    expect(retry).toBe(first);
    expect(next).not.toBe(first);
  });

  it('a 5xx keeps the key (the outcome may be unknown); a refusal (4xx) ends the action', async () => {
    const fetchFn = answers(503, 200, 409, 200);
    const close = () => command('tok', 'POST', '/tables/T1/rounds/1/close', {}, { fetchFn });
    await expect(close()).rejects.toMatchObject({ statusCode: 503 });
    await close();
    await expect(close()).rejects.toMatchObject({ statusCode: 409 });
    await close();
    const keys = fetchFn.mock.calls.map(([, init]) => keyOf(init));
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys).size).toBe(3);
  });

  it('another body, path or caller is another action, with its own key', async () => {
    const fetchFn = answers(0, 0, 0, 0);
    const send = (token: string, path: string, amount: number) =>
      command(token, 'POST', path, { amount }, { fetchFn }).catch(() => undefined);
    await send('tok', '/tables/T1/players/alice/buy-in', 100);
    await send('tok', '/tables/T1/players/alice/buy-in', 200);
    await send('tok', '/tables/T1/players/bob/buy-in', 100);
    await send('other', '/tables/T1/players/alice/buy-in', 100);
    expect(new Set(fetchFn.mock.calls.map(([, init]) => keyOf(init))).size).toBe(4);
  });
});
