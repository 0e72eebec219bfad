import { useUploadLimits } from '../common-upload/useUploadLimits';
import { usePrefs } from '../prefs/PrefsContext';
import '../ui/keeping.css';
import { DeleteKeptDialog, KeptListPage, OwnedNameCell, useKeptPage } from '../ui/ListPage';
import { RowActions, RowButton } from '../ui/RowActions';
import { sharingText } from '../ui/SharingFields';
import { formatBytes, formatTime } from '../ui/time-format';
import { FileDialog } from './FileDialog';
import { deleteFile, fileMatches, fileUrl, listFiles, UserFile } from './files-api';
import { ReplaceFileDialog } from './ReplaceFileDialog';

const byName = (a: UserFile, b: UserFile) => a.Name.localeCompare(b.Name);

type Editing = { kind: 'new' } | { kind: 'edit' | 'replace' | 'delete'; f: UserFile };

/** User files: small files (images, notes, exports) the person keeps on the service and shares with groups. */
export function FilesPage() {
  const { prefs } = usePrefs();
  const limits = useUploadLimits();
  const page = useKeptPage<UserFile, Editing>({ read: listFiles, compare: byName, what: 'the files', matches: fileMatches, owners: 'always' });
  const { user, admin, shown, editing, setEditing } = page;

  /** Why the person may not change or delete it; undefined when they may. Outside admin mode only the owner may (admins switch to every user's files). */
  const readOnly = (f: UserFile) =>
    admin || f.UID === user.UID
      ? undefined
      : user.Admin
        ? `Tick “Every user's files” to change or delete a file of ${page.ownerOf(f)}.`
        : `Only its owner, ${page.ownerOf(f)}, may change or delete it.`;

  return (
    <KeptListPage
      page={page}
      id="files"
      title="Files"
      create={{ label: 'Upload a file', onClick: () => setEditing({ kind: 'new' }) }}
      intro={
        <>
          Small files kept on the service (images for dashboards, notes, exports): yours, your groups’ and the global ones.
          {limits.MaxFileSize ? ` Each may be up to ${formatBytes(limits.MaxFileSize)}.` : ''}
        </>
      }
      filter={{ what: 'the files', every: 'files', label: 'Search the files', placeholder: 'name, label, type…' }}
      loading="Loading the files…"
      empty="No files yet. Choose “Upload a file” and drop one in."
      columns={['Name', 'Type', 'Size', 'Updated', 'Labels', 'Shared with', 'Actions']}
      tableLabel="Files"
      noMatch="No file matches the filter."
      dialogs={
        <>
          {editing?.kind === 'new' && <FileDialog admin={admin} maxSize={limits.MaxFileSize} onSaved={page.saved} onClose={page.close} />}
          {editing?.kind === 'edit' && <FileDialog file={editing.f} admin={admin} onSaved={page.saved} onClose={page.close} />}
          {editing?.kind === 'replace' && <ReplaceFileDialog file={editing.f} admin={admin} maxSize={limits.MaxFileSize} onSaved={page.saved} onClose={page.close} />}
          {editing?.kind === 'delete' && <DeleteKeptDialog page={page} title="Delete file" name={editing.f.Name} run={() => deleteFile(editing.f, admin)} />}
        </>
      }
    >
      {shown.map((f) => (
        <tr key={f.ThingUUID}>
          <OwnedNameCell name={f.Name} description={f.Desc} owner={page.otherOwner(f)} />
          <td className="nowrap">{f.Type || 'unknown'}</td>
          <td className="num">{formatBytes(f.Size)}</td>
          <td className="nowrap">{formatTime(f.Updated, prefs.timeZone).slice(0, 19)}</td>
          <td className="text-cell">{(f.Labels ?? []).join(', ')}</td>
          <td className="text-cell">{sharingText(f.GIDs, f.Global, page.groups)}</td>
          <td className="actions-cell">
            <RowActions label={f.Name} why={readOnly(f)}>
              <button type="button" onClick={() => void page.download(fileUrl(f, admin), f.Name, f.Size)} aria-label={`Download ${f.Name}`}>
                Download
              </button>
              <RowButton unavailable={readOnly(f)} onClick={() => setEditing({ kind: 'replace', f })} aria-label={`Replace the contents of ${f.Name}`}>
                Replace
              </RowButton>
              <RowButton unavailable={readOnly(f)} onClick={() => setEditing({ kind: 'edit', f })} aria-label={`Edit ${f.Name}`}>
                Edit
              </RowButton>
              <RowButton unavailable={readOnly(f)} onClick={() => setEditing({ kind: 'delete', f })} aria-label={`Delete ${f.Name}`}>
                Delete
              </RowButton>
            </RowActions>
          </td>
        </tr>
      ))}
    </KeptListPage>
  );
}
