import { FormEvent, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { signInMessage, useAuth } from './AuthContext';
import { LoginLocationState } from './RequireAuth';
import { ErrorNote } from '../ui/ErrorNote';

export function LoginPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const { from, notice } = (location.state ?? {}) as LoginLocationState;
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const target = from && from.startsWith('/') && !from.startsWith('/login') ? from : '/search';

  if (auth.state.status === 'signedIn') return <Navigate to={target} replace />;
  const shownNotice = auth.state.status === 'signedOut' ? (auth.state.notice ?? notice) : notice;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      await auth.signIn(String(form.get('username') ?? ''), String(form.get('password') ?? ''));
      void navigate(target, { replace: true });
    } catch (err) {
      setError(signInMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login">
      <form className="login-card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Sign in to search</h1>
        {shownNotice && !error && (
          <p className="notice" role="status">
            {shownNotice}
          </p>
        )}
        <ErrorNote message={error} />
        <label>
          Username
          <input name="username" autoComplete="username" required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
