import { ReactNode } from 'react';
import { GroupDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { groupNames } from '../ui/useGroups';
import { Dashboard } from './dashboards-api';

/** The dashboard's name, description and who sees it, beside its toolbar (`children`). */
export function DashboardHeader({ dashboard, groups, children }: { dashboard: Dashboard; groups: GroupDetails[] | undefined; children: ReactNode }) {
  const { user } = useAuth();
  return (
    <div className="dashboard-head">
      <div className="dashboard-name">
        <h1 id="dashboard-title">{dashboard.Name || 'Untitled dashboard'}</h1>
        {dashboard.Description && <p className="muted dashboard-desc">{dashboard.Description}</p>}
        <p className="muted dashboard-meta">{sharingText(dashboard, user.UID, groups)}</p>
      </div>
      {children}
    </div>
  );
}

/** "Yours, shared with ops" / "Shared with you through ops" / "Global": who sees it, in words. */
function sharingText(d: Dashboard, uid: number, groups: GroupDetails[] | undefined): string {
  const names = groupNames(d.GIDs ?? [], groups);
  const reach = [d.Global ? 'everyone' : '', ...names].filter(Boolean);
  if (d.UID === uid) return reach.length ? `Yours, shared with ${reach.join(', ')}` : 'Yours, not shared';
  if (d.Global) return `Shared with everyone${names.length ? ` and ${names.join(', ')}` : ''}`;
  return reach.length ? `Shared with you through ${reach.join(', ')}` : 'Not shared with you: you see it as an administrator';
}
