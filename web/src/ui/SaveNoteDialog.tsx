import { FormEvent } from 'react';
import { Dialog } from '../library/Dialog';
import { PersistentSearch, SaveNote } from './searches-api';

/** Save a search's results, with an optional name and notes kept alongside them. */
export function SaveNoteDialog({ search, onSave, onClose, error }: { search: PersistentSearch; onSave(note?: SaveNote): void; onClose(): void; error?: string }) {
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
        <p className="muted">The results of search {search.ID} are kept until you delete them, also across restarts of the service. A running search is saved when it finishes.</p>
        <label>
          Name (optional)
          <input name="name" maxLength={256} data-autofocus />
        </label>
        <label>
          Notes (optional)
          <textarea name="notes" rows={3} />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary">
            Save results
          </button>
        </div>
      </form>
    </Dialog>
  );
}
