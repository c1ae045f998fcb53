/**
 * GETs on the read side (`/api/tables/:id/hands`, `.../replay`, `.../verify`, `.../roads`) with the bearer token;
 * a refusal becomes the console's {@link ApiError} with the service's `code` and `message`.
 */
import { ApiError, type Fetch } from '../api';

export async function getJson<T>(
  token: string,
  path: string,
  fetchFn: Fetch = (i, init) => fetch(i, init),
): Promise<T> {
  let res: Response;
  try {
    res = await fetchFn(`/api${path}`, { method: 'GET', headers: { authorization: `Bearer ${token}` } });
  } catch (error) {
    throw new ApiError(0, 'NETWORK', `the service cannot be reached (${(error as Error).message})`);
  }
  if (!res.ok) {
    let code = `HTTP_${res.status}`;
    let message = res.statusText || 'the service refused the request';
    try {
      const body = (await res.json()) as { code?: unknown; message?: unknown };
      if (typeof body.code === 'string') code = body.code;
      if (typeof body.message === 'string') message = body.message;
    } catch {
      // not JSON
    }
    throw new ApiError(res.status, code, message);
  }
  return (await res.json()) as T;
}

/** `?a=1&b=x` from the defined, non-empty entries (in the given order), or '' when none. */
export function queryString(
  params: Readonly<Record<string, string | number | boolean | undefined | null>>,
): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}
