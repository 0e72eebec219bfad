import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { GroupDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';

/** The groups the signed-in person belongs to (GET /api/users/{id}/group); undefined while loading. */
export function useMyGroups(): { groups?: GroupDetails[]; error?: string } {
  const { user } = useAuth();
  const [groups, setGroups] = useState<GroupDetails[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    api<GroupDetails[] | null>(`/api/users/${user.UID}/group`).then(
      (g) => live && setGroups([...(g ?? [])].sort((a, b) => a.Name.localeCompare(b.Name))),
      (err: Error) => {
        if (!live) return;
        setGroups(user.Groups ?? []);
        setError(err.message);
      },
    );
    return () => {
      live = false;
    };
  }, [user.UID, user.Groups]);
  return { groups, error };
}

/** "ops, web" for the entry's GIDs, by the names the person knows (else "group 7"). */
export function groupNames(gids: number[] | undefined, groups: GroupDetails[] | undefined): string[] {
  return (gids ?? []).map((gid) => groups?.find((g) => g.GID === gid)?.Name ?? `group ${gid}`);
}
