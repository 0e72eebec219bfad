import { useId } from 'react';
import { LibraryEntry, LibraryEntryInput } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { createEntry, parseLabels, updateEntry } from './library-api';
import { readSharing, SharingFields } from '../ui/SharingFields';

export interface EntryDraft {
  Name?: string;
  Description?: string;
  Query: string;
  Labels?: string[];
  GIDs?: number[];
  Global?: boolean;
}

/**
 * Creates a library entry (no `entry`) or edits one: name, description, query, labels, the groups
 * of the person it is shared with, and (administrators) global. The API's refusal is shown as is.
 */
export function LibraryEntryDialog({
  title,
  draft,
  entry,
  admin,
  onSaved,
  onClose,
}: {
  title: string;
  draft: EntryDraft;
  entry?: LibraryEntry;
  admin?: boolean;
  onSaved(e: LibraryEntry): void;
  onClose(): void;
}) {
  const { user } = useAuth();
  const { error, busy, onSubmit } = useFormAction(act);
  const hint = useId();

  // Groups it is shared with that the person is not in (an administrator's edit) stay listed.

  function act(f: FormData): FormWork {
    const sharing = readSharing(f, user.Admin);
    const input: LibraryEntryInput = {
      Name: String(f.get('name') ?? '').trim(),
      Description: String(f.get('description') ?? ''),
      Query: String(f.get('query') ?? ''),
      Labels: parseLabels(String(f.get('labels') ?? '')),
      GIDs: sharing.gids,
    };
    if (sharing.global !== undefined) input.Global = sharing.global;
    if (!input.Name) return 'Give the entry a name.';
    if (!input.Query.trim()) return 'The query is empty.';
    return async () => {
      onSaved(entry ? await updateEntry(entry, input, admin) : await createEntry(input));
    };
  }

  return (
    <Dialog title={title} onClose={onClose} wide>
      <form className="entry-form" onSubmit={onSubmit}>
        <label>
          Name
          <input name="name" defaultValue={draft.Name ?? ''} required maxLength={256} data-autofocus />
        </label>
        <label>
          Description
          <textarea name="description" defaultValue={draft.Description ?? ''} rows={2} />
        </label>
        <label>
          Query
          <textarea name="query" className="mono" defaultValue={draft.Query} rows={3} required spellCheck={false} />
        </label>
        <label>
          Labels
          <input name="labels" defaultValue={(draft.Labels ?? []).join(', ')} aria-describedby={hint} />
          <span id={hint} className="muted small">
            Separate labels with commas.
          </span>
        </label>
        <SharingFields gids={draft.GIDs} global={draft.Global} alone="the entry is yours alone" />
        <FormFooter error={error} disabled={busy} submit={busy ? 'Saving…' : 'Save'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
