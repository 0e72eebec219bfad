import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { GroupDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';

/**
 * Every group (GET /api/groups, which any signed-in person may read), sorted by name; undefined
 * while loading. Names the groups a thing is shared with, also those the person is not in (the
 * owner may have left the group, a global dashboard may name others). If the list cannot be read,
 * the person's own groups still name theirs.
 */
export function useAllGroups(): GroupDetails[] | undefined {
  const { user } = useAuth();
  const [groups, setGroups] = useState<GroupDetails[]>();
  useEffect(() => {
    let live = true;
    api<GroupDetails[] | null>('/api/groups').then(
      (g) => live && setGroups(byName(g ?? [])),
      () => live && setGroups(byName(user.Groups ?? [])),
    );
    return () => {
      live = false;
    };
  }, [user.UID, user.Groups]);
  return groups;
}

const byName = (g: GroupDetails[]): GroupDetails[] => [...g].sort((a, b) => a.Name.localeCompare(b.Name));
