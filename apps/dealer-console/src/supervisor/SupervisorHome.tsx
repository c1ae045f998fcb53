/** The pit boss's home (`#/supervisor`): the pit's tables overview, each table opening for corrections. */
import { useTranslation } from 'react-i18next';
import { TablesOverview } from '../pit/TablesOverview';
import type { RouteContext } from '../routing';

export const supervisorTableHref = (tableId: string): string =>
  `#/supervisor/tables/${encodeURIComponent(tableId)}`;

export function SupervisorHome({ ctx }: { readonly ctx: RouteContext }) {
  const { t } = useTranslation('supervisor');
  return (
    <div className="supervisor-screen">
      <p className="field-hint">{t('home.intro')}</p>
      <TablesOverview api={ctx.api} token={ctx.token} hrefFor={supervisorTableHref} />
    </div>
  );
}
