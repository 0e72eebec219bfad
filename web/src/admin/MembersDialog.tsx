import { FormEvent, useState } from 'react';
import { GroupDetails, UserDetails } from '../api/types';
import { Dialog } from '../ui/Dialog';
import { addGroups, removeGroup } from './admin-api';
import { membersOf } from './user-edit';
import { ErrorNote } from '../ui/ErrorNote';

/**
 * The members of a group: remove one, or add an account that is not in it. Each change is saved at
 * once; `onChanged` reloads the directory so the lists here follow.
 */
export function MembersDialog({ group, users, onChanged, onClose }: { group: GroupDetails; users: UserDetails[]; onChanged(message: string): void; onClose(): void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { members, others } = membersOf(group.GID, users);
  const [pick, setPick] = useState('');

  async function run(what: () => Promise<unknown>, message: string) {
    setBusy(true);
    setError(undefined);
    try {
      await what();
      onChanged(message);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  function add(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    const u = others.find((o) => String(o.UID) === pick);
    if (!u) return setError('Choose a user to add.');
    setPick('');
    void run(() => addGroups(u.UID, [group.GID]), `Added ${u.User} to ${group.Name}.`);
  }

  return (
    <Dialog title={`Members of ${group.Name}`} onClose={onClose} wide>
      {members.length === 0 ? (
        <p className="muted">Nobody is in this group yet.</p>
      ) : (
        <ul className="member-list" aria-label={`Members of ${group.Name}`}>
          {members.map((u) => (
            <li key={u.UID}>
              <span>
                {u.User}
                {u.Name && <span className="muted"> · {u.Name}</span>}
              </span>
              <button
                type="button"
                disabled={busy}
                onClick={() => void run(() => removeGroup(u.UID, group.GID), `Removed ${u.User} from ${group.Name}.`)}
                aria-label={`Remove ${u.User}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="add-member" onSubmit={add}>
        <label>
          Add a user
          <select value={pick} onChange={(e) => setPick(e.target.value)} disabled={others.length === 0}>
            <option value="">{others.length ? 'Choose…' : 'Everyone is a member'}</option>
            {others.map((u) => (
              <option key={u.UID} value={u.UID}>
                {u.Name ? `${u.User} (${u.Name})` : u.User}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy || !pick}>
          Add
        </button>
      </form>
      <ErrorNote message={error} />
      <div className="dialog-buttons">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
