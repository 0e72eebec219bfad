import { useState } from 'react';
import { Link } from 'react-router';
import { LibraryEntryDialog } from './LibraryEntryDialog';

/** "Save to library": a button that opens the entry form with the query filled in, and says where it went. */
export function SaveToLibrary({ query, label = 'Save to library' }: { query: string; label?: string }) {
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<string>();
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} disabled={!query.trim()}>
        {label}
      </button>
      {saved !== undefined && (
        <span role="status" className="muted">
          Saved “{saved}” to the <Link to="/library">library</Link>.
        </span>
      )}
      {open && (
        <LibraryEntryDialog
          title="Save to library"
          draft={{ Query: query }}
          onClose={() => setOpen(false)}
          onSaved={(e) => {
            setOpen(false);
            setSaved(e.Name);
          }}
        />
      )}
    </>
  );
}
