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
import { FileDialog } from './FileDialog';
import { deleteFile, fileMatches, fileUrl, listFiles, UserFile } from './files-api';
import { ReplaceFileDialog } from './ReplaceFileDialog';

const byName = (a: UserFile, b: UserFile) => a.Name.localeCompare(b.Name);

type Editing = { kind: 'new' } | { kind: 'edit' | 'replace' | 'delete'; f: UserFile };

/** User files: small files (images, notes, exports) the person keeps on the service and shares with groups. */
export function FilesPage() {
  const { user } = useAuth();
  const { prefs } = usePrefs();
  const groups = useAllGroups();
  const limits = useUploadLimits();
  const [admin, setAdmin] = useState(false);
  const names = useUserNames(true);
  const { list, error, reload: load } = useKeptList(listFiles, admin, byName, 'the files');
  const [failure, setFailure] = useState<string>();
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<Editing>();
  const [note, setNote] = useState<string>();

  const shown = useMemo(() => (list ?? []).filter((f) => fileMatches(f, text)), [list, text]);
  const ownerOf = (f: UserFile) => names.get(f.UID) ?? `user ${f.UID}`;
  /** Why the person may not change or delete it; undefined when they may. Outside admin mode only the owner may (admins switch to every user's files). */
  const readOnly = (f: UserFile) =>
    admin || f.UID === user.UID
      ? undefined
      : user.Admin
        ? `Tick “Every user's files” to change or delete a file of ${ownerOf(f)}.`
        : `Only its owner, ${ownerOf(f)}, may change or delete it.`;

  const done = (_f: UserFile, message: string) => {
    setEditing(undefined);
    setNote(message);
    load();
  };

  async function download(f: UserFile) {
    setNote(`Downloading “${f.Name}”…`);
    setFailure(undefined);
    try {
      await downloadFile(fileUrl(f, admin), f.Name);
      setNote(`Downloaded “${f.Name}” (${formatBytes(f.Size)}).`);
    } catch (err) {
      setNote(undefined);
      setFailure(`“${f.Name}” could not be downloaded: ${(err as Error).message}`);
    }
  }

  return (
    <KeptListPage
      id="files"
      title="Files"
      actions={
        <button type="button" className="primary" onClick={() => setEditing({ kind: 'new' })}>
          Upload a file
        </button>
      }
      intro={
        <>
          Small files kept on the service (images for dashboards, notes, exports): yours, your groups’ and the global ones.
          {limits.MaxFileSize ? ` Each may be up to ${formatBytes(limits.MaxFileSize)}.` : ''}
        </>
      }
      filter={{ what: 'the files', label: 'Search the files', placeholder: 'name, label, type…', text, onText: setText }}
      everyUsers={{ admin: user.Admin, checked: admin, onChange: setAdmin, what: 'files' }}
      messages={{ note, error: error ?? failure, list, loading: 'Loading the files…', empty: 'No files yet. Choose “Upload a file” and drop one in.' }}
      columns={['Name', 'Type', 'Size', 'Updated', 'Labels', 'Shared with', 'Actions']}
      tableLabel="Files"
      matches={shown.length}
      noMatch="No file matches the filter."
      dialogs={
        <>
          {editing?.kind === 'new' && <FileDialog admin={admin} maxSize={limits.MaxFileSize} onSaved={done} onClose={() => setEditing(undefined)} />}
          {editing?.kind === 'edit' && <FileDialog file={editing.f} admin={admin} onSaved={done} onClose={() => setEditing(undefined)} />}
          {editing?.kind === 'replace' && <ReplaceFileDialog file={editing.f} admin={admin} maxSize={limits.MaxFileSize} onSaved={done} onClose={() => setEditing(undefined)} />}
          {editing?.kind === 'delete' && (
            <DeleteDialog
              title="Delete file"
              message={<>Delete “{editing.f.Name}”? This cannot be undone.</>}
              remove={() => deleteFile(editing.f, admin)}
              onDeleted={() => done(editing.f, `Deleted “${editing.f.Name}”.`)}
              onClose={() => setEditing(undefined)}
            />
          )}
        </>
      }
    >
      {shown.map((f) => (
        <tr key={f.ThingUUID}>
          <OwnedNameCell name={f.Name} description={f.Desc} owner={f.UID !== user.UID ? ownerOf(f) : undefined} />
          <td className="nowrap">{f.Type || 'unknown'}</td>
          <td className="num">{formatBytes(f.Size)}</td>
          <td className="nowrap">{formatTime(f.Updated, prefs.timeZone).slice(0, 19)}</td>
          <td className="text-cell">{(f.Labels ?? []).join(', ')}</td>
          <td className="text-cell">{sharingText(f.GIDs, f.Global, groups)}</td>
          <td className="actions-cell">
            <RowActions label={f.Name} why={readOnly(f)}>
              <button type="button" onClick={() => void download(f)} aria-label={`Download ${f.Name}`}>
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
