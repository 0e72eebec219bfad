import { useMemo, useState } from 'react';
import { useAuth } from '../auth/AuthContext';
import { downloadFile } from '../common-upload/download';
import { sharingText } from '../ui/SharingFields';
import { useAllGroups } from '../ui/useGroups';
import { useUploadLimits } from '../common-upload/useUploadLimits';
import '../ui/keeping.css';
import { usePrefs } from '../prefs/PrefsContext';
import { useUserNames } from '../ui/useUserNames';
import { DeleteDialog, KeptListPage, OwnedNameCell, useKeptList } from '../ui/ListPage';
import { RowActions, RowButton } from '../ui/RowActions';
import { formatBytes, formatTime } from '../ui/time-format';
import { CloneResourceDialog } from './CloneResourceDialog';
import { ResourceDialog } from './ResourceDialog';
import { ResourcePreviewDialog } from './ResourcePreviewDialog';
import { cloneName, deleteResource, listResources, resourceMatches, ResourceMeta, resourceRawUrl } from './resources-api';
import { ResourceUploadDialog } from './ResourceUploadDialog';

const byName = (a: ResourceMeta, b: ResourceMeta) => a.ResourceName.localeCompare(b.ResourceName);

type Editing = { kind: 'new' } | { kind: 'edit' | 'upload' | 'preview' | 'clone' | 'delete'; r: ResourceMeta };

/** Resources: named contents (lookup tables, scripts, …) the person owns or can read; upload, download, preview, share. */
export function ResourcesPage() {
  const { user } = useAuth();
  const { prefs } = usePrefs();
  const groups = useAllGroups();
  const limits = useUploadLimits();
  const [admin, setAdmin] = useState(false);
  const names = useUserNames(true);
  const { list, error, reload: load } = useKeptList(listResources, admin, byName, 'the resources');
  const [failure, setFailure] = useState<string>();
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<Editing>();
  const [note, setNote] = useState<string>();

  const shown = useMemo(() => (list ?? []).filter((r) => resourceMatches(r, text)), [list, text]);
  const ownerOf = (r: ResourceMeta) => names.get(r.UID) ?? `user ${r.UID}`;
  /** Why the person may not change or delete it (only its owner and administrators may); undefined when they may. */
  const readOnly = (r: ResourceMeta) => (user.Admin || r.UID === user.UID ? undefined : `Only its owner, ${ownerOf(r)}, or an administrator may change or delete it.`);

  const done = (_r: ResourceMeta, message: string) => {
    setEditing(undefined);
    setNote(message);
    load();
  };

  async function download(r: ResourceMeta) {
    setNote(`Downloading “${r.ResourceName}”…`);
    setFailure(undefined);
    try {
      await downloadFile(resourceRawUrl(r.GUID), r.ResourceName);
      setNote(`Downloaded “${r.ResourceName}” (${formatBytes(r.Size)}).`);
    } catch (err) {
      setNote(undefined);
      setFailure(`“${r.ResourceName}” could not be downloaded: ${(err as Error).message}`);
    }
  }

  return (
    <KeptListPage
      id="resources"
      title="Resources"
      actions={
        <button type="button" className="primary" onClick={() => setEditing({ kind: 'new' })}>
          New resource
        </button>
      }
      intro={
        <>
          Named contents that searches use: lookup tables, scripts, lists. Yours, your groups’ and the global ones are listed; share yours with your groups.
          {limits.MaxResourceSize ? ` Each may hold up to ${formatBytes(limits.MaxResourceSize)}.` : ''}
        </>
      }
      filter={{ what: 'the resources', label: 'Search the resources', placeholder: 'name, description, GUID…', text, onText: setText }}
      everyUsers={{ admin: user.Admin, checked: admin, onChange: setAdmin, what: 'resources' }}
      messages={{
        note,
        error: error ?? failure,
        list,
        loading: 'Loading the resources…',
        empty: 'No resources yet. Create one with “New resource” and drop a file into it.',
      }}
      columns={['Name', 'Size', 'Version', 'Modified', 'Shared with', 'Actions']}
      tableLabel="Resources"
      matches={shown.length}
      noMatch="No resource matches the filter."
      dialogs={
        <>
          {editing?.kind === 'new' && (
            <ResourceDialog
              maxSize={limits.MaxResourceSize}
              onSaved={done}
              onClose={() => {
                setEditing(undefined);
                load();
              }}
            />
          )}
          {editing?.kind === 'edit' && <ResourceDialog resource={editing.r} onSaved={done} onClose={() => setEditing(undefined)} />}
          {editing?.kind === 'upload' && <ResourceUploadDialog resource={editing.r} maxSize={limits.MaxResourceSize} onSaved={done} onClose={() => setEditing(undefined)} />}
          {editing?.kind === 'preview' && <ResourcePreviewDialog resource={editing.r} onClose={() => setEditing(undefined)} />}
          {editing?.kind === 'clone' && (
            <CloneResourceDialog
              resource={editing.r}
              suggested={cloneName(
                editing.r.ResourceName,
                (list ?? []).map((r) => r.ResourceName),
              )}
              onSaved={done}
              onClose={() => setEditing(undefined)}
            />
          )}
          {editing?.kind === 'delete' && (
            <DeleteDialog
              title="Delete resource"
              message={<>Delete “{editing.r.ResourceName}” and its contents? Searches that use it will fail. This cannot be undone.</>}
              remove={() => deleteResource(editing.r.GUID)}
              onDeleted={() => done(editing.r, `Deleted “${editing.r.ResourceName}”.`)}
              onClose={() => setEditing(undefined)}
            />
          )}
        </>
      }
    >
      {shown.map((r) => (
        <tr key={r.GUID}>
          <OwnedNameCell name={r.ResourceName} description={r.Description} owner={r.UID !== user.UID ? ownerOf(r) : undefined} />
          <td className="num">{r.Size > 0 ? formatBytes(r.Size) : 'empty'}</td>
          <td className="num">{r.VersionNumber}</td>
          <td className="nowrap">{formatTime(r.LastModified, prefs.timeZone).slice(0, 19)}</td>
          <td className="text-cell">{sharingText(r.GroupACL, r.Global, groups)}</td>
          <td className="actions-cell">
            <RowActions label={r.ResourceName} why={readOnly(r)}>
              <RowButton unavailable={readOnly(r)} onClick={() => setEditing({ kind: 'upload', r })} aria-label={`Upload contents of ${r.ResourceName}`}>
                Upload
              </RowButton>
              <RowButton
                unavailable={r.Size === 0 ? 'It is empty: nothing to download yet.' : undefined}
                onClick={() => void download(r)}
                aria-label={`Download ${r.ResourceName}`}
              >
                Download
              </RowButton>
              <button type="button" onClick={() => setEditing({ kind: 'preview', r })} aria-label={`Preview ${r.ResourceName}`}>
                Preview
              </button>
              <RowButton unavailable={readOnly(r)} onClick={() => setEditing({ kind: 'edit', r })} aria-label={`Edit ${r.ResourceName}`}>
                Edit
              </RowButton>
              <button type="button" onClick={() => setEditing({ kind: 'clone', r })} aria-label={`Clone ${r.ResourceName}`}>
                Clone
              </button>
              <RowButton unavailable={readOnly(r)} onClick={() => setEditing({ kind: 'delete', r })} aria-label={`Delete ${r.ResourceName}`}>
                Delete
              </RowButton>
            </RowActions>
          </td>
        </tr>
      ))}
    </KeptListPage>
  );
}
