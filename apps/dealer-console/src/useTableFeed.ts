import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Api } from './api';
import { type FeedState, TableFeed } from './feed';

/** The socket URL on this page's host (the dev server proxies `/ws` to the service). */
export function socketUrl(token: string): string {
  const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${window.location.host}/ws?token=${encodeURIComponent(token)}`;
}

/** The live table: one {@link TableFeed} per table and token, disposed when either changes. */
export function useTableFeed(
  api: Api,
  token: string,
  tableId: string,
): { state: FeedState; refresh: () => Promise<void> } {
  const [feed, setFeed] = useState<TableFeed | null>(null);
  useEffect(() => {
    const f = new TableFeed({
      tableId,
      token,
      connect: (url) => new WebSocket(url),
      url: socketUrl,
      readView: (id) => api.view(id),
      setTimer: (fn, ms) => window.setTimeout(fn, ms),
      clearTimer: (h) => window.clearTimeout(h as number),
    });
    setFeed(f);
    f.start();
    return () => f.dispose();
  }, [api, token, tableId]);
  const state = useSyncExternalStore(
    (cb) => (feed ? feed.subscribe(cb) : () => undefined),
    () => feed?.current ?? CONNECTING,
  );
  return { state, refresh: () => feed?.refresh() ?? Promise.resolve() };
}

const CONNECTING: FeedState = {
  connection: 'connecting',
  view: null,
  revision: null,
  error: null,
  retryInMs: null,
  log: [],
  road: [],
  roadVoided: [],
  amendments: 0,
  amendedAt: null,
};
