import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type TokenInfo, apiClient, readToken } from './api';
import { AnalystDashboard } from './analyst/AnalystDashboard';
import { parseAnalystRoute } from './analyst/route';
import { ComplianceScreen } from './compliance/ComplianceScreen';
import { parseComplianceRoute } from './compliance/route';
import { TablePicker } from './components/TablePicker';
import { TableScreen } from './components/TableScreen';
import { LanguageSwitch } from './i18n/LanguageSwitch';
import { PitScreen } from './pit/PitScreen';
import { PlayerRoute, isPlayHash } from './player/PlayerRoute';
import { HandList } from './replay/HandList';
import { ReplayScreen } from './replay/ReplayScreen';
import { parseReplayRoute } from './replay/route';
import { type Route, type RouteContext, isHome, path, resolve, route, useHash } from './routing';
import { useSession } from './session';
import { SignInScreen } from './signin/SignInScreen';
import { SupervisorHome } from './supervisor/SupervisorHome';
import { SupervisorTable } from './supervisor/SupervisorTable';

const STAFF_READERS = ['admin', 'dealer', 'supervisor', 'compliance', 'analyst', 'player'];

/** Sends the address to `hash` (replacing the history entry), showing nothing meanwhile. */
function Redirect({ to }: { readonly to: string }) {
  useEffect(() => window.location.replace(to), [to]);
  return null;
}

/**
 * Each role's own screen at `#/` (and right after signing in): the pit, the pit boss, the player page, compliance,
 * the analyst dashboard, the tables.
 */
function Home({ ctx }: { readonly ctx: RouteContext }) {
  switch (ctx.who.role) {
    case 'admin':
      return <Redirect to="#/pit" />;
    case 'supervisor':
      return <Redirect to="#/supervisor" />;
    case 'player':
      return <Redirect to="#/play" />;
    case 'compliance':
      return <Redirect to="#/compliance" />;
    case 'analyst':
      return <Redirect to="#/analyst" />;
    default:
      return <TablePicker api={ctx.api} onPick={(id) => (window.location.hash = `#/tables/${id}`)} />;
  }
}

/**
 * The screens by hash route, the first match wins. `roles` lists who may see one (the service still checks every
 * call); a screen for other roles is one more entry here.
 */
export const ROUTES: readonly Route[] = [
  route({ match: (h) => (isHome(h) ? {} : null), render: (ctx) => <Home ctx={ctx} /> }),
  route({
    match: (h) => (isPlayHash(h) ? {} : null),
    roles: ['player'],
    render: ({ token, who }) => <PlayerRoute key={token} token={token} playerId={who.sub} />,
  }),
  route({
    match: parseReplayRoute,
    roles: STAFF_READERS,
    render: ({ token }, r) =>
      r.kind === 'hands' ? (
        <HandList key={r.tableId} token={token} tableId={r.tableId} />
      ) : (
        <ReplayScreen
          key={`${r.tableId}/${r.roundNo}`}
          token={token}
          tableId={r.tableId}
          roundNo={r.roundNo}
          initialStep={r.step}
        />
      ),
  }),
  route({ match: path('#/pit'), roles: ['admin'], render: (ctx) => <PitScreen ctx={ctx} tab="tables" /> }),
  route({ match: path('#/pit/open'), roles: ['admin'], render: (ctx) => <PitScreen ctx={ctx} tab="open" /> }),
  route({
    match: path('#/pit/staff'),
    roles: ['admin'],
    render: (ctx) => <PitScreen ctx={ctx} tab="staff" />,
  }),
  route({
    match: path('#/pit/tables/:tableId'),
    roles: ['admin'],
    render: (ctx, p) => <PitScreen key={p['tableId']} ctx={ctx} tab="table" tableId={p['tableId']} />,
  }),
  route({
    match: path('#/supervisor'),
    roles: ['supervisor'],
    render: (ctx) => <SupervisorHome ctx={ctx} />,
  }),
  route({
    match: path('#/supervisor/tables/:tableId'),
    roles: ['supervisor'],
    render: (ctx, p) => <SupervisorTable key={p['tableId']} ctx={ctx} tableId={p['tableId'] ?? ''} />,
  }),
  route({
    match: parseComplianceRoute,
    roles: ['compliance', 'admin'],
    render: ({ token, who }, r) => <ComplianceScreen token={token} role={who.role} route={r} />,
  }),
  route({
    match: parseAnalystRoute,
    roles: ['analyst', 'admin'],
    render: ({ token, who }, f) => <AnalystDashboard token={token} role={who.role} filter={f} />,
  }),
  route({
    match: path('#/tables/:tableId'),
    roles: STAFF_READERS,
    render: ({ api, token, who }, p) => (
      <TableScreen key={p['tableId']} api={api} token={token} role={who.role} tableId={p['tableId'] ?? ''} />
    ),
  }),
];

/** The screen for the address: the matching route if the role may see it, else a way back home. */
function Screen({ ctx }: { readonly ctx: RouteContext }) {
  const { t } = useTranslation('signin');
  const hash = useHash();
  const found = resolve(ROUTES, hash);
  if (found && (!found.route.roles || found.route.roles.includes(ctx.who.role)))
    return <>{found.route.render(ctx, found.match)}</>;
  return (
    <section className="panel" role="alert">
      <p>{found ? t('app.forbidden', { role: t(`roles.${ctx.who.role}`) }) : t('app.notFound')}</p>
      <a href="#/">{t('app.home')}</a>
    </section>
  );
}

/** The screens each role can open from the header (shown when a role has more than one). */
export const NAV: readonly {
  readonly key: string;
  readonly href: string;
  readonly roles: readonly string[];
}[] = [
  { key: 'pit', href: '#/pit', roles: ['admin'] },
  { key: 'supervisor', href: '#/supervisor', roles: ['supervisor'] },
  { key: 'compliance', href: '#/compliance', roles: ['compliance', 'admin'] },
  { key: 'analyst', href: '#/analyst', roles: ['analyst', 'admin'] },
];

export function AppNav({ role }: { readonly role: string }) {
  const { t } = useTranslation('signin');
  const hash = useHash();
  const links = NAV.filter((n) => n.roles.includes(role));
  if (links.length < 2) return null;
  return (
    <nav className="app-nav" aria-label={t('app.nav.label')}>
      {links.map((n) => (
        <a key={n.key} href={n.href} aria-current={hash.startsWith(n.href) ? 'page' : undefined}>
          {t(`app.nav.${n.key}`)}
        </a>
      ))}
    </nav>
  );
}

function AppHeader(props: { readonly who: TokenInfo | null; readonly onSignOut: () => void }) {
  const { t } = useTranslation('signin');
  const { who } = props;
  return (
    <header className="app-header">
      <h1>
        <a href="#/">{t('app.brand')}</a> {t(`app.titles.${who?.role ?? 'signIn'}`)}
      </h1>
      {who && <AppNav role={who.role} />}
      <LanguageSwitch />
      {who && (
        <span className="who">
          {t('app.signedInAs', { user: who.sub, role: t(`roles.${who.role}`) })}{' '}
          <button type="button" className="link" onClick={props.onSignOut}>
            {t('app.signOut')}
          </button>
        </span>
      )}
    </header>
  );
}

export function App() {
  const { token, signIn, signOut } = useSession();
  const api = useMemo(() => (token ? apiClient(token) : null), [token]);
  const who = token ? readToken(token) : null;
  return (
    <div className="app">
      <AppHeader who={who} onSignOut={() => void signOut()} />
      <main>
        {!token || !api || !who ? <SignInScreen onSignIn={signIn} /> : <Screen ctx={{ token, api, who }} />}
      </main>
    </div>
  );
}
