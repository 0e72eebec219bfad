import { Link } from 'react-router';
import { LibraryEntry } from '../api/types';
import { DeleteKeptDialog, KeptListPage, OwnedNameCell, useKeptPage } from '../ui/ListPage';
import { LabelChips } from '../ui/LabelChips';
import { RowActions, RowButton } from '../ui/RowActions';
import { searchLink } from '../ui/search-link';
import { sharingText } from '../ui/SharingFields';
import { deleteEntry, entryMatches, listLibrary } from './library-api';
import { LibraryEntryDialog } from './LibraryEntryDialog';

const byName = (a: LibraryEntry, b: LibraryEntry) => a.Name.localeCompare(b.Name);
const LIBRARY_READ_ONLY = 'Only its owner or an administrator may change or delete it.';

type Editing = { kind: 'new' } | { kind: 'edit' | 'delete'; entry: LibraryEntry };

/** The search library: the person's saved queries, to find, open, run, edit and delete. */
export function LibraryPage() {
  const page = useKeptPage<LibraryEntry, Editing>({ read: listLibrary, compare: byName, what: 'the library', matches: entryMatches, owners: 'admin' });
  const { admin, shown, label, setLabel, editing, setEditing } = page;
  const saved = (verb: string) => (e: LibraryEntry) => page.done(`${verb} “${e.Name}”.`);

  return (
    <KeptListPage
      page={page}
      id="library"
      title="Query library"
      create={{ label: 'New entry', onClick: () => setEditing({ kind: 'new' }) }}
      intro="Queries you keep. Open one into the search page, run it, or share it with your groups. On the search page, “Save to library” adds the query you ran."
      filter={{ what: 'the library', every: 'entries', label: 'Search the library', placeholder: 'name, label, query…' }}
      labels
      loading="Loading the library…"
      empty="The library is empty. Run a search and choose “Save to library”, or add an entry with “New entry”."
      columns={['Name', 'Query', 'Labels', 'Shared with', 'Actions']}
      tableLabel="Library entries"
      noMatch="No entry matches the filter."
      dialogs={
        <>
          {editing?.kind === 'new' && <LibraryEntryDialog title="New library entry" draft={{ Query: '' }} onClose={page.close} onSaved={saved('Saved')} />}
          {editing?.kind === 'edit' && (
            <LibraryEntryDialog title={`Edit “${editing.entry.Name}”`} draft={editing.entry} entry={editing.entry} admin={admin} onClose={page.close} onSaved={saved('Updated')} />
          )}
          {editing?.kind === 'delete' && (
            <DeleteKeptDialog page={page} title="Delete library entry" name={editing.entry.Name} from=" from the library" run={() => deleteEntry(editing.entry, admin)} />
          )}
        </>
      }
    >
      {shown.map((e) => (
        <tr key={e.ThingUUID}>
          <OwnedNameCell name={e.Name} description={e.Description} owner={page.otherOwner(e)} />
          <td className="query-cell">{e.Query}</td>
          <td className="text-cell">
            <LabelChips labels={e.Labels} what="entries" active={label} onPick={setLabel} />
          </td>
          <td className="text-cell">{sharingText(e.GIDs, e.Global, page.groups)}</td>
          <td className="actions-cell">
            <RowActions label={e.Name} why={!e.Can.Modify || !e.Can.Delete ? LIBRARY_READ_ONLY : undefined}>
              <Link className="button" to={searchLink(e.Query)} aria-label={`Open ${e.Name} in the search page`}>
                Open
              </Link>
              <Link className="button" to={searchLink(e.Query, true)} aria-label={`Run ${e.Name}`}>
                Run
              </Link>
              <RowButton unavailable={e.Can.Modify ? undefined : LIBRARY_READ_ONLY} onClick={() => setEditing({ kind: 'edit', entry: e })} aria-label={`Edit ${e.Name}`}>
                Edit
              </RowButton>
              <RowButton unavailable={e.Can.Delete ? undefined : LIBRARY_READ_ONLY} onClick={() => setEditing({ kind: 'delete', entry: e })} aria-label={`Delete ${e.Name}`}>
                Delete
              </RowButton>
            </RowActions>
          </td>
        </tr>
      ))}
    </KeptListPage>
  );
}
