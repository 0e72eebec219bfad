import { GroupDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { groupNames, useAllGroups, useMyGroups } from './useGroups';

/**
 * "Share with groups" checkboxes (named `gid`) and, for administrators, "Everyone (global)"
 * (named `global`), for a form read with FormData (readSharing). A non-admin is offered their own
 * groups, which is what the service lets them share with; an administrator is offered every group. Groups the object is already shared with stay listed. Used by every shareable
 * object's dialog (library entries, dashboards, resources, files).
 */
export function SharingFields({
  gids,
  global,
  legend = 'Share with groups',
  alone = 'it stays yours alone',
}: {
  gids?: number[] | null;
  global?: boolean;
  legend?: string;
  /** what "no groups" means for this object, after "You belong to no groups: " */
  alone?: string;
}) {
  const { user } = useAuth();
  const { groups } = useMyGroups();
  const all = useAllGroups();
  const choices = user.Admin ? all : groups;
  const shown = [...(choices ?? [])];
  // Groups it is already shared with that the person is not in (they left it, or an administrator shared it) stay listed, by name.
  for (const gid of gids ?? []) if (!shown.some((g) => g.GID === gid)) shown.push(all?.find((g) => g.GID === gid) ?? { GID: gid, Name: `group ${gid}`, Desc: '', Synced: false });
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
