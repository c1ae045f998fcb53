/**
 * Hash routes: each screen is a {@link Route} (how it matches the address's hash, which roles may see it, what it
 * renders), and the app shows the first route that matches. A new screen is one more entry in App.tsx's table.
 */
import { PLAYER_ID_PATTERN, TABLE_ID_SOURCE } from '@coup/table';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import type { Api, TokenInfo } from './api';

/** What every screen gets: the bearer token, the REST client, and who signed in. */
export interface RouteContext {
  readonly token: string;
  readonly api: Api;
  readonly who: TokenInfo;
}

export interface Route<M = unknown> {
  /** The hash's parts the screen needs, or null when the hash is not this route's. */
  readonly match: (hash: string) => M | null;
  /** Who may see the screen (absent: anyone signed in). */
  readonly roles?: readonly string[];
  readonly render: (ctx: RouteContext, match: M) => ReactNode;
}

/** A route with its match type erased, for the route table. */
export function route<M>(r: Route<M>): Route {
  return r as unknown as Route;
}

export type Params = Readonly<Record<string, string>>;

/** What each kind of path parameter matches: `:tableId` a table id, `:playerId` a player id. */
const PARAM_SOURCE: Readonly<Record<string, string>> = {
  tableId: TABLE_ID_SOURCE,
  playerId: PLAYER_ID_PATTERN.source.replace(/^\^|\$$/g, ''),
};

/**
 * A matcher for a path like `#/pit/tables/:tableId` (a trailing slash allowed): the named parameters, or null.
 * Unknown parameter names match one path segment.
 */
export function path(pattern: string): (hash: string) => Params | null {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return `(${PARAM_SOURCE[part.slice(1)] ?? '[^/?#]+'})`;
    })
    .join('/');
  const regex = new RegExp(`^${source}/?$`);
  return (hash) => {
    const m = regex.exec(hash);
    if (!m) return null;
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]));
  };
}

/** The home hash: no route, `#` or `#/`. */
export const isHome = (hash: string): boolean => hash === '' || hash === '#' || hash === '#/';

/** The first route matching `hash`, with its match, or null. */
export function resolve(routes: readonly Route[], hash: string): { route: Route; match: unknown } | null {
  for (const r of routes) {
    const match = r.match(hash);
    if (match !== null) return { route: r, match };
  }
  return null;
}

/** The address's hash, kept current. */
export function useHash(): string {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const onHash = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return hash;
}
