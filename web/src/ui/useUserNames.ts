import { useState } from 'react';
import { api } from '../api/client';
import { UserDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { useCancellable } from './useCancellable';

/**
 * Usernames by UID, for owners of searches and entries. Only asked of the API when `needed`
 * (someone else's items may be on screen); the person's own name is always known.
 */
export function useUserNames(needed = true): Map<number, string> {
  const { user } = useAuth();
  const [names, setNames] = useState(() => new Map([[user.UID, user.User]]));
  // Not allowed to list users: UIDs are shown instead.
  useCancellable(
    () => (needed ? api<UserDetails[] | null>('/api/users') : undefined),
    { answer: (list) => setNames(new Map([...(list ?? []).map((u) => [u.UID, u.User] as const), [user.UID, user.User]])) },
    [needed, user.UID, user.User],
  );
  return names;
}
