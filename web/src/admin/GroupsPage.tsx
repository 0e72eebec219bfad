import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { GroupDetails } from '../api/types';
import { ActionDialog } from '../ui/Dialog';
import { deleteGroup } from './admin-api';
import { AdminOnly, useDirectory } from './AdminOnly';
import { GroupDialog } from './GroupDialog';
import { MembersDialog } from './MembersDialog';
import { groupMatches, membersOf } from './user-edit';
import { ListMessages } from '../ui/ListPage';
import { ListTable } from '../ui/TableScroller';
import { RowActions } from '../ui/RowActions';
import { FilterBar, SearchBox } from '../ui/Filters';

type Open = { kind: 'new' } | { kind: 'edit' | 'members'; gid: number } | { kind: 'delete'; group: GroupDetails };

/** Groups, for administrators: create, rename, describe, choose members, delete. */
export function GroupsPage() {
  return (
    <AdminOnly>
      <Groups />
    </AdminOnly>
  );
}

function Groups() {
  const { users, groups, error, reload } = useDirectory();
  const [text, setText] = useState('');
  const [open, setOpen] = useState<Open>();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();
  const shown = useMemo(() => (groups ?? []).filter((g) => groupMatches(g, text)), [groups, text]);
  // The dialogs follow the directory as it reloads (a member added shows at once).
  const current = open && 'gid' in open ? groups?.find((g) => g.GID === open.gid) : undefined;

  const done = (message: string) => {
    setOpen(undefined);
    setOutcome({ ok: true, text: message });
    reload();
  };

  return (
    <section className="keeping-page admin-page" aria-labelledby="groups-title">
      <div className="page-head">
        <h1 id="groups-title">Groups</h1>
        <button type="button" className="primary" onClick={() => setOpen({ kind: 'new' })}>
          New group
        </button>
      </div>
      <p className="muted intro">
        People share searches, dashboards, resources and files with their groups. A user&apos;s groups and default search group can also be set on the{' '}
        <Link to="/admin/users">Users</Link> page.
      </p>
      <FilterBar label="Filter the groups">
        <SearchBox label="Search groups" value={text} onChange={setText} placeholder="name, description…" />
      </FilterBar>
      <ListMessages
        note={outcome?.text}
        noteIsError={outcome ? !outcome.ok : false}
        error={error}
        list={groups}
        loading="Loading the groups…"
        empty="There are no groups yet. Create one with “New group”."
      />
      {groups && groups.length > 0 && (
        <ListTable label="Groups" columns={['Name', 'Description', 'Members', 'Actions']}>
          {shown.map((g) => {
            const members = membersOf(g.GID, users ?? []).members;
            return (
              <tr key={g.GID}>
                <th scope="row">{g.Name}</th>
                <td className="text-cell">{g.Desc}</td>
                <td className="text-cell">{members.length ? members.map((u) => u.User).join(', ') : <span className="muted">nobody</span>}</td>
                <td className="actions-cell">
                  <RowActions label={g.Name}>
                    <button
                      type="button"
                      onClick={() => setOpen({ kind: 'members', gid: g.GID })}
                      aria-label={`Members of ${g.Name}`}
                      disabled={!users}
                      title={users ? undefined : 'The users are still being read.'}
                    >
                      Members
                    </button>
                    <button type="button" onClick={() => setOpen({ kind: 'edit', gid: g.GID })} aria-label={`Edit ${g.Name}`}>
                      Edit
                    </button>
                    <button type="button" onClick={() => setOpen({ kind: 'delete', group: g })} aria-label={`Delete ${g.Name}`}>
                      Delete
                    </button>
                  </RowActions>
                </td>
              </tr>
            );
          })}
        </ListTable>
      )}
      {groups && groups.length > 0 && shown.length === 0 && <p className="empty">No group matches the filter.</p>}
      {open?.kind === 'new' && <GroupDialog onSaved={done} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'edit' && current && <GroupDialog group={current} onSaved={done} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'members' && current && users && (
        <MembersDialog
          group={current}
          users={users}
          onChanged={(m) => {
            setOutcome({ ok: true, text: m });
            reload();
          }}
          onClose={() => setOpen(undefined)}
        />
      )}
      {open?.kind === 'delete' && (
        <ActionDialog
          title={`Delete the group ${open.group.Name}`}
          message={
            <>
              Delete the group {open.group.Name}? Its {membersOf(open.group.GID, users ?? []).members.length} members leave it, and what was shared with it is no longer shared with
              them. This cannot be undone.
            </>
          }
          action="Delete"
          run={() => deleteGroup(open.group.GID)}
          onDone={() => done(`Deleted the group ${open.group.Name}.`)}
          onClose={() => setOpen(undefined)}
        />
      )}
    </section>
  );
}
