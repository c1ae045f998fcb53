import { useEffect, useState } from 'react';

/** The staff roles one may ask to act in (the service's; the default is the account's first). */
const ROLES = ['admin', 'dealer', 'supervisor', 'compliance', 'analyst'] as const;

/** What the service answers a refused sign-in with, said for people. */
function sayRefusal(code: string, message: string, details: Record<string, unknown> | undefined): string {
  switch (code) {
    case 'INVALID_CREDENTIALS':
      return 'Wrong user name or password.';
    case 'ACCOUNT_LOCKED': {
      const until =
        typeof details?.['until'] === 'string' ? new Date(details['until']).toLocaleTimeString() : null;
      return `Too many wrong passwords: this account is locked${until ? ` until ${until}` : ' for a while'}.`;
    }
    case 'ACCOUNT_DISABLED':
      return 'This account is disabled: ask an admin.';
    case 'ROLE_NOT_HELD':
      return 'This account does not hold that role.';
    case 'RATE_LIMITED':
      return 'Too many sign-ins from here: wait a minute and try again.';
    default:
      return message;
  }
}

/** Where the casino's single sign-on starts, when the service offers one (`GET /api/auth/options`). */
function useSsoStart(): string | null {
  const [start, setStart] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetch('/api/auth/options')
      .then((r) => (r.ok ? r.json() : null))
      .then((o: { sso?: { start?: unknown } | null } | null) => {
        if (live && typeof o?.sso?.start === 'string') setStart(o.sso.start);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return start;
}

interface SignInAnswer {
  readonly token?: string;
  readonly code?: string;
  readonly message?: string;
  readonly details?: Record<string, unknown>;
}

/** `POST /api/auth/sign-in`: the token goes to `onSignIn`, a refusal to `error`. */
function useSignIn(onSignIn: (token: string) => void) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (username: string, password: string, role: string): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/api/auth/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password, ...(role ? { role } : {}) }),
      });
      const body = (await res.json()) as SignInAnswer;
      if (res.ok && body.token) {
        onSignIn(body.token);
        return true;
      }
      setError(sayRefusal(body.code ?? `HTTP_${res.status}`, body.message ?? res.statusText, body.details));
    } catch {
      setError('The service cannot be reached.');
    } finally {
      setBusy(false);
    }
    return false;
  };
  return { error, busy, submit };
}

/**
 * Staff sign-in with a user name and password, or the casino's single sign-on when the service offers it. The
 * token the service answers goes to `onSignIn`, as a pasted one does.
 */
export function StaffSignIn({ onSignIn }: { readonly onSignIn: (token: string) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState('');
  const { error, busy, submit } = useSignIn(onSignIn);
  const sso = useSsoStart();
  return (
    <form
      className="sign-in staff-sign-in panel"
      aria-label="Staff sign-in"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(username, password, role).then((ok) => ok && setPassword(''));
      }}
    >
      <h2>Staff sign-in</h2>
      <label htmlFor="staff-username">User name</label>
      <input
        id="staff-username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        value={username}
        onChange={(e) => setUsername(e.target.value)}
      />
      <label htmlFor="staff-password">Password</label>
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
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        Log in
      </button>
      {sso && (
        <p>
          <a href={sso}>Use the casino&apos;s single sign-on</a>
        </p>
      )}
      <p className="muted">The token lasts a shift, kept for this browser tab only; signing out ends it.</p>
    </form>
  );
}

function RoleChoice(props: { readonly role: string; readonly onChange: (role: string) => void }) {
  return (
    <>
      <label htmlFor="staff-role">Act as</label>
      <select id="staff-role" value={props.role} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">my first role</option>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </>
  );
}
