import { ApiError, apiClient, readToken } from './api';

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
