import { Actionable } from '../api/types';
import { usePrefs } from '../prefs/PrefsContext';
import { LabelChips } from '../ui/LabelChips';
import { DeleteKeptDialog, KeptListPage, OwnedNameCell, useKeptPage } from '../ui/ListPage';
import { RowActions, RowButton } from '../ui/RowActions';
import { sharingText } from '../ui/SharingFields';
import { formatTime } from '../ui/time-format';
import { ActionableDialog } from './ActionableDialog';
import { actionableMatches, deleteActionable, listActionables } from './actionables-api';

const byName = (a: Actionable, b: Actionable) => a.Name.localeCompare(b.Name) || a.GUID.localeCompare(b.GUID);
const READ_ONLY = 'Only its owner or an administrator may change or delete it.';

type Editing = { kind: 'new' } | { kind: 'edit' | 'delete'; actionable: Actionable };

/** Actionables (the product's pivots): menus on values in results, to find, create, edit, share and delete. */
export function ActionablesPage() {
  const page = useKeptPage<Actionable, Editing>({ read: listActionables, compare: byName, what: 'the actionables', matches: actionableMatches, owners: 'others' });
  const { prefs } = usePrefs();
  const { shown, label, setLabel, editing, setEditing, admin } = page;
  const saved = (verb: string) => (name: string) => page.done(`${verb} “${name}”.`);

  return (
    <KeptListPage
      page={page}
      id="actionables"
      title="Actionables"
      create={{ label: 'New actionable', onClick: () => setEditing({ kind: 'new' }) }}
      intro="Menus on values in results. A trigger is a regular expression; in every table, entry and chart, a value it matches is underlined, and clicking it offers the actionable’s actions: run a query with the value, open a link, launch a dashboard."
      filter={{ what: 'the actionables', every: 'actionables', label: 'Search the actionables', placeholder: 'name, pattern, action, label…' }}
      labels
      loading="Loading the actionables…"
      empty="There are no actionables yet. Make one with “New actionable”."
      columns={['Name', 'Triggers', 'Actions', 'Labels', 'Shared with', 'Updated', 'Actions']}
      tableLabel="Actionables"
      noMatch="No actionable matches the filter."
      dialogs={
        <>
          {editing?.kind === 'new' && <ActionableDialog title="New actionable" onClose={page.close} onSaved={saved('Saved')} />}
          {editing?.kind === 'edit' && (
            <ActionableDialog title={`Edit “${editing.actionable.Name}”`} actionable={editing.actionable} admin={admin} onClose={page.close} onSaved={saved('Updated')} />
          )}
          {editing?.kind === 'delete' && (
            <DeleteKeptDialog
              page={page}
              title="Delete actionable"
              name={`“${editing.actionable.Name}”`}
              consequence="Values in results will no longer offer its actions."
              run={() => deleteActionable(editing.actionable, admin)}
            />
          )}
        </>
      }
    >
      {shown.map((a) => (
        <tr key={a.ThingUUID}>
          <OwnedNameCell
            name={
              <span className="actionable-name">
                {a.Name}
                {a.Disabled && <span className="muted small"> (disabled)</span>}
              </span>
            }
            description={a.Description}
            owner={page.otherOwner(a)}
          />
          <td className="text-cell actionable-triggers">
            {a.Contents.triggers.map((t, i) => (
              <div key={i}>
                <code>{t.pattern}</code>
                {t.disabled ? <span className="muted small"> (off)</span> : !t.hyperlink && <span className="muted small"> (on selected text)</span>}
              </div>
            ))}
          </td>
          <td className="text-cell">
            {a.Contents.menuLabel && <div className="muted small">Menu: {a.Contents.menuLabel}</div>}
            {a.Contents.actions.map((x, i) => (
              <div key={i}>{x.name}</div>
            ))}
          </td>
          <td className="text-cell">
            <LabelChips labels={a.Labels} what="actionables" active={label} onPick={setLabel} />
          </td>
          <td className="text-cell">{sharingText(a.GIDs, a.Global, page.groups)}</td>
          <td className="nowrap when">{formatTime(a.Updated, prefs.timeZone).slice(0, 16)}</td>
          <td className="actions-cell">
            <RowActions label={a.Name} why={!a.Can.Modify || !a.Can.Delete ? READ_ONLY : undefined}>
              <RowButton unavailable={a.Can.Modify ? undefined : READ_ONLY} onClick={() => setEditing({ kind: 'edit', actionable: a })} aria-label={`Edit ${a.Name}`}>
                Edit
              </RowButton>
              <RowButton unavailable={a.Can.Delete ? undefined : READ_ONLY} onClick={() => setEditing({ kind: 'delete', actionable: a })} aria-label={`Delete ${a.Name}`}>
                Delete
              </RowButton>
            </RowActions>
          </td>
        </tr>
      ))}
    </KeptListPage>
  );
}
