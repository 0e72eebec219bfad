import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, onSessionEnded } from '../api/client';
import { UserDetails } from '../api/types';
import { useCancellable } from '../ui/useCancellable';
import { forgetSession, hadSession } from './session-cookie';

export type AuthState = { status: 'loading' } | { status: 'signedOut'; notice?: string } | { status: 'signedIn'; user: UserDetails };

export interface Auth {
  state: AuthState;
  /** the signed-in user; only call under <RequireAuth> */
  user: UserDetails;
  signIn(user: string, password: string): Promise<void>;
  /** ends this session, or every session of the account, after the sign-out hooks have run */
  signOut(everywhere?: boolean): Promise<void>;
  /**
   * Work a page does while the session still holds, before signing out (the search page detaches
   * its searches, which a 401 would refuse afterwards). Returns the unregister function.
   */
  onSignOut(hook: SignOutHook): () => void;
}

export type SignOutHook = () => unknown;

/** How long signing out waits for the hooks: a hanging service must not keep anyone signed in. */
export const SIGN_OUT_WAIT_MS = 3000;

export const SESSION_ENDED = 'Your session has ended: it expired, was signed out elsewhere, or the account was locked. Sign in again.';

const AuthContext = createContext<Auth | null>(null);

/** Words for a failed sign-in, from the service's status (README: 422, 423, 429). */
export function signInMessage(err: unknown): string {
  if (!(err instanceof ApiError)) return 'Sign-in failed. Try again.';
  switch (err.status) {
    case 422:
      return 'Wrong username or password.';
    case 423:
      return 'This account is locked. Ask an administrator to unlock it.';
    case 429: {
      const minutes = err.retryAfter ? Math.max(1, Math.ceil(err.retryAfter / 60)) : undefined;
      return `Too many failed sign-ins. Try again ${minutes ? `in ${minutes} minute${minutes === 1 ? '' : 's'}` : 'later'}.`;
    }
    case 503:
      return 'The service is busy. Try again in a moment.';
    case 400:
      return err.message;
    default:
      return err.status === 0 ? err.message : `Sign-in failed: ${err.message}`;
  }
}

const whoami = () => api<UserDetails>('/api/info/whoami', { expect401: true });

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ status: 'loading' });
  const hooks = useRef(new Set<SignOutHook>());

  useCancellable(
    whoami,
    {
      answer: (user) => setState({ status: 'signedIn', user }),
      error: (err) => {
        const expected = hadSession();
        forgetSession();
        setState({
          status: 'signedOut',
          notice: err instanceof ApiError && err.status === 401 && expected ? SESSION_ENDED : err instanceof ApiError && err.status !== 401 ? err.message : undefined,
        });
      },
    },
    [],
  );

  useEffect(
    () =>
      onSessionEnded(() => {
        forgetSession();
        setState((s) => (s.status === 'signedIn' ? { status: 'signedOut', notice: SESSION_ENDED } : s));
      }),
    [],
  );

  const signIn = useCallback(async (user: string, password: string) => {
    await api('/api/login', { method: 'POST', json: { User: user, Pass: password }, expect401: true });
    setState({ status: 'signedIn', user: await whoami() });
  }, []);

  const onSignOut = useCallback((hook: SignOutHook) => {
    hooks.current.add(hook);
    return () => void hooks.current.delete(hook);
  }, []);

  const signOut = useCallback(async (everywhere = false) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled([...hooks.current].map(async (hook) => hook())), new Promise((resolve) => (timer = setTimeout(resolve, SIGN_OUT_WAIT_MS)))]);
    clearTimeout(timer);
    try {
      await api('/api/logout', { method: everywhere ? 'DELETE' : 'PUT', expect401: true });
    } catch {
      // already ended: the cookie is cleared by the service either way
    }
    forgetSession();
    setState({ status: 'signedOut', notice: everywhere ? 'You have signed out of every session.' : 'You have signed out.' });
  }, []);

  const value = useMemo<Auth>(
    () => ({
      state,
      get user(): UserDetails {
        if (state.status !== 'signedIn') throw new Error('not signed in');
        return state.user;
      },
      signIn,
      signOut,
      onSignOut,
    }),
    [state, signIn, signOut, onSignOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside <AuthProvider>');
  return auth;
}
