import { TABLE_ID_SOURCE } from '@coup/table';
import { useEffect, useMemo, useState } from 'react';
import { type Api, type TokenInfo, apiClient, readToken } from './api';
import { SignIn } from './components/SignIn';
import { StaffSignIn } from './components/StaffSignIn';
import { isSignInToken, takeTokenFromLink } from './session-link';
import { TablePicker } from './components/TablePicker';
import { TableScreen } from './components/TableScreen';
import { PlayerRoute, isPlayHash } from './player/PlayerRoute';
import { HandList } from './replay/HandList';
import { ReplayScreen } from './replay/ReplayScreen';
import { parseReplayRoute } from './replay/route';

/** `#/tables/<id>`: a table's console. */
const TABLE_ROUTE = new RegExp(`^#/tables/(${TABLE_ID_SOURCE})$`);

const TOKEN_KEY = 'coup.token';

/** `#/tables/T1` -> the table; anything else -> the picker. (The player page will get `#/play`.) */
function tableFromHash(hash: string): string | null {
  const m = TABLE_ROUTE.exec(hash);
  return m?.[1] ?? null;
}

/** A value read from the address's hash, read again on every hash change. */
function useHash<T>(parse: (hash: string) => T): T {
  const [value, setValue] = useState<T>(() => parse(window.location.hash));
  useEffect(() => {
    const onHash = () => setValue(parse(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [parse]);
  return value;
}

/** The signed-in token, kept for the browser tab's session; a player signing in goes to the player page. */
function useSession() {
  const [token, setToken] = useState<string | null>(() => {
    // A launch link's or a single sign-on's token (`#token=...`) signs in, and leaves the address at once.
    const linked = takeTokenFromLink();
    if (linked) sessionStorage.setItem(TOKEN_KEY, linked);
    return linked ?? sessionStorage.getItem(TOKEN_KEY);
  });
  const signIn = (t: string) => {
    sessionStorage.setItem(TOKEN_KEY, t);
    setToken(t);
    if (readToken(t)?.role === 'player') window.location.hash = '#/play';
  };
  const signOut = () => {
    // A staff sign-in's token is ended at the service too (best effort: the tab forgets it either way).
    if (token && isSignInToken(token))
      void fetch('/api/auth/sign-out', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => undefined);
    sessionStorage.removeItem(TOKEN_KEY);
    setToken(null);
  };
  return { token, signIn, signOut };
}

function AppHeader(props: { readonly who: TokenInfo | null; readonly onSignOut: () => void }) {
  const { who } = props;
  return (
    <header className="app-header">
      <h1>
        <a href="#/">Coup</a> dealer console
      </h1>
      {who && (
        <span className="who">
          {who.sub} ({who.role}){' '}
          <button type="button" className="link" onClick={props.onSignOut}>
            sign out
          </button>
        </span>
      )}
    </header>
  );
}

/**
 * The screen the address shows a signed-in user: a hand history (`#/tables/T1/hands`), a hand's replay
 * (`#/tables/T1/hands/12?step=5`), the player page (`#/play`, where a player token with no table lands too), a
 * table (`#/tables/T1`) or the picker.
 */
function Screen(props: { readonly token: string; readonly api: Api; readonly who: TokenInfo }) {
  const { token, api, who } = props;
  const tableId = useHash(tableFromHash);
  const play = useHash(isPlayHash);
  const replay = useHash(parseReplayRoute);
  if (replay?.kind === 'hands')
    return <HandList key={replay.tableId} token={token} tableId={replay.tableId} />;
  if (replay?.kind === 'hand')
    return (
      <ReplayScreen
        key={`${replay.tableId}/${replay.roundNo}`}
        token={token}
        tableId={replay.tableId}
        roundNo={replay.roundNo}
        initialStep={replay.step}
      />
    );
  if (play || (who.role === 'player' && ['', '#', '#/'].includes(window.location.hash)))
    return <PlayerRoute key={token} token={token} playerId={who.sub} />;
  if (tableId === null)
    return <TablePicker api={api} onPick={(id) => (window.location.hash = `#/tables/${id}`)} />;
  return <TableScreen key={tableId} api={api} token={token} role={who.role} tableId={tableId} />;
}

export function App() {
  const { token, signIn, signOut } = useSession();
  const api = useMemo(() => (token ? apiClient(token) : null), [token]);
  const who = token ? readToken(token) : null;
  return (
    <div className="app">
      <AppHeader who={who} onSignOut={signOut} />
      <main>
        {!token || !api || !who ? (
          <>
            <SignIn onSignIn={signIn} />
            <StaffSignIn onSignIn={signIn} />
          </>
        ) : (
          <Screen token={token} api={api} who={who} />
        )}
      </main>
    </div>
  );
}
