import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { UserDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { ActionDialog } from '../ui/Dialog';
import { deleteUser, setLocked } from './admin-api';
import { AdminOnly, useDirectory } from './AdminOnly';
import { AllowSignInDialog } from './AllowSignInDialog';
import { LockDialog } from './LockDialog';
import { PasswordDialog } from './PasswordDialog';
import { nextBlockEnd, signInState } from './sign-in-state';
import { defaultGroupName, userMatches } from './user-edit';
import { UserDialog } from './UserDialog';
import { UserStatus } from './UserStatus';
import { ListMessages } from '../ui/ListPage';
import { ListTable } from '../ui/TableScroller';
import { RowActions } from '../ui/RowActions';
import { FilterBar, SearchBox } from '../ui/Filters';

/** The default account: it cannot be deleted or demoted (contract rule 4). */
const PRIMARY_ADMIN_UID = 1;

type Open = { kind: 'new' } | { kind: 'edit' | 'password' | 'lock' | 'allow' | 'delete'; user: UserDetails };

/** Users, for administrators: every account with its groups; create, edit, lock, reset, delete. */
export function UsersPage() {
  return (
    <AdminOnly>
      <Users />
    </AdminOnly>
  );
}

function Users() {
  const me = useAuth().user;
  const { users, groups, error, reload } = useDirectory();
  const [text, setText] = useState('');
  const [open, setOpen] = useState<Open>();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();
  const shown = useMemo(() => (users ?? []).filter((u) => userMatches(u, text)), [users, text]);

  // A sign-in block ends by itself: read the users again when the first one does.
  useEffect(() => {
    const ms = users && nextBlockEnd(users);
    if (ms === undefined) return;
    const t = setTimeout(reload, Math.min(ms + 1000, 2 ** 31 - 1));
    return () => clearTimeout(t);
  }, [users, reload]);

  const done = (message: string, problem = false) => {
    setOpen(undefined);
    setOutcome({ ok: !problem, text: message });
    reload();
  };

  async function unlock(u: UserDetails) {
    try {
      await setLocked(u.UID, false);
      done(`Unlocked ${u.User}: they can sign in again.`);
    } catch (err) {
      setOutcome({ ok: false, text: `${u.User} could not be unlocked: ${(err as Error).message}` });
    }
  }

  return (
    <section className="keeping-page admin-page" aria-labelledby="users-title">
      <div className="page-head">
        <h1 id="users-title">Users</h1>
        <button type="button" className="primary" onClick={() => setOpen({ kind: 'new' })} disabled={!groups} title={groups ? undefined : 'The groups are still being read.'}>
          New user
        </button>
      </div>
      <p className="muted intro">
        Every account of the service. Locking an account ends its sessions at once; groups decide what is shared with whom (manage them on the{' '}
        <Link to="/admin/groups">Groups</Link> page).
      </p>
      <FilterBar label="Filter the users">
        <SearchBox label="Search users" value={text} onChange={setText} placeholder="username, name, email, group…" />
      </FilterBar>
      <ListMessages note={outcome?.text} noteIsError={outcome ? !outcome.ok : false} error={error} list={users} loading="Loading the users…" />
      {users && (
        <ListTable label="Users" columns={['Username', 'Name', 'Email', 'Role', 'Status', 'Groups', 'Default search group', 'Actions']}>
          {shown.map((u) => (
            <tr key={u.UID} className={u.Locked ? 'locked' : undefined}>
              <th scope="row">
                {u.User}
                {u.UID === me.UID && <span className="muted desc">you</span>}
              </th>
              <td className="text-cell">{u.Name}</td>
              <td className="text-cell">{u.Email}</td>
              <td className="text-cell nowrap">{u.Admin ? <strong>Administrator</strong> : 'User'}</td>
              <td className="text-cell status-cell">
                <UserStatus user={u} />
              </td>
              <td className="text-cell">{u.Groups.length ? u.Groups.map((g) => g.Name).join(', ') : <span className="muted">none</span>}</td>
              <td className="text-cell">{defaultGroupName(u)}</td>
              <td className="actions-cell">
                <RowActions label={u.User}>
                  <button type="button" onClick={() => setOpen({ kind: 'edit', user: u })} aria-label={`Edit ${u.User}`}>
                    Edit
                  </button>
                  {u.Locked ? (
                    <button type="button" onClick={() => void unlock(u)} aria-label={`Unlock ${u.User}`}>
                      Unlock
                    </button>
                  ) : (
                    <button
                      type="button"
                      onClick={() => setOpen({ kind: 'lock', user: u })}
                      aria-label={`Lock ${u.User}`}
                      disabled={u.UID === me.UID}
                      title={u.UID === me.UID ? 'You cannot lock your own account' : undefined}
                    >
                      Lock
                    </button>
                  )}
                  {signInState(u).kind === 'blocked' && (
                    <button type="button" onClick={() => setOpen({ kind: 'allow', user: u })} aria-label={`Allow sign-in for ${u.User}`}>
                      Allow sign-in
                    </button>
                  )}
                  <button type="button" onClick={() => setOpen({ kind: 'password', user: u })} aria-label={`Set the password of ${u.User}`}>
                    Password
                  </button>
                  <button
                    type="button"
                    onClick={() => setOpen({ kind: 'delete', user: u })}
                    aria-label={`Delete ${u.User}`}
                    disabled={u.UID === me.UID || u.UID === PRIMARY_ADMIN_UID}
                    title={u.UID === me.UID ? 'You cannot delete your own account' : u.UID === PRIMARY_ADMIN_UID ? 'The default admin account cannot be deleted' : undefined}
                  >
                    Delete
                  </button>
                </RowActions>
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      {users && shown.length === 0 && <p className="empty">No user matches the filter.</p>}
      {open?.kind === 'new' && groups && <UserDialog groups={groups} onSaved={done} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'edit' && groups && <UserDialog user={open.user} groups={groups} onSaved={done} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'password' && <PasswordDialog user={open.user} onSaved={(m) => done(m)} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'lock' && (
        <LockDialog
          user={open.user}
          onDone={(m) => {
            setOutcome({ ok: true, text: m });
            reload();
          }}
          onClose={() => setOpen(undefined)}
        />
      )}
      {open?.kind === 'allow' && <AllowSignInDialog user={open.user} onDone={(m) => done(m)} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'delete' && (
        <ActionDialog
          title={`Delete ${open.user.User}`}
          message={
            <>
              Delete the account {open.user.User}
              {open.user.Name ? ` (${open.user.Name})` : ''}? Its sessions end, and its API tokens, dashboards, resources, files, library entries and searches are deleted with it.
              This cannot be undone.
            </>
          }
          action="Delete"
          run={() => deleteUser(open.user.UID)}
          onDone={() => done(`Deleted ${open.user.User}.`)}
          onClose={() => setOpen(undefined)}
        />
      )}
    </section>
  );
}
