import { ApiError } from './api';
import { csvOf, fetchAllCsv } from './export';

describe('CSV built in the browser', () => {
  it('quotes what needs quoting, keeps numbers as numbers and defuses formulas', () => {
    const text = csvOf(
      ['name', 'n', 'ok', 'none'],
      [
        ['a,b', 1.5, true, null],
        ['say "hi"\nthere', -3, false, undefined],
        ['=HYPERLINK("x")', Number.NaN, null, '@me'],
      ],
    );
    expect(text).toBe(
      'name,n,ok,none\r\n' +
        '"a,b",1.5,true,\r\n' +
        '"say ""hi""\nthere",-3,false,\r\n' +
        `"'=HYPERLINK(""x"")",,,'@me\r\n`,
    );
  });
});

/** The parts of a fetch answer the client reads (jsdom has no Response). */
function answer(status: number, text: string, headers: Record<string, string> = {}): Response {
  return {
    ok: status < 400,
    status,
    statusText: 'x',
    headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
  } as unknown as Response;
}

const csvAnswer = (text: string, next: string | null) =>
  answer(200, text, { 'content-type': 'text/csv', ...(next ? { 'x-next-cursor': next } : {}) });

describe('the API’s CSV, every page', () => {
  it('follows X-Next-Cursor and keeps the header once', async () => {
    const pages: Record<string, Response> = {
      first: csvAnswer('a,b\r\n1,2\r\n', 'c2'),
      c2: csvAnswer('a,b\r\n3,4\r\n', 'c3'),
      c3: csvAnswer('a,b\r\n5,6', null),
    };
    const asked: { url: string; accept: string | null; auth: string | null }[] = [];
    const fetchFn = jest.fn(async (url: string, init?: RequestInit) => {
      const h = init?.headers as Record<string, string>;
      asked.push({ url, accept: h['accept'] ?? null, auth: h['authorization'] ?? null });
      return pages[new URL(url, 'http://x').searchParams.get('cursor') ?? 'first']!;
    });
    const seen: number[] = [];
    const text = await fetchAllCsv('tok', (c) => `/things${c ? `?cursor=${c}` : ''}`, {
      fetchFn,
      onPage: (n) => seen.push(n),
    });
    expect(text).toBe('a,b\r\n1,2\r\n3,4\r\n5,6\r\n');
    expect(asked).toEqual([
      { url: '/api/things', accept: 'text/csv', auth: 'Bearer tok' },
      { url: '/api/things?cursor=c2', accept: 'text/csv', auth: 'Bearer tok' },
      { url: '/api/things?cursor=c3', accept: 'text/csv', auth: 'Bearer tok' },
    ]);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('a refusal is the service’s error', async () => {
    const fetchFn = async () =>
      answer(400, JSON.stringify({ statusCode: 400, code: 'INVALID_QUERY', message: 'bad from' }));
    await expect(fetchAllCsv('tok', () => '/things', { fetchFn })).rejects.toEqual(
      new ApiError(400, 'INVALID_QUERY', 'bad from'),
    );
  });
});
