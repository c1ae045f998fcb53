/**
 * Staff accounts (`#/pit/staff`): the list (`GET /api/staff`), a new account, and for each its roles, its tables,
 * disabling or enabling it and resetting its password. Each change is recorded by the service with who made it,
 * and ends the account's earlier tokens.
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api';
import { formatTime } from '../i18n';
import type { PitApi, StaffAccount } from './pitApi';
import { RefusalNote, asApiError } from './Refusal';
import { AccountEditor } from './StaffEditor';
import { CreateStaffForm } from './StaffForms';

function status(t: (k: string, o?: Record<string, unknown>) => string, a: StaffAccount): string {
  if (a.disabled) return t('staff.disabled');
  if (a.lockedUntil) return t('staff.lockedUntil', { until: formatTime(a.lockedUntil) });
  return t('staff.active');
}

function AccountRow(props: {
  readonly pit: PitApi;
  readonly account: StaffAccount;
  readonly onChanged: () => unknown;
}) {
  const { t } = useTranslation('pit');
  const [open, setOpen] = useState(false);
  const a = props.account;
  return (
    <>
      <tr data-account={a.username}>
        <th scope="row">{a.username}</th>
        <td>{a.roles.map((r) => t(`signin:roles.${r}`)).join(t('staff.separator'))}</td>
        <td>{a.tables === null ? t('staff.everyTable') : a.tables.join(t('staff.separator'))}</td>
        <td>{status(t, a)}</td>
        <td>{a.lastSignInAt ? formatTime(a.lastSignInAt) : t('staff.never')}</td>
        <td>{t('staff.createdBy', { at: formatTime(a.createdAt), by: a.createdBy })}</td>
        <td>
          <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {t('staff.manage', { user: a.username })}
          </button>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={7}>
            <AccountEditor key={JSON.stringify(a)} pit={props.pit} account={a} onChanged={props.onChanged} />
          </td>
        </tr>
      )}
    </>
  );
}

function useAccounts(pit: PitApi) {
  const [accounts, setAccounts] = useState<readonly StaffAccount[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const reload = useCallback(
    () =>
      pit.staff().then(
        (list) => {
          setAccounts(list);
          setError(null);
        },
        (e: unknown) => setError(asApiError(e)),
      ),
    [pit],
  );
  useEffect(() => void reload(), [reload]);
  return { accounts, error, reload };
}

export function StaffScreen({ pit }: { readonly pit: PitApi }) {
  const { t } = useTranslation('pit');
  const { accounts, error, reload } = useAccounts(pit);
  const [made, setMade] = useState<string | null>(null);
  return (
    <div className="staff-screen">
      <section className="panel" aria-labelledby="staff-heading">
        <h2 id="staff-heading">{t('staff.heading')}</h2>
        <RefusalNote error={error} />
        {made && (
          <p role="status" className="done">
            {t('staff.made', { user: made })}
          </p>
        )}
        {accounts === null && !error && <p>{t('overview.loading')}</p>}
        {accounts && (
          <table className="staff-table">
            <thead>
              <tr>
                {(['username', 'roles', 'tables', 'status', 'lastSignIn', 'created', 'actions'] as const).map(
                  (c) => (
                    <th key={c} scope="col">
                      {t(`staff.columns.${c}`)}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>
              {accounts.map((a) => (
                <AccountRow key={a.username} pit={pit} account={a} onChanged={reload} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      <CreateStaffForm pit={pit} onCreated={(a) => (setMade(a.username), reload())} />
    </div>
  );
}
