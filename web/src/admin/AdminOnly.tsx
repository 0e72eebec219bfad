import { ReactNode, useCallback, useState } from 'react';
import { GroupDetails, UserDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { listGroups, listUsers } from './admin-api';
import { useCancellable } from '../ui/useCancellable';
import '../ui/keeping.css';
import './admin.css';

/**
 * The administration pages, for administrators only. The console hides them from others; the API
 * refuses their calls anyway (403), so this is a courtesy, not the protection.
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (user.Admin) return <>{children}</>;
  return (
    <section className="page-message" role="alert" aria-labelledby="admins-only">
      <h1 id="admins-only">Admins only</h1>
      <p>This page is for administrators. Your account ({user.User}) is not one; ask an administrator if you need a change to users or groups.</p>
    </section>
  );
}

export interface Directory {
  users?: UserDetails[];
  groups?: GroupDetails[];
  error?: string;
  reload(): void;
}

/** Every account and every group, read together (a user's groups come with the user). */
export function useDirectory(): Directory {
  const [users, setUsers] = useState<UserDetails[]>();
  const [groups, setGroups] = useState<GroupDetails[]>();
  const [error, setError] = useState<string>();
  const [round, setRound] = useState(0);
  useCancellable(
    () => Promise.all([listUsers(), listGroups()]),
    {
      answer: ([u, g]) => {
        setUsers(u);
        setGroups(g);
        setError(undefined);
      },
      error: (err) => setError(`Users and groups could not be read: ${err.message}`),
    },
    [round],
  );
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { users, groups, error, reload };
}
