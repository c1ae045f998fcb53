/**
 * The signed-in session of a browser tab: the bearer token, kept in sessionStorage. Staff get theirs from the sign-in
 * screen (a password, or the casino's single sign-on returning `#token=...`); a player from the operator's launch
 * link (`/#token=...`). Signing out ends a staff sign-in's token at the service too, and so does a launch link opened
 * in a tab signed in as staff (the tab holds one session: the one it shows).
 */
import { useEffect, useState } from 'react';
import { readToken, request } from './api';
import { isSignInToken, takeTokenFromLink } from './session-link';

export const TOKEN_KEY = 'coup.token';

/** Whether a token has expired at `nowMs` (a token without `exp` never does here: the service decides). */
export function expired(token: string, nowMs: number): boolean {
  const exp = readToken(token)?.exp ?? null;
  return exp !== null && exp * 1000 <= nowMs;
}

/** Ends a staff sign-in's token at the service (a player's from a launch link has none to end). */
async function endSignIn(token: string | null): Promise<void> {
  if (token && isSignInToken(token))
    await request(token, 'POST', '/auth/sign-out', undefined).catch(() => undefined);
}

/**
 * The token the tab starts with: a link's (taken from the address at once), else the kept one unless expired. A
 * link that opens a tab already signed in as staff ends that sign-in: its sign-out is sent before the link's token
 * is kept, so no staff session is left open behind the player's.
 */
function initialToken(): string | null {
  const kept = sessionStorage.getItem(TOKEN_KEY);
  const linked = takeTokenFromLink();
  if (linked) {
    if (kept !== linked) void endSignIn(kept);
    sessionStorage.setItem(TOKEN_KEY, linked);
  }
  const token = linked ?? sessionStorage.getItem(TOKEN_KEY);
  if (token !== null && (readToken(token) === null || expired(token, Date.now()))) {
    sessionStorage.removeItem(TOKEN_KEY);
    return null;
  }
  return token;
}

export interface Session {
  readonly token: string | null;
  readonly signIn: (token: string) => void;
  readonly signOut: () => Promise<void>;
}

export function useSession(): Session {
  const [token, setToken] = useState<string | null>(initialToken);
  useEffect(() => {
    // a launch link opened in a tab already showing the console signs in too, at the role's own screen; the tab's
    // staff sign-in is ended first (the old token forgotten at once, the link's taken once the service has heard)
    const onHash = () => {
      const linked = takeTokenFromLink();
      if (!linked || readToken(linked) === null) return;
      const kept = sessionStorage.getItem(TOKEN_KEY);
      sessionStorage.removeItem(TOKEN_KEY);
      void (kept === linked ? Promise.resolve() : endSignIn(kept)).then(() => {
        sessionStorage.setItem(TOKEN_KEY, linked);
        setToken(linked);
        window.location.replace('#/');
      });
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const signIn = (t: string) => {
    sessionStorage.setItem(TOKEN_KEY, t);
    // a fresh sign-in starts at the role's own screen
    window.location.hash = '#/';
    setToken(t);
  };
  const signOut = async () => {
    sessionStorage.removeItem(TOKEN_KEY);
    setToken(null);
    // a staff sign-in's token is ended at the service (the tab forgets it whatever the answer)
    await endSignIn(token);
  };
  return { token, signIn, signOut };
}
