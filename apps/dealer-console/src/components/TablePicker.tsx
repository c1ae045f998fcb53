import { useEffect, useState } from 'react';
import { type Api, ApiError, type TableEntry } from '../api';

/** The tables from `GET /api/tables`: pick one to run. */
export function TablePicker({
  api,
  onPick,
}: {
  readonly api: Api;
  readonly onPick: (tableId: string) => void;
}) {
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
  if (tables === null) return <p>Loading tables...</p>;
  return (
    <section className="panel picker">
      <h2>Tables</h2>
      {tables.length === 0 && <p className="muted">No tables yet: an admin opens one.</p>}
      <ul>
        {tables.map((t, i) => (
          <li key={t.tableId}>
            <button
              type="button"
              disabled={t.status === 'closed'}
              onClick={() => onPick(t.tableId)}
              autoFocus={i === 0}
            >
              {t.tableId}
            </button>{' '}
            <span className="muted">
              {t.dealing ?? ''} {t.status}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
