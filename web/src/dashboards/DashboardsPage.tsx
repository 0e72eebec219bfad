import { ChangeEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { saveBlob } from '../common-upload/download';
import { usePrefs } from '../prefs/PrefsContext';
import '../ui/keeping.css';
import { LabelChips } from '../ui/LabelChips';
import { DeleteKeptDialog, KeptListPage, OwnedNameCell, useKeptPage } from '../ui/ListPage';
import { sharingText } from '../ui/SharingFields';
import { RowActions, RowButton } from '../ui/RowActions';
import { formatTime } from '../ui/time-format';
import { readDashboardData } from './dashboard-data';
import { createDashboard, Dashboard, dashboardMatches, deleteDashboard, exportable, exportFileName, getDashboard, listDashboards, parseImport } from './dashboards-api';
import { NewDashboardDialog } from './NewDashboardDialog';
import { ShareDialog } from './ShareDialog';
import './dashboards.css';

const byName = (a: Dashboard, b: Dashboard) => a.Name.localeCompare(b.Name) || a.ID - b.ID;

type Editing = { kind: 'new' } | { kind: 'share' | 'delete'; dashboard: Dashboard };

function tileCount(d: Dashboard): string {
  const r = readDashboardData(d.Data);
  if (!r.ok) return 'unreadable';
  const n = r.view.tiles.length;
  return n === 1 ? '1 tile' : `${n} tiles`;
}

/** The dashboards the person can open (own, through a group, global): find, open, make, copy, share, export, import, delete. */
export function DashboardsPage() {
  const { prefs } = usePrefs();
  const page = useKeptPage<Dashboard, Editing>({ read: listDashboards, compare: byName, what: 'the dashboards', matches: dashboardMatches, owners: 'others' });
  const { user, shown, label, setLabel, editing, setEditing, setNote } = page;
  const navigate = useNavigate();
  /** Why the person may not share or delete it (only its owner and administrators may); undefined when they may. */
  const readOnly = (d: Dashboard) => (d.UID === user.UID || user.Admin ? undefined : `Only its owner, ${page.ownerOf(d)}, or an administrator may share or delete it.`);

  async function act(what: () => Promise<string>) {
    setNote(undefined);
    try {
      setNote(await what());
      page.reload();
    } catch (err) {
      setNote(`Failed: ${(err as Error).message}`);
    }
  }

  const clone = (d: Dashboard) =>
    act(async () => {
      const { dashboard } = await getDashboard(d.ID);
      const name = `Copy of ${dashboard.Name}`.slice(0, 256);
      await createDashboard({ Name: name, Description: dashboard.Description, Labels: dashboard.Labels ?? [], GIDs: [], Data: dashboard.Data });
      return `Made “${name}”.`;
    });

  const exportOne = (d: Dashboard) =>
    act(async () => {
      const { dashboard } = await getDashboard(d.ID);
      saveBlob(new Blob([`${JSON.stringify(exportable(dashboard), null, 2)}\n`], { type: 'application/json' }), exportFileName(dashboard.Name));
      return `Exported “${dashboard.Name}”.`;
    });

  const importFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    void act(async () => {
      if (file.size > 8 * 1024 * 1024) throw new Error(`${file.name} is too large for a dashboard (over 8 MiB).`);
      const parsed = parseImport(await file.text());
      const id = await createDashboard({ ...parsed, GIDs: [] });
      return `Imported “${parsed.Name}” (ID ${id}).`;
    });
  };

  return (
    <KeptListPage
      page={page}
      id="dashboards"
      title="Dashboards"
      create={{ label: 'New dashboard', onClick: () => setEditing({ kind: 'new' }) }}
      actions={
        <label className="button file-button">
          Import from JSON
          <input type="file" accept="application/json,.json" className="visually-hidden" onChange={importFile} />
        </label>
      }
      intro="Searches side by side, each result a tile. Yours, those shared with your groups, and global ones. On the search page, “Add to dashboard” puts the search you ran on one."
      filter={{ what: 'the dashboards', every: 'dashboards', label: 'Search dashboards', placeholder: 'name, description, label…' }}
      labels
      loading="Loading the dashboards…"
      empty="No dashboards yet. Make one with “New dashboard”, or run a search and choose “Add to dashboard”."
      columns={['Name', 'Tiles', 'Labels', 'Shared with', 'Updated', 'Actions']}
      tableLabel="Dashboards"
      noMatch="No dashboard matches the filter."
      dialogs={
        <>
          {editing?.kind === 'new' && (
            <NewDashboardDialog
              onClose={page.close}
              onCreated={(id) => {
                setEditing(undefined);
                void navigate(`/dashboards/${id}`);
              }}
            />
          )}
          {editing?.kind === 'share' && <ShareDialog dashboard={editing.dashboard} onClose={page.close} onSaved={(d) => page.done(`Sharing of “${d.Name}” saved.`)} />}
          {editing?.kind === 'delete' && (
            <DeleteKeptDialog
              page={page}
              title="Delete dashboard"
              name={editing.dashboard.Name}
              consequence="Its tiles and layout are lost; the searches in the library stay."
              run={() => deleteDashboard(editing.dashboard.ID)}
            />
          )}
        </>
      }
    >
      {shown.map((d) => (
        <tr key={d.ID}>
          <OwnedNameCell name={<Link to={`/dashboards/${d.ID}`}>{d.Name || 'Untitled dashboard'}</Link>} description={d.Description} owner={page.otherOwner(d)} />
          <td className="nowrap">{tileCount(d)}</td>
          <td className="text-cell">
            <LabelChips labels={d.Labels} what="dashboards" active={label} onPick={setLabel} />
          </td>
          <td className="text-cell">{sharingText(d.GIDs, d.Global, page.groups)}</td>
          <td className="nowrap when">{formatTime(d.Updated, prefs.timeZone).slice(0, 16)}</td>
          <td className="actions-cell">
            <RowActions label={d.Name} why={readOnly(d)}>
              <button type="button" onClick={() => void navigate(`/dashboards/${d.ID}`)} aria-label={`Open ${d.Name}`}>
                Open
              </button>
              <button type="button" onClick={() => void clone(d)} aria-label={`Clone ${d.Name}`}>
                Clone
              </button>
              <button type="button" onClick={() => void exportOne(d)} aria-label={`Export ${d.Name}`}>
                Export
              </button>
              <RowButton unavailable={readOnly(d)} onClick={() => setEditing({ kind: 'share', dashboard: d })} aria-label={`Share ${d.Name}`}>
                Share
              </RowButton>
              <RowButton unavailable={readOnly(d)} onClick={() => setEditing({ kind: 'delete', dashboard: d })} aria-label={`Delete ${d.Name}`}>
                Delete
              </RowButton>
            </RowActions>
          </td>
        </tr>
      ))}
    </KeptListPage>
  );
}
