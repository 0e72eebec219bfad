import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { GroupDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { groupNames } from '../library/useMyGroups';

/** Every group (GET /api/groups), for an administrator, who may share with any of them; else undefined. */
function useEveryGroup(admin: boolean): GroupDetails[] | undefined {
  const [all, setAll] = useState<GroupDetails[]>();
  useEffect(() => {
    if (!admin) return;
    let live = true;
    api<GroupDetails[] | null>('/api/groups').then(
      (g) => live && setAll([...(g ?? [])].sort((a, b) => a.Name.localeCompare(b.Name))),
      () => undefined, // the person's own groups stay offered
    );
    return () => {
      live = false;
    };
  }, [admin]);
  return all;
}

/**
 * "Share with groups" checkboxes (named `gid`) and, for administrators, "Everyone (global)"
 * (named `global`), for a form read with FormData (readSharing). `groups`: the person's own
 * groups, which is what the service lets a non-admin share with; an administrator is offered
 * every group. Groups the object is already shared with stay listed. Used by every shareable
 * object's dialog (library entries, dashboards, resources, files).
 */
export function SharingFields({
  groups,
  gids,
  global,
  legend = 'Share with groups',
  alone = 'it stays yours alone',
}: {
  groups?: GroupDetails[];
  gids?: number[] | null;
  global?: boolean;
  legend?: string;
  /** what "no groups" means for this object, after "You belong to no groups: " */
  alone?: string;
}) {
  const { user } = useAuth();
  const every = useEveryGroup(user.Admin);
  const choices = every ?? groups;
  const shown = [...(choices ?? [])];
  for (const gid of gids ?? []) if (!shown.some((g) => g.GID === gid)) shown.push({ GID: gid, Name: `group ${gid}`, Desc: '' });
  return (
    <fieldset className="group-choices">
      <legend>{legend}</legend>
      {choices === undefined && <p className="muted small">Loading the groups…</p>}
      {choices !== undefined && shown.length === 0 && (
        <p className="muted small">{user.Admin ? `There are no groups yet (Admin → Groups makes one): ${alone}.` : `You belong to no groups: ${alone}.`}</p>
      )}
      {shown.map((g) => (
        <label key={g.GID} className="check">
          <input type="checkbox" name="gid" value={g.GID} defaultChecked={(gids ?? []).includes(g.GID)} />
          {g.Name}
        </label>
      ))}
      {user.Admin && (
        <label className="check">
          <input type="checkbox" name="global" defaultChecked={global ?? false} />
          Everyone (global)
        </label>
      )}
    </fieldset>
  );
}

/** The sharing the form holds: group IDs, and Global when the person is an administrator. */
export function readSharing(f: FormData, admin: boolean): { gids: number[]; global?: boolean } {
  const gids = f.getAll('gid').map(Number);
  return admin ? { gids, global: f.get('global') === 'on' } : { gids };
}

/** "everyone, ops, web" or "only the owner". */
export function sharingText(gids: number[] | null | undefined, global: boolean, groups: GroupDetails[] | undefined): string {
  const parts = groupNames(gids ?? [], groups);
  if (global) parts.unshift('everyone');
  return parts.length ? parts.join(', ') : 'only the owner';
}
