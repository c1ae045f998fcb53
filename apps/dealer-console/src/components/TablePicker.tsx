import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Api, ApiError, type TableEntry } from '../api';

/** The tables from `GET /api/tables`: pick one to run. */
export function TablePicker({
  api,
  onPick,
}: {
  readonly api: Api;
  readonly onPick: (tableId: string) => void;
}) {
  const { t } = useTranslation('dealer');
  const [tables, setTables] = useState<readonly TableEntry[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    let live = true;
    api.listTables().then(
      (t) => live && setTables(t),
      (e: unknown) => live && setError(e instanceof ApiError ? e : new ApiError(0, 'UNEXPECTED', String(e))),
    );
    return () => {
      live = false;
    };
  }, [api]);
  if (error)
    return (
      <p role="alert" className="refusal">
        <code>{error.code}</code> {error.message}
      </p>
    );
  if (tables === null) return <p>{t('picker.loading')}</p>;
  return (
    <section className="panel picker">
      <h2>{t('picker.title')}</h2>
      {tables.length === 0 && <p className="muted">{t('picker.none')}</p>}
      <ul>
        {tables.map((table, i) => (
          <li key={table.tableId}>
            <button
              type="button"
              disabled={table.status === 'closed'}
              onClick={() => onPick(table.tableId)}
              autoFocus={i === 0}
            >
              {table.tableId}
            </button>{' '}
            <span className="muted">
              {table.dealing ? t(`game:dealing.${table.dealing}`, table.dealing) : ''}{' '}
              {t(`picker.status.${table.status}`)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
