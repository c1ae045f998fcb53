import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PLAYER_ID_PATTERN } from '@coup/table';
import type { TableEntry } from '../api';
import { casinoTimeZone } from '../i18n';
import { type ComplianceApi, complianceApi } from './api';
import { HandResults } from './HandResults';
import { PlayerTrail } from './PlayerTrail';
import { type ComplianceRoute, playerHash, searchHash } from './route';
import { SearchForm } from './SearchForm';
import { type CasinoZone, isProblem, toSearch } from './search';

/** The roles the screen is for (the service answers them; others would be refused). */
export const COMPLIANCE_ROLES: readonly string[] = ['compliance', 'admin'];

/** The zone if the browser knows it (a misconfigured one: the browser's own, rather than no search at all). */
function validZone(zone: string | undefined): string | undefined {
  if (zone === undefined) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/** The casino's time zone, for the local times of the search. */
export function casinoZone(): CasinoZone {
  const timeZone = validZone(casinoTimeZone());
  return timeZone ? { timeZone } : {};
}

function PlayerLookup() {
  const { t } = useTranslation('compliance');
  const [id, setId] = useState('');
  const open = (e: FormEvent) => {
    e.preventDefault();
    if (PLAYER_ID_PATTERN.test(id.trim())) window.location.hash = playerHash(id.trim());
  };
  return (
    <form className="inline-form" onSubmit={open} aria-label={t('nav.trail')}>
      <label htmlFor="cs-lookup">{t('trail.lookup')}</label>
      <input id="cs-lookup" value={id} onChange={(e) => setId(e.target.value)} size={14} />
      <button type="submit">{t('nav.open')}</button>
    </form>
  );
}

function useTables(api: ComplianceApi): TableEntry[] | null {
  const [tables, setTables] = useState<TableEntry[] | null>(null);
  useEffect(() => {
    let stop = false;
    api.tables().then(
      (list) => !stop && setTables(list),
      () => !stop && setTables([]),
    );
    return () => {
      stop = true;
    };
  }, [api]);
  return tables;
}

function SearchPage(props: {
  readonly api: ComplianceApi;
  readonly route: ComplianceRoute & { kind: 'search' };
}) {
  const { t } = useTranslation('compliance');
  const { api, route } = props;
  const tables = useTables(api);
  const zone = useMemo(casinoZone, []);
  const address = searchHash(route.form);
  // One search object per address, so its pages are read once and start again only when the search changes.
  const search = useMemo(() => {
    const s = toSearch(route.form, zone);
    return route.form.table === '' || isProblem(s) ? null : s;
  }, [address, zone]);
  return (
    <>
      {tables !== null && (
        <SearchForm
          key={address}
          initial={route.form}
          tables={tables}
          zone={zone}
          onSearch={(form) => (window.location.hash = searchHash(form))}
        />
      )}
      {search ? <HandResults api={api} search={search} /> : <p className="muted">{t('results.pick')}</p>}
    </>
  );
}

/**
 * The compliance screen (compliance and admin): hand searches with each hand's verification, a replay link and
 * the search as CSV (`#/compliance?...`), and a player's audit trail (`#/compliance/players/<id>`).
 */
export function ComplianceScreen(props: {
  readonly token: string;
  readonly role: string;
  readonly route: ComplianceRoute;
  readonly api?: ComplianceApi;
}) {
  const { t } = useTranslation('compliance');
  const api = useMemo(() => props.api ?? complianceApi(props.token), [props.api, props.token]);
  const { route } = props;
  return (
    <div className="compliance">
      <header className="screen-header">
        <h2>{t('title')}</h2>
        <nav aria-label={t('title')}>
          <a href="#/compliance">{t('nav.search')}</a>
        </nav>
        <PlayerLookup />
      </header>
      {!COMPLIANCE_ROLES.includes(props.role) ? (
        <p className="refusal" role="alert">
          {t('forbidden')}
        </p>
      ) : route.kind === 'player' ? (
        <PlayerTrail key={route.playerId} api={api} playerId={route.playerId} />
      ) : (
        <SearchPage api={api} route={route} />
      )}
    </div>
  );
}
