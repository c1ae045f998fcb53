import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api';

export const asApiError = (e: unknown): ApiError =>
  e instanceof ApiError ? e : new ApiError(0, 'UNEXPECTED', String(e));

type Loader<T> = (cursor: string | null) => Promise<T>;

/**
 * Cursor pages of an API list: `load` reads the page at a cursor (a new `load`, e.g. another search, starts again
 * at the first page). `page` is null while loading, or the refusal.
 */
export function useCursorPages<T extends { readonly nextCursor: string | null }>(load: Loader<T>) {
  const [visited, setVisited] = useState<{ load: Loader<T>; cursors: (string | null)[] }>({
    load,
    cursors: [null],
  });
  const cursors = visited.load === load ? visited.cursors : [null];
  const cursor = cursors[cursors.length - 1] ?? null;
  const [page, setPage] = useState<T | ApiError | null>(null);
  useEffect(() => {
    let stop = false;
    setPage(null);
    load(cursor).then(
      (p) => !stop && setPage(p),
      (e: unknown) => !stop && setPage(asApiError(e)),
    );
    return () => {
      stop = true;
    };
  }, [load, cursor]);
  const next = page !== null && !(page instanceof ApiError) ? page.nextCursor : null;
  return {
    page,
    pageNo: cursors.length,
    previous: cursors.length > 1 ? () => setVisited({ load, cursors: cursors.slice(0, -1) }) : null,
    next: next !== null ? () => setVisited({ load, cursors: [...cursors, next] }) : null,
  };
}

/** Previous and next page buttons (disabled at either end). */
export function Pager(props: { readonly previous: (() => void) | null; readonly next: (() => void) | null }) {
  const { t } = useTranslation('compliance');
  return (
    <nav className="pager" aria-label={t('results.pages')}>
      <button type="button" disabled={props.previous === null} onClick={() => props.previous?.()}>
        {t('results.previous')}
      </button>
      <button type="button" disabled={props.next === null} onClick={() => props.next?.()}>
        {t('results.next')}
      </button>
    </nav>
  );
}

/** A refusal of the service, said for people. */
export function Refusal({ error }: { readonly error: ApiError }) {
  const { t } = useTranslation('compliance');
  return (
    <p className="refusal" role="alert">
      {t('errors.refused', { code: error.code, message: error.message })}
    </p>
  );
}
