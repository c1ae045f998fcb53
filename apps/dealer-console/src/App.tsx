import { useEffect, useMemo, useState } from 'react';
import { apiClient, readToken } from './api';
import { SignIn } from './components/SignIn';
import { TablePicker } from './components/TablePicker';
import { TableScreen } from './components/TableScreen';
import { PlayerRoute, isPlayHash } from './player/PlayerRoute';
import { HandList } from './replay/HandList';
import { ReplayScreen } from './replay/ReplayScreen';
import { type ReplayRoute, parseReplayRoute } from './replay/route';

const TOKEN_KEY = 'coup.token';

/** `#/tables/T1` -> the table; anything else -> the picker. (The player page will get `#/play`.) */
function tableFromHash(hash: string): string | null {
  const m = /^#\/tables\/([A-Za-z0-9_-]{1,64})$/.exec(hash);
  return m?.[1] ?? null;
}

export function App() {
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(TOKEN_KEY));
  const [tableId, setTableId] = useState<string | null>(() => tableFromHash(window.location.hash));
  useEffect(() => {
    const onHash = () => setTableId(tableFromHash(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  // The player page (`#/play`); a player token with no table in the hash lands there too.
  const [play, setPlay] = useState<boolean>(() => isPlayHash(window.location.hash));
  useEffect(() => {
    const onHash = () => setPlay(isPlayHash(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  // Hand history and replay (`#/tables/T1/hands`, `#/tables/T1/hands/12?step=5`).
  const [replay, setReplay] = useState<ReplayRoute | null>(() => parseReplayRoute(window.location.hash));
  useEffect(() => {
    const onHash = () => setReplay(parseReplayRoute(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const api = useMemo(() => (token ? apiClient(token) : null), [token]);
  const who = token ? readToken(token) : null;

  const signOut = () => {
    sessionStorage.removeItem(TOKEN_KEY);
    setToken(null);
  };

  return (
    <div className="app">
      <header className="app-header">
        <h1>
          <a href="#/">Coup</a> dealer console
        </h1>
        {who && (
          <span className="who">
            {who.sub} ({who.role}){' '}
            <button type="button" className="link" onClick={signOut}>
              sign out
            </button>
          </span>
        )}
      </header>
      <main>
        {!token || !api || !who ? (
          <SignIn
            onSignIn={(t) => {
              sessionStorage.setItem(TOKEN_KEY, t);
              setToken(t);
              if (readToken(t)?.role === 'player') window.location.hash = '#/play';
            }}
          />
        ) : replay?.kind === 'hands' ? (
          <HandList key={replay.tableId} token={token} tableId={replay.tableId} />
        ) : replay?.kind === 'hand' ? (
          <ReplayScreen
            key={`${replay.tableId}/${replay.roundNo}`}
            token={token}
            tableId={replay.tableId}
            roundNo={replay.roundNo}
            initialStep={replay.step}
          />
        ) : play || (who.role === 'player' && ['', '#', '#/'].includes(window.location.hash)) ? (
          <PlayerRoute key={token} token={token} playerId={who.sub} />
        ) : tableId === null ? (
          <TablePicker api={api} onPick={(id) => (window.location.hash = `#/tables/${id}`)} />
        ) : (
          <TableScreen key={tableId} api={api} token={token} role={who.role} tableId={tableId} />
        )}
      </main>
    </div>
  );
}
