/**
 * The pit (admin): every table at a glance (`#/pit`), a table's players, buy-ins, cash-outs and closing
 * (`#/pit/tables/<id>`), opening a table (`#/pit/open`) and the staff accounts (`#/pit/staff`).
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RouteContext } from '../routing';
import { OpenTable } from './OpenTable';
import { PitTable } from './PitTable';
import { pitClient } from './pitApi';
import { StaffScreen } from './StaffScreen';
import { TablesOverview } from './TablesOverview';

export type PitTab = 'tables' | 'table' | 'open' | 'staff';

const TABS: readonly { readonly tab: PitTab; readonly href: string }[] = [
  { tab: 'tables', href: '#/pit' },
  { tab: 'open', href: '#/pit/open' },
  { tab: 'staff', href: '#/pit/staff' },
];

export const pitTableHref = (tableId: string): string => `#/pit/tables/${encodeURIComponent(tableId)}`;

function PitNav({ tab }: { readonly tab: PitTab }) {
  const { t } = useTranslation('pit');
  return (
    <nav className="screen-nav" aria-label={t('nav.label')}>
      {TABS.map((x) => (
        <a key={x.tab} href={x.href} aria-current={x.tab === tab ? 'page' : undefined}>
          {t(`nav.${x.tab}`)}
        </a>
      ))}
    </nav>
  );
}

export function PitScreen(props: {
  readonly ctx: RouteContext;
  readonly tab: PitTab;
  readonly tableId?: string;
}) {
  const { api, token } = props.ctx;
  const pit = useMemo(() => pitClient(token), [token]);
  return (
    <div className="pit-screen">
      <PitNav tab={props.tab} />
      {props.tab === 'tables' && <TablesOverview api={api} token={token} hrefFor={pitTableHref} />}
      {props.tab === 'open' && (
        <OpenTable pit={pit} onOpened={(tableId) => (window.location.hash = pitTableHref(tableId))} />
      )}
      {props.tab === 'table' && props.tableId && (
        <PitTable api={api} pit={pit} token={token} tableId={props.tableId} />
      )}
      {props.tab === 'staff' && <StaffScreen pit={pit} />}
    </div>
  );
}
