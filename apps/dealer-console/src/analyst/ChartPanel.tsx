import { Chart as ReactChart } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import { CsvDownload } from '../components/CsvDownload';
import { showCell } from './cells';
import type { ChartSpec } from './charts';
import { type DataTable, dataCsv } from './data';

/** A chart's rows as a table (the numbers behind the picture, for reading and for screen readers). */
export function DataTableView(props: { readonly table: DataTable; readonly caption: string }) {
  const { t } = useTranslation('analyst');
  const { table } = props;
  return (
    <table className="grid data-table">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {table.columns.map((c) => (
            <th key={c} scope="col">
              {t(`columns.${c}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((r, i) => (
          <tr key={i}>
            {table.columns.map((c) => (
              <td key={c}>{showCell(c, r[c], t)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * One chart of the dashboard: its title and what it shows, the chart (Chart.js on a canvas, described for screen
 * readers), its data as a table and as a CSV download of exactly those rows.
 */
export function ChartPanel(props: {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly table: DataTable;
  /** null: a table alone (nothing to draw). */
  readonly chart: ChartSpec | null;
  readonly file: string;
  /** Show the data table at once (it is shown anyway when there is no chart). */
  readonly open?: boolean;
}) {
  const { t } = useTranslation('analyst');
  const { id, table } = props;
  const empty = table.rows.length === 0;
  return (
    <section className="panel chart-panel" aria-labelledby={`${id}-title`} data-testid={id}>
      <h3 id={`${id}-title`}>{props.title}</h3>
      <p className="muted" id={`${id}-desc`}>
        {props.description}
      </p>
      {empty && <p className="muted">{t('empty')}</p>}
      {!empty && props.chart && (
        <div className="chart-box">
          <ReactChart
            type="bar"
            data={props.chart.data as never}
            options={props.chart.options}
            role="img"
            aria-label={props.title}
            aria-describedby={`${id}-desc`}
            fallbackContent={<p>{t('chart.fallback')}</p>}
          />
        </div>
      )}
      {!empty && (
        <details open={props.open === true || props.chart === null}>
          <summary>{t('data.show')}</summary>
          <DataTableView table={table} caption={props.title} />
        </details>
      )}
      <CsvDownload label={t('data.download')} file={props.file} ns="analyst" load={() => dataCsv(table)} />
    </section>
  );
}
