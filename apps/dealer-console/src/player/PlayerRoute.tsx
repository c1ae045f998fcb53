/** `#/play`: the player page wired to the real service (REST client, WebSocket history, localStorage, WebAudio). */
import { useEffect, useMemo } from 'react';
import { socketUrl } from '../useTableFeed';
import { PlayerPage } from './PlayerPage';
import { loadEvents, playerClient } from './playerApi';
import { PlayerSocket } from './playerSocket';

/** True for the player page's hash route. */
export const isPlayHash = (hash: string): boolean => hash === '#/play' || hash === '#/play/';

export function PlayerRoute({ token, playerId }: { readonly token: string; readonly playerId: string }) {
  // The page holds a socket to its table: the live stream, and its bets, clears and rebets.
  const api = useMemo(
    () => playerClient(token, undefined, () => new PlayerSocket({ url: socketUrl(token) })),
    [token],
  );
  useEffect(() => () => api.dispose(), [api]);
  const loadHistory = useMemo(() => (tableId: string) => loadEvents(tableId, token), [token]);
  const storage = useMemo(() => {
    try {
      return window.localStorage;
    } catch {
      return null;
    }
  }, []);
  return <PlayerPage api={api} playerId={playerId} loadHistory={loadHistory} storage={storage} />;
}
