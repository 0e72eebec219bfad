import { Macro } from '../api/types';
import { usePrefs } from '../prefs/PrefsContext';
import { LabelChips } from '../ui/LabelChips';
import { DeleteKeptDialog, KeptListPage, OwnedNameCell, useKeptPage } from '../ui/ListPage';
import { RowActions, RowButton } from '../ui/RowActions';
import { sharingText } from '../ui/SharingFields';
import { formatTime } from '../ui/time-format';
import { MacroDialog } from './MacroDialog';
import { deleteMacro, expansionPreview, listMacros, macroMatches } from './macros-api';

const byName = (a: Macro, b: Macro) => a.Name.localeCompare(b.Name);
const MACRO_READ_ONLY = 'Only its owner or an administrator may change or delete it.';

type Editing = { kind: 'new' } | { kind: 'edit' | 'delete'; macro: Macro };

/** Macros: named pieces of queries (`$NAME`), to find, create, edit, share and delete. */
export function MacrosPage() {
  const page = useKeptPage<Macro, Editing>({ read: listMacros, compare: byName, what: 'the macros', matches: macroMatches, owners: 'others' });
  const { prefs } = usePrefs();
  const { shown, label, setLabel, editing, setEditing } = page;
  const saved = (verb: string) => (name: string) => page.done(`${verb} $${name}.`);

  return (
    <KeptListPage
      page={page}
      id="macros"
      title="Macros"
      create={{ label: 'New macro', onClick: () => setEditing({ kind: 'new' }) }}
      intro="Pieces of queries kept under a name. In a query, $NAME stands for the macro’s expansion, and $NAME(a, b) fills its %%1%%, %%2%%. Type $ in the search editor to pick one."
      filter={{ what: 'the macros', every: 'macros', label: 'Search the macros', placeholder: 'name, label, expansion…' }}
      labels
      loading="Loading the macros…"
      empty="There are no macros yet. Make one with “New macro”."
      columns={['Name', 'Expansion', 'Labels', 'Shared with', 'Updated', 'Actions']}
      tableLabel="Macros"
      noMatch="No macro matches the filter."
      dialogs={
        <>
          {editing?.kind === 'new' && <MacroDialog title="New macro" onClose={page.close} onSaved={saved('Saved')} />}
          {editing?.kind === 'edit' && <MacroDialog title={`Edit $${editing.macro.Name}`} macro={editing.macro} onClose={page.close} onSaved={saved('Updated')} />}
          {editing?.kind === 'delete' && (
            <DeleteKeptDialog
              page={page}
              title="Delete macro"
              name={`$${editing.macro.Name}`}
              consequence="Queries that use it will no longer run."
              run={() => deleteMacro(editing.macro)}
            />
          )}
        </>
      }
    >
      {shown.map((m) => (
        <tr key={m.ID}>
          <OwnedNameCell
            name={
              <span className="macro-name">
                <code>${m.Name}</code>
              </span>
            }
            description={m.Description}
            owner={page.otherOwner(m)}
          />
          <td className="query-cell" title={m.Expansion}>
            {expansionPreview(m.Expansion)}
          </td>
          <td className="text-cell">
            <LabelChips labels={m.Labels} what="macros" active={label} onPick={setLabel} />
          </td>
          <td className="text-cell">{sharingText(m.GIDs, m.Global, page.groups)}</td>
          <td className="nowrap when">{formatTime(m.LastUpdated, prefs.timeZone).slice(0, 16)}</td>
          <td className="actions-cell">
            <RowActions label={`$${m.Name}`} why={!m.Can.Modify || !m.Can.Delete ? MACRO_READ_ONLY : undefined}>
              <RowButton unavailable={m.Can.Modify ? undefined : MACRO_READ_ONLY} onClick={() => setEditing({ kind: 'edit', macro: m })} aria-label={`Edit $${m.Name}`}>
                Edit
              </RowButton>
              <RowButton unavailable={m.Can.Delete ? undefined : MACRO_READ_ONLY} onClick={() => setEditing({ kind: 'delete', macro: m })} aria-label={`Delete $${m.Name}`}>
                Delete
              </RowButton>
            </RowActions>
          </td>
        </tr>
      ))}
    </KeptListPage>
  );
}
