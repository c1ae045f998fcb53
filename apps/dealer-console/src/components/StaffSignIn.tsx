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

/**
 * Staff sign-in with a user name and password (`POST /api/auth/sign-in`), or the casino's single sign-on when the
 * service offers it (`GET /api/auth/options`). The token it answers goes to `onSignIn`, as a pasted one does.
 */
export function StaffSignIn({ onSignIn }: { readonly onSignIn: (token: string) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sso, setSso] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    fetch('/api/auth/options')
      .then((r) => (r.ok ? r.json() : null))
      .then((o: { sso?: { start?: unknown } | null } | null) => {
        if (live && typeof o?.sso?.start === 'string') setSso(o.sso.start);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/api/auth/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password, ...(role ? { role } : {}) }),
      });
      const body = (await res.json()) as {
        token?: string;
        code?: string;
        message?: string;
        details?: Record<string, unknown>;
      };
      if (res.ok && body.token) {
        setPassword('');
        onSignIn(body.token);
      } else
        setError(sayRefusal(body.code ?? `HTTP_${res.status}`, body.message ?? res.statusText, body.details));
    } catch {
      setError('The service cannot be reached.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="sign-in staff-sign-in panel"
      aria-label="Staff sign-in"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
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
      <label htmlFor="staff-role">Act as</label>
      <select id="staff-role" value={role} onChange={(e) => setRole(e.target.value)}>
        <option value="">my first role</option>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
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
