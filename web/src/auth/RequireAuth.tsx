import { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from './AuthContext';

export interface LoginLocationState {
  from?: string;
  notice?: string;
}

/** Pages below it are for signed-in people; others go to /login and come back after signing in. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading')
    return (
      <p className="loading" role="status">
        Loading…
      </p>
    );
  if (state.status === 'signedOut') {
    const from = location.pathname + location.search;
    return <Navigate to="/login" replace state={{ from, notice: state.notice } satisfies LoginLocationState} />;
  }
  return <>{children}</>;
}
