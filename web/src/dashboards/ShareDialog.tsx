import { useAuth } from '../auth/AuthContext';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { readSharing, SharingFields } from '../ui/SharingFields';
import { ConflictError, Dashboard, getDashboard, saveDashboard } from './dashboards-api';

/**
 * Who may open a dashboard: the groups of the person (and groups it is already shared with),
 * and, for administrators, everyone. Saves the whole structure as just read, with the new sharing.
 */
const conflictInWords = (err: unknown) => (err instanceof ConflictError ? 'Someone saved the dashboard at this very moment; press Save again.' : (err as Error).message);

export function ShareDialog({ dashboard, onSaved, onClose }: { dashboard: Dashboard; onSaved(d: Dashboard): void; onClose(): void }) {
  const { user } = useAuth();
  const { error, busy, onSubmit } = useFormAction(act, conflictInWords);

  function act(f: FormData): FormWork {
    return async () => {
      const { dashboard: fresh, etag } = await getDashboard(dashboard.ID);
      const sharing = readSharing(f, user.Admin);
      const next: Dashboard = { ...fresh, GIDs: sharing.gids, ...(sharing.global === undefined ? {} : { Global: sharing.global }) };
      onSaved((await saveDashboard(next, etag)).dashboard);
    };
  }

  return (
    <Dialog title={`Share “${dashboard.Name}”`} onClose={onClose}>
      <form className="entry-form" onSubmit={onSubmit}>
        <SharingFields gids={dashboard.GIDs} global={dashboard.Global} legend="Groups that may open it" alone="the dashboard stays yours alone" />
        <p className="muted small">Members of these groups can open the dashboard; only its owner and administrators can change it.</p>
        <FormFooter error={error} disabled={busy} submit={busy ? 'Saving…' : 'Save'} onCancel={onClose} autoFocus="submit" />
      </form>
    </Dialog>
  );
}
