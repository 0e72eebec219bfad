import { useState } from 'react';
import { api } from '../api/client';
import { GroupDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { useCancellable } from './useCancellable';

/**
 * The groups the signed-in person belongs to (GET /api/users/{id}/group), sorted by name; undefined
 * while loading. What a non-admin may share with. If they cannot be read, the groups the session
 * names stand in, with the refusal in `error`.
 */
export function useMyGroups(): { groups?: GroupDetails[]; error?: string } {
  const { user } = useAuth();
  const [groups, setGroups] = useState<GroupDetails[]>();
  const [error, setError] = useState<string>();
  useCancellable(
    () => api<GroupDetails[] | null>(`/api/users/${user.UID}/group`),
    {
      answer: (g) => setGroups(byName(g ?? [])),
      error: (err) => {
        setGroups(user.Groups ?? []);
        setError(err.message);
      },
    },
    [user.UID, user.Groups],
  );
  return { groups, error };
}

/**
 * Every group (GET /api/groups, which any signed-in person may read), sorted by name; undefined
 * while loading. Names the groups a thing is shared with, also those the person is not in (the
 * owner may have left the group, a global dashboard may name others). If the list cannot be read,
 * the person's own groups still name theirs.
 */
export function useAllGroups(): GroupDetails[] | undefined {
  const { user } = useAuth();
  const [groups, setGroups] = useState<GroupDetails[]>();
  useCancellable(() => api<GroupDetails[] | null>('/api/groups'), { answer: (g) => setGroups(byName(g ?? [])), error: () => setGroups(byName(user.Groups ?? [])) }, [
    user.UID,
    user.Groups,
  ]);
  return groups;
}

/**
 * "ops, web" for the entry's GIDs, by the names the person knows (else "group 7"); "…" for each
 * while the names are still loading, rather than a number that is about to change.
 */
export function groupNames(gids: number[] | undefined, groups: GroupDetails[] | undefined): string[] {
  return (gids ?? []).map((gid) => (groups === undefined ? '…' : (groups.find((g) => g.GID === gid)?.Name ?? `group ${gid}`)));
}

const byName = (g: GroupDetails[]): GroupDetails[] => [...g].sort((a, b) => a.Name.localeCompare(b.Name));
