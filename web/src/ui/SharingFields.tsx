import { GroupDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { groupNames } from '../library/useMyGroups';

/**
 * "Share with groups" checkboxes (named `gid`) and, for administrators, "Everyone (global)"
 * (named `global`), for a form read with FormData (readSharing). Groups the object is shared
 * with that the person is not in (an administrator's edit) stay listed. Used by every shareable
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
  const shown = [...(groups ?? [])];
  for (const gid of gids ?? []) if (!shown.some((g) => g.GID === gid)) shown.push({ GID: gid, Name: `group ${gid}`, Desc: '' });
  return (
    <fieldset className="group-choices">
      <legend>{legend}</legend>
      {groups === undefined && <p className="muted small">Loading your groups…</p>}
      {groups !== undefined && shown.length === 0 && <p className="muted small">You belong to no groups: {alone}.</p>}
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
