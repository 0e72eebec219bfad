import { FormEvent, useState } from 'react';
import { useAuth } from '../auth/AuthContext';
import { Dialog } from '../library/Dialog';
import { useMyGroups } from '../library/useMyGroups';
import { ConflictError, Dashboard, getDashboard, saveDashboard } from './dashboards-api';

/**
 * Who may open a dashboard: the groups of the person (and groups it is already shared with),
 * and, for administrators, everyone. Saves the whole structure as just read, with the new sharing.
 */
export function ShareDialog({ dashboard, onSaved, onClose }: { dashboard: Dashboard; onSaved(d: Dashboard): void; onClose(): void }) {
  const { user } = useAuth();
  const { groups } = useMyGroups();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const shown = [...(groups ?? [])];
  for (const gid of dashboard.GIDs ?? []) if (!shown.some((g) => g.GID === gid)) shown.push({ GID: gid, Name: `group ${gid}`, Desc: '' });

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    const f = new FormData(e.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      const { dashboard: fresh, etag } = await getDashboard(dashboard.ID);
      const next: Dashboard = { ...fresh, GIDs: f.getAll('gid').map(Number) };
      if (user.Admin) next.Global = f.get('global') === 'on';
      onSaved((await saveDashboard(next, etag)).dashboard);
    } catch (err) {
      setError(err instanceof ConflictError ? 'Someone saved the dashboard at this very moment; press Save again.' : (err as Error).message);
      setBusy(false);
    }
  }

  return (
    <Dialog title={`Share “${dashboard.Name}”`} onClose={onClose}>
      <form className="entry-form" onSubmit={submit}>
        <fieldset className="group-choices">
          <legend>Groups that may open it</legend>
          {groups === undefined && <p className="muted small">Loading your groups…</p>}
          {groups !== undefined && shown.length === 0 && <p className="muted small">You belong to no groups: the dashboard stays yours alone.</p>}
          {shown.map((g) => (
            <label key={g.GID} className="check">
              <input type="checkbox" name="gid" value={g.GID} defaultChecked={(dashboard.GIDs ?? []).includes(g.GID)} />
              {g.Name}
            </label>
          ))}
          {user.Admin && (
            <label className="check">
              <input type="checkbox" name="global" defaultChecked={dashboard.Global} />
              Everyone (global)
            </label>
          )}
        </fieldset>
        <p className="muted small">Members of these groups can open the dashboard; only you{user.Admin ? '' : ' and administrators'} can change it.</p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy} data-autofocus>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
