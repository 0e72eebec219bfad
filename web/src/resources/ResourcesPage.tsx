import { useUploadLimits } from '../common-upload/useUploadLimits';
import { usePrefs } from '../prefs/PrefsContext';
import '../ui/keeping.css';
import { DeleteKeptDialog, KeptListPage, OwnedNameCell, useKeptPage } from '../ui/ListPage';
import { RowActions, RowButton } from '../ui/RowActions';
import { sharingText } from '../ui/SharingFields';
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
  const { prefs } = usePrefs();
  const limits = useUploadLimits();
  const page = useKeptPage<ResourceMeta, Editing>({ read: listResources, compare: byName, what: 'the resources', matches: resourceMatches, owners: 'always' });
  const { user, list, shown, editing, setEditing } = page;

  /** Why the person may not change or delete it (only its owner and administrators may); undefined when they may. */
  const readOnly = (r: ResourceMeta) => (user.Admin || r.UID === user.UID ? undefined : `Only its owner, ${page.ownerOf(r)}, or an administrator may change or delete it.`);

  return (
    <KeptListPage
      page={page}
      id="resources"
      title="Resources"
      create={{ label: 'New resource', onClick: () => setEditing({ kind: 'new' }) }}
      intro={
        <>
          Named contents that searches use: lookup tables, scripts, lists. Yours, your groups’ and the global ones are listed; share yours with your groups.
          {limits.MaxResourceSize ? ` Each may hold up to ${formatBytes(limits.MaxResourceSize)}.` : ''}
        </>
      }
      filter={{ what: 'the resources', every: 'resources', label: 'Search the resources', placeholder: 'name, description, GUID…' }}
      loading="Loading the resources…"
      empty="No resources yet. Create one with “New resource” and drop a file into it."
      columns={['Name', 'Size', 'Version', 'Modified', 'Shared with', 'Actions']}
      tableLabel="Resources"
      noMatch="No resource matches the filter."
      dialogs={
        <>
          {editing?.kind === 'new' && (
            <ResourceDialog
              maxSize={limits.MaxResourceSize}
              onSaved={page.saved}
              onClose={() => {
                page.close();
                page.reload();
              }}
            />
          )}
          {editing?.kind === 'edit' && <ResourceDialog resource={editing.r} onSaved={page.saved} onClose={page.close} />}
          {editing?.kind === 'upload' && <ResourceUploadDialog resource={editing.r} maxSize={limits.MaxResourceSize} onSaved={page.saved} onClose={page.close} />}
          {editing?.kind === 'preview' && <ResourcePreviewDialog resource={editing.r} onClose={page.close} />}
          {editing?.kind === 'clone' && (
            <CloneResourceDialog
              resource={editing.r}
              suggested={cloneName(
                editing.r.ResourceName,
                (list ?? []).map((r) => r.ResourceName),
              )}
              onSaved={page.saved}
              onClose={page.close}
            />
          )}
          {editing?.kind === 'delete' && (
            <DeleteKeptDialog
              page={page}
              title="Delete resource"
              name={editing.r.ResourceName}
              from=" and its contents"
              consequence="Searches that use it will fail."
              run={() => deleteResource(editing.r.GUID)}
            />
          )}
        </>
      }
    >
      {shown.map((r) => (
        <tr key={r.GUID}>
          <OwnedNameCell name={r.ResourceName} description={r.Description} owner={page.otherOwner(r)} />
          <td className="num">{r.Size > 0 ? formatBytes(r.Size) : 'empty'}</td>
          <td className="num">{r.VersionNumber}</td>
          <td className="nowrap">{formatTime(r.LastModified, prefs.timeZone).slice(0, 19)}</td>
          <td className="text-cell">{sharingText(r.GroupACL, r.Global, page.groups)}</td>
          <td className="actions-cell">
            <RowActions label={r.ResourceName} why={readOnly(r)}>
              <RowButton unavailable={readOnly(r)} onClick={() => setEditing({ kind: 'upload', r })} aria-label={`Upload contents of ${r.ResourceName}`}>
                Upload
              </RowButton>
              <RowButton
                unavailable={r.Size === 0 ? 'It is empty: nothing to download yet.' : undefined}
                onClick={() => void page.download(resourceRawUrl(r.GUID), r.ResourceName, r.Size)}
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
