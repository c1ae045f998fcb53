/**
 * A token brought in the address's fragment: an operator's launch link for a player (`/#token=<jwt>`) or the return
 * of a single sign-on (`/#token=<jwt>&expiresAt=...`). Taken once: the fragment is removed from the address (and so
 * from the history entry) before anything else reads it. Fragments never reach a server.
 */
export function takeTokenFromLink(
  location: Pick<Location, 'hash' | 'pathname' | 'search'> = window.location,
  history: Pick<History, 'replaceState'> = window.history,
): string | null {
  if (!location.hash.startsWith('#token=')) return null;
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  return token && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token) ? token : null;
}

/** Whether a token came from a staff sign-in (it carries the account's token generation): sign-out ends it. */
export function isSignInToken(token: string): boolean {
  try {
    const payload = JSON.parse(
      atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/')),
    ) as unknown;
    return typeof payload === 'object' && payload !== null && Object.hasOwn(payload, 'gen');
  } catch {
    return false;
  }
}
