/**
 * Every table at a glance, for the pit and the pit boss: phase, round, cards left in the shoe, players, the betting
 * countdown, and alerts (a bet the edge monitor finds favourable to players, the cut card out, betting time up, a
 * lost connection). Live over each table's WebSocket feed; each row links to the table (`hrefFor`).
 */
import type { EdgeTableView } from '@coup/projections/wire';
import type { TableView } from '@coup/table';
import { useTranslation } from 'react-i18next';
import type { Api, TableEntry } from '../api';
import { secondsLeft, useNow } from '../components/Countdown';
import { edgeCurrent } from '../components/EdgeAlert';
import type { Connection } from '../feed';
import { useTableFeed } from '../useTableFeed';
import { RefusalNote } from './Refusal';
import { LIVE_TABLES, useFavourable, usePolledView, useTableList } from './useOverview';

interface RowProps {
  readonly entry: TableEntry;
  readonly view: TableView | null;
  /** The live feed's state, or `polled` for a table read again every few seconds. */
  readonly connection: Connection | 'polled';
  readonly edge: EdgeTableView | undefined;
  /**
   * When the shoe's last settled coup was corrected or voided (the live feed's `amendedAt`, as the dealer screen's
   * alert takes it): an edge reading computed before it is stale. Null for a polled row: its view does not say.
   */
  readonly amendedAt: string | null;
  readonly now: number;
  readonly hrefFor: (tableId: string) => string;
}

/** The alerts of a table now, as catalogue keys with their values. */
export function alertsOf(
  view: TableView | null,
  connection: RowProps['connection'],
  edge: EdgeTableView | undefined,
  now: number,
  amendedAt: string | null = null,
): { key: string; values?: Record<string, unknown> }[] {
  const alerts: { key: string; values?: Record<string, unknown> }[] = [];
  if (connection === 'reconnecting') alerts.push({ key: 'connection' });
  // refused by the service (a token limited to other tables, a table gone): not followed
  if (connection === 'failed') alerts.push({ key: 'failed' });
  if (!view || view.status !== 'open') return alerts;
  if (edge && edgeCurrent(edge, view.shoe, amendedAt) && edge.favourable.length > 0)
    alerts.push({ key: 'edge', values: { spots: edge.favourable.map((v) => v.spot) } });
  if (view.shoe?.cutCardOut && !view.shoe.ended) alerts.push({ key: 'cutCard' });
  const deadline = view.round?.deadline;
  if (view.phase === 'betting' && deadline && secondsLeft(deadline, now) === 0)
    alerts.push({ key: 'timeUp' });
  return alerts;
}

function Alerts(props: Pick<RowProps, 'view' | 'connection' | 'edge' | 'amendedAt' | 'now'>) {
  const { t } = useTranslation('pit');
  const alerts = alertsOf(props.view, props.connection, props.edge, props.now, props.amendedAt);
  if (alerts.length === 0) return <span className="muted">{t('overview.none')}</span>;
  return (
    <ul className="alerts">
      {alerts.map((a) => (
        <li key={a.key} className={`alert alert-${a.key}`}>
          {a.key === 'edge'
            ? t('overview.alerts.edge', {
                spots: (a.values?.['spots'] as string[]).map((s) => t(`spots.${s}`)).join(', '),
              })
            : t(`overview.alerts.${a.key}`)}
        </li>
      ))}
    </ul>
  );
}

function Betting({ view, now }: Pick<RowProps, 'view' | 'now'>) {
  const { t } = useTranslation('pit');
  if (view?.phase !== 'betting') return <span className="muted">{t('overview.none')}</span>;
  const deadline = view.round?.deadline;
  if (!deadline) return <>{t('overview.bettingOpen')}</>;
  const left = secondsLeft(deadline, now);
  return (
    <span className={left <= 5 ? 'countdown-low' : undefined}>
      {t('overview.closesIn', { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` })}
    </span>
  );
}

function OverviewRow(props: RowProps) {
  const { t } = useTranslation('pit');
  const { entry, view } = props;
  const phase = entry.status === 'closed' ? 'closed' : (view?.phase ?? null);
  const shoe = view?.shoe ?? null;
  return (
    <tr data-table={entry.tableId}>
      <th scope="row">
        <a href={props.hrefFor(entry.tableId)}>{entry.tableId}</a>{' '}
        {entry.dealing && <span className="muted">{t(`rules.dealing.${entry.dealing}`)}</span>}
      </th>
      <td>
        {phase ? (
          <span className={`phase phase-${phase}`}>{t(`phases.${phase}`)}</span>
        ) : (
          t('overview.loading')
        )}
      </td>
      <td>{view ? view.roundNo : ''}</td>
      <td>
        {shoe ? t('overview.cardsLeft', { left: shoe.cardsLeft, length: shoe.length }) : t('overview.noShoe')}
      </td>
      <td>
        {view ? t('overview.players', { count: view.players.length }) : ''}
        {view?.phase === 'betting' && view.round
          ? ` · ${t('overview.bettors', { count: view.round.bets.bettors })}`
          : ''}
      </td>
      <td>
        <Betting view={view} now={props.now} />
      </td>
      <td>
        <Alerts
          view={view}
          connection={props.connection}
          edge={props.edge}
          amendedAt={props.amendedAt}
          now={props.now}
        />
      </td>
    </tr>
  );
}

type Shared = Omit<RowProps, 'view' | 'connection' | 'edge' | 'amendedAt'> & {
  readonly api: Api;
  readonly token: string;
  readonly edges: ReadonlyMap<string, EdgeTableView>;
};

function LiveRow({ api, token, edges, ...rest }: Shared) {
  const { state } = useTableFeed(api, token, rest.entry.tableId);
  return (
    <OverviewRow
      {...rest}
      view={state.view}
      connection={state.connection}
      edge={edges.get(rest.entry.tableId)}
      amendedAt={state.amendedAt}
    />
  );
}

function PolledRow({ api, edges, ...rest }: Shared) {
  const view = usePolledView(api, rest.entry.tableId);
  return (
    <OverviewRow
      {...rest}
      view={view}
      connection="polled"
      edge={edges.get(rest.entry.tableId)}
      amendedAt={null}
    />
  );
}

export function TablesOverview(props: {
  readonly api: Api;
  readonly token: string;
  readonly hrefFor: (tableId: string) => string;
}) {
  const { t } = useTranslation('pit');
  const { tables, error } = useTableList(props.api);
  const edges = useFavourable(props.token);
  const now = useNow(1000);
  const open = (tables ?? []).filter((e) => e.status === 'open');
  const closed = (tables ?? []).filter((e) => e.status !== 'open');
  const shared = { api: props.api, token: props.token, edges, now, hrefFor: props.hrefFor };
  return (
    <section className="panel overview" aria-labelledby="overview-heading">
      <h2 id="overview-heading">{t('overview.heading')}</h2>
      <RefusalNote error={error} />
      {tables === null && !error && <p>{t('overview.loading')}</p>}
      {tables?.length === 0 && <p className="muted">{t('overview.empty')}</p>}
      {tables && tables.length > 0 && (
        <table className="overview-table">
          <thead>
            <tr>
              {(['table', 'phase', 'round', 'shoe', 'players', 'betting', 'alerts'] as const).map((c) => (
                <th key={c} scope="col">
                  {t(`overview.columns.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {open.map((entry, i) =>
              i < LIVE_TABLES ? (
                <LiveRow key={entry.tableId} {...shared} entry={entry} />
              ) : (
                <PolledRow key={entry.tableId} {...shared} entry={entry} />
              ),
            )}
            {closed.map((entry) => (
              <OverviewRow
                key={entry.tableId}
                {...shared}
                entry={entry}
                view={null}
                connection="polled"
                edge={undefined}
                amendedAt={null}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
