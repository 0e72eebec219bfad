import { Link, useNavigate } from 'react-router';
import { Playbook } from '../api/types';
import { usePrefs } from '../prefs/PrefsContext';
import { LabelChips } from '../ui/LabelChips';
import { DeleteKeptDialog, KeptListPage, OwnedNameCell, useKeptPage } from '../ui/ListPage';
import { RowActions, RowButton } from '../ui/RowActions';
import { sharingText } from '../ui/SharingFields';
import { formatTime } from '../ui/time-format';
import { deletePlaybook, listPlaybooks, playbookMatches } from './playbooks-api';
import './playbooks.css';

const byName = (a: Playbook, b: Playbook) => a.Name.localeCompare(b.Name);
const READ_ONLY = 'Only its owner or an administrator may change or delete it.';

type Editing = { kind: 'delete'; playbook: Playbook };

/** Playbooks: notes with queries that run in place, to find, open, write, share and delete. */
export function PlaybooksPage() {
  const page = useKeptPage<Playbook, Editing>({ read: listPlaybooks, compare: byName, what: 'the playbooks', matches: playbookMatches, owners: 'others' });
  const { prefs } = usePrefs();
  const navigate = useNavigate();
  const { shown, label, setLabel, editing, setEditing } = page;

  return (
    <KeptListPage
      page={page}
      id="playbooks"
      title="Playbooks"
      create={{ label: 'New playbook', onClick: () => void navigate('/playbooks/new') }}
      intro="Notes in markdown that guide an investigation: headings, text, images, and queries that run in place. Every code block in a playbook is a query with a Run button."
      filter={{ what: 'the playbooks', every: 'playbooks', label: 'Search the playbooks', placeholder: 'name, description, label…' }}
      labels
      loading="Loading the playbooks…"
      empty="There are no playbooks yet. Write one with “New playbook”."
      columns={['Name', 'Labels', 'Shared with', 'Updated', 'Actions']}
      tableLabel="Playbooks"
      noMatch="No playbook matches the filter."
      dialogs={
        editing?.kind === 'delete' && (
          <DeleteKeptDialog page={page} title="Delete playbook" name={editing.playbook.Name} consequence="Its images stay in Files." run={() => deletePlaybook(editing.playbook)} />
        )
      }
    >
      {shown.map((p) => (
        <tr key={p.UUID}>
          <OwnedNameCell name={<Link to={`/playbooks/${p.UUID}`}>{p.Name}</Link>} description={p.Desc} owner={page.otherOwner(p)} />
          <td className="text-cell">
            <LabelChips labels={p.Labels} what="playbooks" active={label} onPick={setLabel} />
          </td>
          <td className="text-cell">{sharingText(p.GIDs, p.Global, page.groups)}</td>
          <td className="nowrap when">{formatTime(p.LastUpdated, prefs.timeZone).slice(0, 16)}</td>
          <td className="actions-cell">
            <RowActions label={p.Name} why={!p.Can.Modify || !p.Can.Delete ? READ_ONLY : undefined}>
              <RowButton unavailable={p.Can.Modify ? undefined : READ_ONLY} onClick={() => void navigate(`/playbooks/${p.UUID}/edit`)} aria-label={`Edit ${p.Name}`}>
                Edit
              </RowButton>
              <RowButton unavailable={p.Can.Delete ? undefined : READ_ONLY} onClick={() => setEditing({ kind: 'delete', playbook: p })} aria-label={`Delete ${p.Name}`}>
                Delete
              </RowButton>
            </RowActions>
          </td>
        </tr>
      ))}
    </KeptListPage>
  );
}
