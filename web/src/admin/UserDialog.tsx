import { FormEvent, useId, useState } from 'react';
import { GroupDetails, UserDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { Dialog, FormFooter } from '../ui/Dialog';
import { createUser, PartlyDone, saveUser } from './admin-api';
import { editOf } from './user-edit';

/**
 * Creates an account (no `user`) or edits one: username, name, email, the administrator switch,
 * its groups and its default search group. The API's refusal is shown as is.
 */
export function UserDialog({
  user,
  groups,
  onSaved,
  onClose,
}: {
  user?: UserDetails;
  groups: GroupDetails[];
  /** `problem`: part of it was refused (the words say which) */
  onSaved(message: string, problem?: boolean): void;
  onClose(): void;
}) {
  const me = useAuth().user;
  const start = user ? editOf(user) : { User: '', Name: '', Email: '', Admin: false, GIDs: [], DefaultGID: 0 };
  const [gids, setGids] = useState<number[]>(start.GIDs);
  const [defaultGid, setDefaultGid] = useState(start.DefaultGID);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const selfHint = useId();
  const groupHint = useId();
  const passHint = useId();
  const self = user?.UID === me.UID;

  const toggle = (gid: number, on: boolean) => {
    setGids((now) => (on ? [...now, gid] : now.filter((g) => g !== gid)));
    if (!on && gid === defaultGid) setDefaultGid(0);
  };

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? '').trim();
    const edit = { User: text('user'), Name: text('name'), Email: text('email'), Admin: self ? start.Admin : f.get('admin') === 'on', GIDs: gids, DefaultGID: defaultGid };
    if (!edit.User) return setError('Give the account a username.');
    setError(undefined);
    setBusy(true);
    try {
      if (user) {
        const changes = await saveUser(user, edit);
        onSaved(changes ? `Saved the changes to ${edit.User}.` : `Nothing to change for ${edit.User}.`);
      } else {
        const pass = String(f.get('pass') ?? '');
        if (pass !== String(f.get('pass2') ?? '')) {
          setBusy(false);
          return setError('The two passwords differ.');
        }
        await createUser({ User: edit.User, Pass: pass, Name: edit.Name, Email: edit.Email, Admin: edit.Admin }, gids, defaultGid);
        onSaved(`Created ${edit.User}.`);
      }
    } catch (err) {
      if (err instanceof PartlyDone) return onSaved(err.message, true);
      setError((err as Error).message);
      setBusy(false);
    }
  }

  const chosen = groups.filter((g) => gids.includes(g.GID));
  return (
    <Dialog title={user ? `Edit ${user.User}` : 'New user'} onClose={onClose} wide>
      <form className="entry-form" onSubmit={submit}>
        <label>
          Username
          <input name="user" defaultValue={start.User} required maxLength={128} autoComplete="off" data-autofocus />
        </label>
        <label>
          Name
          <input name="name" defaultValue={start.Name} maxLength={256} autoComplete="off" />
        </label>
        <label>
          Email
          <input name="email" type="email" defaultValue={start.Email} maxLength={320} autoComplete="off" />
        </label>
        {!user && (
          <>
            <label>
              Password
              <input name="pass" type="password" required minLength={8} maxLength={72} autoComplete="new-password" aria-describedby={passHint} />
            </label>
            <p id={passHint} className="muted small hint">
              8 to 72 characters. Hand it to the person over a safe channel.
            </p>
            <label>
              Repeat the password
              <input name="pass2" type="password" required minLength={8} maxLength={72} autoComplete="new-password" />
            </label>
          </>
        )}
        <label className="check">
          <input name="admin" type="checkbox" role="switch" defaultChecked={start.Admin} disabled={self} aria-describedby={self ? selfHint : undefined} />
          Administrator
        </label>
        {self && (
          <p id={selfHint} className="muted small">
            You cannot take away your own administrator status here; another administrator can.
          </p>
        )}
        <fieldset className="group-choices">
          <legend>Groups</legend>
          {groups.length === 0 && <p className="muted small">There are no groups yet: create them on the Groups page.</p>}
          {groups.map((g) => (
            <label key={g.GID} className="check">
              <input type="checkbox" checked={gids.includes(g.GID)} onChange={(e) => toggle(g.GID, e.target.checked)} />
              {g.Name}
            </label>
          ))}
        </fieldset>
        <label>
          Default search group
          <select value={defaultGid} onChange={(e) => setDefaultGid(Number(e.target.value))} aria-describedby={groupHint}>
            <option value={0}>None</option>
            {chosen.map((g) => (
              <option key={g.GID} value={g.GID}>
                {g.Name}
              </option>
            ))}
          </select>
        </label>
        <p id={groupHint} className="muted small hint">
          {chosen.length ? 'Searches this user runs are shared with this group by default.' : 'One of the groups above; tick a group first.'}
        </p>
        <FormFooter error={error} disabled={busy} submit={busy ? 'Saving…' : user ? 'Save' : 'Create user'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
