import { useState } from 'react';
import { readToken } from '../api';

/** Paste a bearer token (the local ones `npm start` prints work). */
export function SignIn({ onSignIn }: { readonly onSignIn: (token: string) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="sign-in panel"
      onSubmit={(e) => {
        e.preventDefault();
        const token = text.trim();
        if (readToken(token) === null) {
          setError('That is not a Coup token: paste the whole bearer token (three dot-separated parts).');
          return;
        }
        onSignIn(token);
      }}
    >
      <h2>Sign in</h2>
      <label htmlFor="token">Bearer token</label>
      <textarea
        id="token"
        rows={4}
        value={text}
        autoFocus
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
      />
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <button type="submit">Sign in</button>
      <p className="muted">
        Kept for this browser tab only. Local tokens are printed by <code>npm start</code>.
      </p>
    </form>
  );
}
