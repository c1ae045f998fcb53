/**
 * Staff sign-in with a user name and password (`POST /api/auth/sign-in`), or the casino's single sign-on when the
 * service offers it (`GET /api/auth/options`). The shift's token the service answers goes to `onSignIn`.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError, request } from '../api';
import { formatTime } from '../i18n';

/** The staff roles one may ask to act in (the service's; the default is the account's first). */
export const STAFF_ROLES = ['admin', 'dealer', 'supervisor', 'compliance', 'analyst'] as const;

/** What the service answers a refused sign-in with, said for people in the current language. */
export function sayRefusal(t: TFunction, error: ApiError): string {
  const until = error.details?.['until'];
  switch (error.code) {
    case 'INVALID_CREDENTIALS':
    case 'ACCOUNT_DISABLED':
    case 'ROLE_NOT_HELD':
    case 'RATE_LIMITED':
    case 'TOO_MANY_AUTH_FAILURES':
    case 'NETWORK':
      return t(`refusals.${error.code}`);
    case 'ACCOUNT_LOCKED':
      return typeof until === 'string'
        ? t('refusals.ACCOUNT_LOCKED', { until: formatTime(until, { dateStyle: undefined }) })
        : t('refusals.ACCOUNT_LOCKED_WHILE');
    default:
      return t('refusals.other', { code: error.code, message: error.message });
  }
}

/** Where the casino's single sign-on starts, when the service offers one. */
function useSsoStart(): string | null {
  const [start, setStart] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    request<{ sso?: { start?: unknown } | null }>(null, 'GET', '/auth/options').then(
      (o) => {
        if (live && typeof o?.sso?.start === 'string') setStart(o.sso.start);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return start;
}

/** `POST /api/auth/sign-in`: the token goes to `onSignIn`, a refusal to `error`. */
function useSignIn(onSignIn: (token: string) => void) {
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (username: string, password: string, role: string): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      const body = await request<{ token?: string }>(null, 'POST', '/auth/sign-in', {
        username,
        password,
        ...(role ? { role } : {}),
      });
      if (body?.token) {
        onSignIn(body.token);
        return true;
      }
      setError(new ApiError(0, 'UNEXPECTED', 'no token in the answer'));
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(0, 'UNEXPECTED', String(e)));
    } finally {
      setBusy(false);
    }
    return false;
  };
  return { error, busy, submit };
}

export function StaffSignIn({ onSignIn }: { readonly onSignIn: (token: string) => void }) {
  const { t } = useTranslation('signin');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState('');
  const { error, busy, submit } = useSignIn(onSignIn);
  const sso = useSsoStart();
  return (
    <form
      className="sign-in staff-sign-in panel"
      aria-labelledby="staff-sign-in-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(username, password, role).then((ok) => ok && setPassword(''));
      }}
    >
      <h2 id="staff-sign-in-heading">{t('form.heading')}</h2>
      <label htmlFor="staff-username">{t('form.username')}</label>
      <input
        id="staff-username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        autoFocus
        value={username}
        onChange={(e) => setUsername(e.target.value)}
      />
      <label htmlFor="staff-password">{t('form.password')}</label>
      <input
        id="staff-password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <RoleChoice role={role} onChange={setRole} />
      {error && (
        <p role="alert" className="error-text">
          {sayRefusal(t, error)}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? t('form.busy') : t('form.submit')}
      </button>
      {sso && (
        <p>
          <a href={sso}>{t('form.sso')}</a>
        </p>
      )}
      <p className="muted">{t('form.note')}</p>
    </form>
  );
}

function RoleChoice(props: { readonly role: string; readonly onChange: (role: string) => void }) {
  const { t } = useTranslation('signin');
  return (
    <>
      <label htmlFor="staff-role">{t('form.actAs')}</label>
      <select id="staff-role" value={props.role} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{t('form.firstRole')}</option>
        {STAFF_ROLES.map((r) => (
          <option key={r} value={r}>
            {t(`roles.${r}`)}
          </option>
        ))}
      </select>
    </>
  );
}
