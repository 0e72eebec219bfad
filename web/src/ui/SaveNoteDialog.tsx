import { FormEvent } from 'react';
import { Dialog, FormFooter } from './Dialog';
import type { SaveNote } from '../searches/searches-api';

/**
 * Save a search's results, with an optional name and notes kept alongside them (the save's
 * metadata), so several saved runs of one query can be told apart on the persistent searches page.
 * Opened from the search page's "Save results" and from the persistent searches page.
 */
export function SaveNoteDialog({ searchId, onSave, onClose, error }: { searchId: string; onSave(note?: SaveNote): void; onClose(): void; error?: string }) {
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const name = String(f.get('name') ?? '').trim();
    const notes = String(f.get('notes') ?? '').trim();
    onSave(name || notes ? { ...(name && { name }), ...(notes && { notes }) } : undefined);
  }
  return (
    <Dialog title="Save search results" onClose={onClose}>
      <form className="entry-form" onSubmit={submit}>
        <p className="muted">
          The results of search {searchId} are kept until you delete them, also across restarts of the service. A running search is saved when it finishes. A name tells this run
          apart from other saved runs of the same query.
        </p>
        <label>
          Name (optional)
          <input name="name" maxLength={256} data-autofocus />
        </label>
        <label>
          Notes (optional)
          <textarea name="notes" rows={3} />
        </label>
        <FormFooter error={error} submit="Save results" onCancel={onClose} />
      </form>
    </Dialog>
  );
}
