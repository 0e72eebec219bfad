import { Dialog } from '../ui/Dialog';

/**
 * A save refused because someone saved the dashboard after it was read here (412): Reload shows
 * their version and drops the changes here; Overwrite saves these over theirs. Cancel keeps the
 * changes on the page, unsaved.
 */
export function ConflictDialog({ saving, onCancel, onReload, onOverwrite }: { saving: boolean; onCancel(): void; onReload(): void; onOverwrite(): void }) {
  return (
    <Dialog title="Someone else saved this dashboard" onClose={onCancel}>
      <p>Since you opened it, the dashboard was changed and saved by someone else (or by you, in another window).</p>
      <p>
        <strong>Reload</strong> shows their version and drops your changes; <strong>Overwrite</strong> saves yours over theirs.
      </p>
      <div className="dialog-buttons">
        <button type="button" onClick={onCancel} data-autofocus>
          Cancel
        </button>
        <button type="button" onClick={onReload}>
          Reload
        </button>
        <button type="button" className="danger" onClick={onOverwrite} disabled={saving}>
          Overwrite
        </button>
      </div>
    </Dialog>
  );
}
