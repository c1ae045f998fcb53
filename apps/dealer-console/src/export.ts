/**
 * Data downloads of the compliance and analyst screens: CSV built in the browser (RFC 4180) from exactly the rows
 * a chart or table shows, the API's own CSV (`Accept: text/csv`, every page followed through `X-Next-Cursor`),
 * and saving text as a file.
 */
import { ApiError, type Fetch } from './api';

export type CsvCell = string | number | boolean | null | undefined;

function csvCell(v: CsvCell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return String(v);
  // A text starting like a formula is prefixed with ' so a spreadsheet shows it instead of running it.
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header line and one line per row, CRLF-terminated (RFC 4180). */
export function csvOf(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((r) => `${r.map(csvCell).join(',')}\r\n`).join('');
}

/** Offers `text` to the user as a file named `name` (a Blob link: no server round trip, nothing inline). */
export function saveFile(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has its own copy once clicked; the URL is released on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** One CSV page of the API: its text and the next page's cursor (`X-Next-Cursor`), if any. */
async function csvPage(
  token: string,
  path: string,
  fetchFn: Fetch,
): Promise<{ text: string; next: string | null }> {
  let res: Response;
  try {
    res = await fetchFn(`/api${path}`, {
      method: 'GET',
      headers: { authorization: `Bearer ${token}`, accept: 'text/csv' },
    });
  } catch (error) {
    throw new ApiError(0, 'NETWORK', `the service cannot be reached (${(error as Error).message})`);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { code?: unknown; message?: unknown };
    throw new ApiError(
      res.status,
      typeof body.code === 'string' ? body.code : `HTTP_${res.status}`,
      typeof body.message === 'string' ? body.message : res.statusText,
    );
  }
  return { text: await res.text(), next: res.headers.get('x-next-cursor') };
}

/**
 * Every page of an API list as one CSV: `pathOf(cursor)` gives each page's path (the first with null); the header
 * line is kept once. `onPage` is told how many pages have come.
 */
export async function fetchAllCsv(
  token: string,
  pathOf: (cursor: string | null) => string,
  options: { readonly fetchFn?: Fetch; readonly onPage?: (pages: number) => void } = {},
): Promise<string> {
  const fetchFn = options.fetchFn ?? ((i: string, init?: RequestInit) => fetch(i, init));
  let out = '';
  let cursor: string | null = null;
  for (let pages = 1; ; pages++) {
    const { text, next } = await csvPage(token, pathOf(cursor), fetchFn);
    const body = pages === 1 ? text : text.slice(text.indexOf('\n') + 1);
    out += body !== '' && !body.endsWith('\n') ? `${body}\r\n` : body;
    options.onPage?.(pages);
    if (next === null || next === '' || next === cursor) return out;
    cursor = next;
  }
}
