import { useState } from 'react';
import { Link } from 'react-router';
import { TemplateDialog } from './TemplateDialog';

/** "Save as template": the template form with the query filled in and a variable for each %%NAME%% in it; says where it went. */
export function SaveAsTemplate({ query }: { query: string }) {
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<string>();
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} disabled={!query.trim()}>
        Save as template
      </button>
      {saved !== undefined && (
        <span role="status" className="muted">
          Saved “{saved}” to the <Link to="/templates">templates</Link>.
        </span>
      )}
      {open && (
        <TemplateDialog
          title="Save as template"
          draft={{ query }}
          onClose={() => setOpen(false)}
          onSaved={(t) => {
            setOpen(false);
            setSaved(t.Name);
          }}
        />
      )}
    </>
  );
}
