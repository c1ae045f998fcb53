/** `#/play`: the player page wired to the real service (REST client, WebSocket history, localStorage, WebAudio). */
import { useMemo } from 'react';
import { PlayerPage } from './PlayerPage';
import { loadEvents, playerClient } from './playerApi';

/** True for the player page's hash route. */
export const isPlayHash = (hash: string): boolean => hash === '#/play' || hash === '#/play/';

export function PlayerRoute({ token, playerId }: { readonly token: string; readonly playerId: string }) {
  const api = useMemo(() => playerClient(token), [token]);
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
